// large_input_test.cpp - inputs past 4 GiB: every offset is a 64-bit size_t.
//
// A 32-bit counter anywhere (an int position, a uint32_t block index, a
// 32-bit mask shifted into an offset) wraps at 2^32 and reports an error at
// the wrong place, or none. The input is a private anonymous mapping of a
// little more than 4 GiB: untouched pages all map the kernel's zero page
// (zeros are valid UTF-8), so it costs no memory; one byte written past 2^32
// makes it ill-formed. MADV_HUGEPAGE lets the kernel map its huge zero page,
// so the scan does not spend its time on a million page faults.
//
// The CLI gets the same treatment from a sparse file (large_input_cli.py).
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

namespace {

constexpr std::uint64_t k4GiB = std::uint64_t{1} << 32;
// Not a multiple of any vector width, so the bad byte sits mid-vector.
constexpr std::uint64_t kBad = k4GiB + 3;
constexpr std::uint64_t kSize = k4GiB + (std::uint64_t{1} << 21) + 5;

// zero_region is kSize bytes of zeros that cost no memory until written.
class zero_region {
 public:
  zero_region() {
    void* m = mmap(nullptr, static_cast<std::size_t>(kSize), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m != MAP_FAILED) {
      data_ = static_cast<char*>(m);
      madvise(data_, static_cast<std::size_t>(kSize), MADV_HUGEPAGE);  // a hint; may fail
    }
  }
  ~zero_region() {
    if (data_ != nullptr) munmap(data_, static_cast<std::size_t>(kSize));
  }
  zero_region(const zero_region&) = delete;
  zero_region& operator=(const zero_region&) = delete;
  bool ok() const { return data_ != nullptr; }
  char& operator[](std::uint64_t i) { return data_[i]; }
  std::string_view view(std::uint64_t n = kSize) const {
    return {data_, static_cast<std::size_t>(n)};
  }

 private:
  char* data_ = nullptr;
};

// One region for the whole binary: mapping is cheap, but a region a test
// wrote to keeps those pages; each test restores the bytes it changed.
zero_region& region() {
  static zero_region r;
  return r;
}

#define REQUIRE_REGION()                                                                        \
  do {                                                                                          \
    if constexpr (sizeof(std::size_t) < 8) GTEST_SKIP() << "size_t cannot index 4 GiB";         \
    ASSERT_TRUE(region().ok()) << "cannot map " << kSize << " bytes: " << std::strerror(errno); \
  } while (0)

// Restores a byte of the shared region when the test ends, however it ends.
class poke {
 public:
  poke(std::uint64_t at, char value) : at_(at) { region()[at_] = value; }
  ~poke() { region()[at_] = '\0'; }
  poke(const poke&) = delete;
  poke& operator=(const poke&) = delete;

 private:
  std::uint64_t at_;
};

class LargeInput : public utf8guard::testing::EveryKernel {};

// One-shot validation on every kernel: the exact 64-bit offset of an error
// past 2^32, and of an unfinished sequence ending a buffer larger than 4 GiB.
TEST_P(LargeInput, OneShotPast4GiB) {
  REQUIRE_REGION();
  {
    const poke bad(kBad, '\xC0');
    const utf8guard::result r = utf8guard::validate(region().view());
    EXPECT_EQ(r.kind, utf8guard::error::overlong);
    EXPECT_EQ(r.offset, kBad);
    EXPECT_EQ(r.length, 1u);
    EXPECT_FALSE(utf8guard::is_valid(region().view()));
    const utf8guard_result c = utf8guard_validate(region().view().data(), kSize);
    EXPECT_EQ(c.kind, UTF8GUARD_ERROR_OVERLONG);
    EXPECT_EQ(c.offset, kBad);
  }
  {
    const poke lead(kSize - 2, '\xF0');
    const poke second(kSize - 1, '\x9F');
    const utf8guard::result r = utf8guard::validate(region().view());
    EXPECT_EQ(r.kind, utf8guard::error::incomplete);
    EXPECT_EQ(r.offset, kSize - 2);
    EXPECT_EQ(r.length, 2u);
  }
  // All zeros past 4 GiB: valid, and no wrapped index finds a phantom error.
  EXPECT_TRUE(utf8guard::is_valid(region().view()));
}

// Streaming: chunks of an odd size so no boundary lines up with a vector or
// with 2^32; the feed that delivers the bad byte reports it at its absolute
// offset, and bytes_fed() counts past 2^32.
TEST(LargeInputStream, ValidatorScannerSanitizerPast4GiB) {
  REQUIRE_REGION();
  const poke bad(kBad, '\xC0');
  const poke lead(kSize - 1, '\xE2');  // an unfinished sequence at the very end
  constexpr std::size_t kChunk = (std::size_t{1} << 20) + 7;
  const std::string_view all = region().view();

  utf8guard::validator v;
  utf8guard::error_scanner scan;
  utf8guard::sanitizer s;
  std::vector<utf8guard::result> errors;
  std::uint64_t out_bytes = 0, fffd_at = 0;
  bool first_report_seen = false;
  for (std::uint64_t at = 0; at < kSize; at += kChunk) {
    const std::string_view chunk = all.substr(static_cast<std::size_t>(at), kChunk);
    const utf8guard::result r = v.feed(chunk);
    const bool delivered = at + chunk.size() > kBad;
    if (!first_report_seen && delivered) {
      first_report_seen = true;
      EXPECT_EQ(r.kind, utf8guard::error::overlong);
      EXPECT_EQ(r.offset, kBad);
      EXPECT_EQ(r.length, 1u);
    } else if (!delivered) {
      ASSERT_TRUE(r.ok()) << "error before the bad byte arrived, at offset " << r.offset;
    }
    ASSERT_TRUE(scan.feed(chunk, [&](const utf8guard::result& e) { errors.push_back(e); }));
    ASSERT_TRUE(s.feed(chunk, [&](std::string_view b) {
      if (b == "\xEF\xBF\xBD") fffd_at = out_bytes;
      out_bytes += b.size();
    }));
  }
  EXPECT_EQ(v.bytes_fed(), kSize);
  EXPECT_EQ(v.finish().offset, kBad);  // the first error stands
  ASSERT_TRUE(scan.finish([&](const utf8guard::result& e) { errors.push_back(e); }));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].kind, utf8guard::error::overlong);
  EXPECT_EQ(errors[0].offset, kBad);
  EXPECT_EQ(errors[1].kind, utf8guard::error::incomplete);
  EXPECT_EQ(errors[1].offset, kSize - 1);
  EXPECT_EQ(errors[1].length, 1u);
  ASSERT_TRUE(s.finish([&](std::string_view b) { out_bytes += b.size(); }));
  EXPECT_EQ(s.replacements(), 2u);
  EXPECT_EQ(fffd_at, kBad);                 // the first U+FFFD lands where C0 was
  EXPECT_EQ(out_bytes, kSize - 2 + 3 + 3);  // two bytes became two U+FFFD

  // The C streaming object, with the error inside a chunk's carry: the bad
  // byte is the second of a chunk that starts with a 2-byte lead.
  const poke carry_lead(kBad - 1, '\xC3');
  utf8guard_validator cv;
  utf8guard_validator_init(&cv);
  EXPECT_EQ(utf8guard_validator_feed(&cv, all.data(), static_cast<std::size_t>(kBad)).kind,
            UTF8GUARD_ERROR_NONE);
  const utf8guard_result cr = utf8guard_validator_feed(&cv, all.data() + kBad, 1);
  EXPECT_EQ(cr.kind, UTF8GUARD_ERROR_TRUNCATED);
  EXPECT_EQ(cr.offset, kBad - 1);
  EXPECT_EQ(cr.length, 1u);
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(LargeInput);

}  // namespace
