// exhaustive_test.cpp - every input of 1, 2 and 3 bytes (16.8 M) against the
// oracle on every kernel: validity (is_valid and validate), kind, offset,
// length and the sanitized bytes. Three bytes reach every row of Table 3-7 up
// to its third byte, so every lead, every second-byte range boundary and
// every truncated and incomplete prefix of a 4-byte form is among them.
#include <gtest/gtest.h>

#include <string>

#include "kernels.hpp"
#include "reduced.hpp"
#include "short_inputs.hpp"

namespace utf8guard::testing {
namespace {

class ExhaustiveShort : public EveryKernel {};

// check_every_input checks all inputs of `len` bytes whose first byte lies in
// [first_lo, first_hi], reporting at most a few failures in full.
void check_every_input(std::size_t len, unsigned first_lo, unsigned first_hi) {
  constexpr int kReportLimit = 10;
  std::uint64_t failures = 0;
  std::uint64_t checked = 0;
  const std::uint32_t tails = 1u << (8 * (len - 1));
  // Three bytes: every input, or every 7th when reduced (reduced.hpp).
  const std::uint32_t step = len == 3 ? reduced_step() : 1;
  char in[kMaxShort];
  for (unsigned first = first_lo; first <= first_hi; ++first) {
    in[0] = static_cast<char>(first);
    for (std::uint32_t tail = 0; tail < tails; tail += step) {
      for (std::size_t k = 1; k < len; ++k) {
        in[k] = static_cast<char>(tail >> (8 * (len - 1 - k)));
      }
      const std::string_view bytes(in, len);
      const expectation e = oracle_expectation(bytes);
      ++checked;
      if (short_mismatch(bytes, e) != nullptr && ++failures <= kReportLimit) {
        ADD_FAILURE() << describe_mismatch(bytes, e);
      }
    }
  }
  EXPECT_EQ(failures, 0u) << "of " << checked << " inputs of " << len << " bytes";
  EXPECT_EQ(checked, std::uint64_t{first_hi - first_lo + 1} * ((tails + step - 1) / step));
}

TEST_P(ExhaustiveShort, EveryInputOfOneAndTwoBytes) {
  check_every_input(1, 0x00, 0xFF);
  check_every_input(2, 0x00, 0xFF);
}

TEST_P(ExhaustiveShort, EveryInputOfThreeBytes) { check_every_input(3, 0x00, 0xFF); }

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(ExhaustiveShort);

}  // namespace
}  // namespace utf8guard::testing
