// exhaustive4_test.cpp - every one of the 2^32 inputs of 4 bytes against the
// oracle with the scalar and the best kernel active: validity (is_valid and
// validate), kind, offset and length, and the sanitized bytes (scalar).
//
// Cost is what shapes this file. The oracle's verdict is computed once per
// input and every kernel is compared with it: for each (byte 0, byte 1) the
// 65536 expectations of (byte 2, byte 3) are built into one 1 MiB block, then
// each kernel is forced in turn and run over the whole block. Building a
// block costs one oracle first_error() per input: what follows the first
// error is looked up in tables of the oracle's expectations of every shorter
// suffix. Nothing is allocated per input.
//
// Inputs of up to 8 bytes reach a kernel only through is_valid, and only
// where its short_dfa is 0 (the AVX-512 kernels, whose masked short path
// answers them); otherwise is_valid and validate answer them with short_scan
// (api/validate.cpp, core/short_input.hpp). So the 2^32 inputs are
// checked with two kernels active, the scalar one and the best usable one:
// the DFA and, on an AVX-512 machine, the masked path; the other kernels
// would run the DFA again.
// Each kernel's own scan is held to the oracle on every input of up to 3
// bytes (kernel_selfcheck, exhaustive_test.cpp) and on longer ones
// (kernels_test). sanitize_to, which costs as much as the two validating
// calls together, is checked on every input with the scalar kernel, the
// reference. This keeps the 2^32 inputs within CI's time budget. The 16
// shards (one per high nibble of byte 0) are separate ctest tests, labelled
// `exhaustive`, so `ctest -j2` keeps two cores busy.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cpu_time.hpp"
#include "kernels.hpp"
#include "short_inputs.hpp"

namespace utf8guard::testing {
namespace {

constexpr unsigned kShards = 16;
constexpr unsigned kLeadsPerShard = 256 / kShards;
constexpr std::size_t kBlock = 1u << 16;  // every (byte 2, byte 3)

class Exhaustive4 : public ::testing::TestWithParam<unsigned> {
 protected:
  void TearDown() override { set_kernel("best"); }
};

struct kernel_tally {
  std::string name;
  bool sanitize = true;  // sanitize_to checked on every input too
  std::uint64_t failures = 0;
  double cpu_seconds = 0;  // spent in this kernel's checks, for the log
};

TEST_P(Exhaustive4, EveryInputOnEveryKernel) {
  constexpr int kReportLimit = 10;
  const unsigned first_lo = GetParam() * kLeadsPerShard;
  const unsigned first_hi = first_lo + kLeadsPerShard - 1;

  std::vector<kernel_tally> tally{{"scalar", true}};
  const std::vector<std::string> usable = usable_kernels();  // slowest first
  if (!usable.empty() && usable.back() != "scalar") tally.push_back({usable.back(), false});

  // The oracle's expectations of every suffix a 4-byte input can leave after
  // its first error: (byte 3), (byte 2, byte 3), and (byte 1, 2, 3) for the
  // current byte 1. With them, each input costs the oracle one first_error().
  std::vector<expectation> tail1(256), tail2(kBlock), tail3(kBlock), block(kBlock);
  for (std::size_t i = 0; i < kBlock; ++i) {
    const char t[2] = {static_cast<char>(i >> 8), static_cast<char>(i)};
    tail2[i] = oracle_expectation({t, 2});
    if (i < 256) tail1[i] = oracle_expectation({t + 1, 1});
  }

  // rest(start, i) is the expectation of in[start..4) for in[2..4) = i.
  const expectation kNothing{};
  const auto rest = [&](std::size_t start, std::size_t i) -> const expectation& {
    switch (start) {
      case 1: return tail3[i];
      case 2: return tail2[i];
      case 3: return tail1[i & 0xFF];
      default: return kNothing;  // the error ends the input
    }
  };

  std::uint64_t checked = 0;
  for (unsigned b1 = 0; b1 < 256; ++b1) {
    for (std::size_t i = 0; i < kBlock; ++i) {
      const char t[3] = {static_cast<char>(b1), static_cast<char>(i >> 8), static_cast<char>(i)};
      tail3[i] = oracle_expectation({t, 3});
    }
    for (unsigned b0 = first_lo; b0 <= first_hi; ++b0) {
      char in[4] = {static_cast<char>(b0), static_cast<char>(b1), 0, 0};
      for (std::size_t i = 0; i < kBlock; ++i) {
        in[2] = static_cast<char>(i >> 8);
        in[3] = static_cast<char>(i);
        const reference::error first = reference::first_error({in, 4});
        join({in, 4}, first, first.ok() ? kNothing : rest(first.offset + first.length, i),
             block[i]);
      }
      for (kernel_tally& k : tally) {
        ASSERT_TRUE(set_kernel(k.name)) << k.name;
        const double start = thread_cpu_seconds();
        for (std::size_t i = 0; i < kBlock; ++i) {
          in[2] = static_cast<char>(i >> 8);
          in[3] = static_cast<char>(i);
          if (short_mismatch({in, 4}, block[i], k.sanitize) != nullptr &&
              ++k.failures <= kReportLimit) {
            ADD_FAILURE() << describe_mismatch({in, 4}, block[i]);
          }
        }
        // Proof that the forced kernel, not another one, answered: every
        // entry point calls the active kernel, and it is still this one.
        ASSERT_TRUE(is_active(k.name)) << k.name;
        k.cpu_seconds += thread_cpu_seconds() - start;
      }
      checked += kBlock;
    }
  }

  EXPECT_EQ(checked, std::uint64_t{kLeadsPerShard} << 24);
  const double total = thread_cpu_seconds();
  std::printf("shard CPU time %.1f s, of which:", total);
  for (const kernel_tally& k : tally) {
    std::printf(" %s%s %.1f s", k.name.c_str(), k.sanitize ? " (with sanitize_to)" : "",
                k.cpu_seconds);
  }
  std::printf("\n");
  for (const kernel_tally& k : tally) {
    EXPECT_EQ(k.failures, 0u) << "kernel " << k.name << ", of " << checked << " inputs";
  }
}

std::string shard_name(const ::testing::TestParamInfo<unsigned>& info) {
  char name[32];
  std::snprintf(name, sizeof name, "first_byte_%02X_to_%02X", info.param * kLeadsPerShard,
                info.param * kLeadsPerShard + kLeadsPerShard - 1);
  return name;
}

INSTANTIATE_TEST_SUITE_P(Shards, Exhaustive4, ::testing::Range(0u, kShards), shard_name);

}  // namespace
}  // namespace utf8guard::testing
