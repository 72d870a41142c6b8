// regression_test.cpp - inputs the fuzzers found, one named test each, with
// the verdict written by hand from docs/design.md (fuzz/README.md: every crash or
// disagreement becomes a named test plus a corpus file).
#include <gtest/gtest.h>

#include <string>

#include "kernel_check.hpp"

namespace {

// Checks every kernel (both AVX-512 kernels included) against the oracle,
// and the oracle against the verdict worked out by hand.
void expect_everywhere(std::string_view in, std::string_view kind, std::size_t offset,
                       std::size_t length) {
  const reference::error want = reference::first_error(in);
  ASSERT_EQ(want.kind, kind);
  ASSERT_EQ(want.offset, offset);
  ASSERT_EQ(want.length, length);
  std::size_t failures =
      kcheck::check_all(kcheck::bodies(), in, [](const std::string& why) { ADD_FAILURE() << why; });
  EXPECT_EQ(failures, 0u);
}

// F4, fourteen B0 and a 90 (corpus file regress_simd_f4_b0_run16): too_large
// at byte 0 (F4 B0 is above U+10FFFF), as scalar, the oracle and ICU say,
// never unexpected_continuation at byte 4, which a vector body reports if it
// judges the run of continuations before the lead that starts it. Checked at
// every alignment, so the run crosses each register boundary.
TEST(FuzzRegression, F4FollowedByARegisterOfContinuationsIsTooLargeAtItsLead) {
  // (Appended, not "\xF4" + ...: GCC 12 -Wrestrict misfires on a literal + std::string.)
  const std::string in = std::string("\xF4").append(14, '\xB0').append("\x90");
  expect_everywhere(in, "too_large", 0, 1);
  // The same at every offset of a register, behind ASCII.
  for (std::size_t pad = 1; pad <= 64; ++pad) {
    expect_everywhere(std::string(pad, 'a') + in, "too_large", pad, 1);
  }
}

}  // namespace
