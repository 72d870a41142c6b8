// guard_page_test.cpp - no scan body reads outside [data, data + n): the
// input ends at (or starts on) a PROT_NONE page, for every length 0..4
// widths + 64, for well-formed text and text that ends inside a sequence,
// and for the long ASCII runs that kernels read by blocks.
#include <gtest/gtest.h>

#include "guard_page.hpp"
#include "kernel_check.hpp"

namespace {

using utf8guard::testing::guarded_buffer;

void check_guarded(guarded_buffer::side side) {
  const auto ks = kcheck::bodies();
  std::size_t checked = 0;
  for (kcheck::text t : kcheck::kTexts) {
    for (std::size_t len = 0; len <= kcheck::kSpan; ++len) {
      std::string tails[] = {kcheck::background(t, len), kcheck::background(t, len)};
      if (len > 0) tails[1].back() = '\xF0';  // ends inside a sequence
      for (const std::string& s : tails) {
        const guarded_buffer buf(s, side);
        for (const kcheck::kernel* k : ks) {
          const std::string why = kcheck::check_one(*k, buf.view(), reference::first_error(s));
          EXPECT_EQ(why, "") << (side == guarded_buffer::at_end ? "at end" : "at start");
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 0u);
}

TEST(KernelGuardPages, LastByteAgainstAProtectedPage) { check_guarded(guarded_buffer::at_end); }

TEST(KernelGuardPages, FirstByteAfterAProtectedPage) { check_guarded(guarded_buffer::at_start); }

// Long runs of ASCII, read by whole blocks (and, after the ASCII hint, by
// whole blocks first): every input of each_ascii_block against either page.
TEST(KernelGuardPages, LongAsciiRunsBetweenProtectedPages) {
  const auto ks = kcheck::bodies();
  std::size_t checked = 0;
  kcheck::each_ascii_block([&](const std::string& group, std::string_view in) {
    for (const guarded_buffer::side side : {guarded_buffer::at_end, guarded_buffer::at_start}) {
      const guarded_buffer buf(in, side);
      for (const kcheck::kernel* k : ks) {
        EXPECT_EQ(kcheck::check_one(*k, buf.view(), reference::first_error(in)), "") << group;
        ++checked;
      }
    }
  });
  EXPECT_GT(checked, 0u);
}

TEST(KernelGuardPages, EmptyInputAtAProtectedAddress) {
  const guarded_buffer buf("", guarded_buffer::at_end);
  for (const kcheck::kernel* k : kcheck::bodies()) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(buf.guard_address());
    EXPECT_EQ(k->scan(p, 0), 0u) << k->name;
    EXPECT_EQ(k->scan(nullptr, 0), 0u) << k->name;
  }
}

}  // namespace
