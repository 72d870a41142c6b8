// boundary_test.cpp - every scan body against the oracle where SIMD kernels
// go wrong: at register, block and error-check-group boundaries, in the
// zero-padded tail, across carried sequences, and on random and mutated text.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "kernel_check.hpp"

namespace {

constexpr int kReportLimit = 10;

// Runs a generator over every body, reporting the first failures in full.
void run(void (*generate)(const kcheck::visit_fn&)) {
  const auto ks = kcheck::bodies();
  std::size_t inputs = 0, failures = 0;
  generate([&](const std::string& group, std::string_view in) {
    ++inputs;
    failures += kcheck::check_all(ks, in, [&](const std::string& why) {
      if (failures < kReportLimit) ADD_FAILURE() << group << ": " << why;
    });
  });
  EXPECT_EQ(failures, 0u) << "of " << inputs << " inputs on " << ks.size() << " bodies";
  EXPECT_GT(inputs, 0u);
}

TEST(KernelBoundaries, EveryBodyIsListedAndTheScalarOneFirst) {
  const auto ks = kcheck::bodies();
  ASSERT_FALSE(ks.empty());
  EXPECT_STREQ(ks.front()->name, "scalar");
}

TEST(KernelBoundaries, EveryLengthUpToFourWidthsPlus64) { run(&kcheck::each_length); }

TEST(KernelBoundaries, EveryErrorKindAtEveryPosition) { run(&kcheck::each_error_position); }

TEST(KernelBoundaries, SequencesCarriedAcrossEveryPosition) { run(&kcheck::each_carry); }

TEST(KernelBoundaries, ErrorsAroundTheBlocksOfLongAsciiRuns) { run(&kcheck::each_ascii_block); }

// Runs of ASCII are read by 1 KiB blocks of registers from the first
// register-aligned address on (the bytes before it by one unaligned
// register), then by groups, and after a stream's ASCII hint a short rest by
// a group that overlaps what was read: one byte that is not ASCII must be
// seen wherever it lies, whatever the input's alignment. The input is placed
// at every offset from a 64-byte boundary (the widest register).
TEST(KernelBoundaries, OneNonAsciiByteAnywhereInAsciiBlocksAtEveryAlignment) {
  run([](const kcheck::visit_fn& visit) {
    constexpr std::size_t kWidest = 64;
    const std::size_t n = 2 * 1024 + 64 + 40;
    const std::string ascii = kcheck::background(kcheck::text::ascii, n);
    std::string buf(n + 2 * kWidest, 'x');
    const std::size_t aligned =
        (kWidest - reinterpret_cast<std::uintptr_t>(buf.data()) % kWidest) % kWidest;
    for (std::size_t shift = 0; shift < kWidest; ++shift) {
      char* const at = buf.data() + aligned + shift;  // 64-byte boundary + shift
      for (std::size_t pos = 0; pos < n; ++pos) {
        ascii.copy(at, n);
        at[pos] = static_cast<char>(pos % 2 == 0 ? 0x80 : 0xFF);
        visit("one byte that is not ASCII", std::string_view(at, n));
      }
    }
  });
}

// A short input of ASCII is settled by a test of a few words before a
// kernel sets anything up (core/short_input.hpp, is_short_ascii): every snippet
// at every position of every length up to two of the widest registers and
// 16 bytes more, so that a byte that test missed shows wherever it lies,
// not only at the end (where each_error_position cuts its inputs).
TEST(KernelBoundaries, EverySnippetAnywhereInShortAsciiInputs) {
  run([](const kcheck::visit_fn& visit) {
    constexpr std::size_t kLongest = 2 * kcheck::kMaxWidth + 16;
    for (std::size_t n = 1; n <= kLongest; ++n) {
      const std::string base = kcheck::background(kcheck::text::ascii, n);
      visit("background", base);
      for (const kcheck::snippet& sn : kcheck::snippets()) {
        for (std::size_t pos = 0; pos + sn.bytes.size() <= n; ++pos) {
          std::string s = base;
          s.replace(pos, sn.bytes.size(), sn.bytes);
          visit(sn.name, s);
        }
      }
    }
  });
}

// The scalar body walks inputs of 256 bytes and more as two halves cut near
// the middle: every error kind at every position around the cut, on every
// background, for even and odd lengths.
TEST(KernelBoundaries, ErrorsAroundTheScalarBodysMiddleCut) {
  run([](const kcheck::visit_fn& visit) {
    for (std::size_t n : {256, 257, 258, 259, 300, 839, 1000}) {
      for (kcheck::text t : kcheck::kTexts) {
        const std::string base = kcheck::background(t, n);
        visit("background", base);
        for (const kcheck::snippet& sn : kcheck::snippets()) {
          for (std::size_t pos = n / 2 - 8; pos <= n / 2 + 8; ++pos) {
            std::string s = base;
            s.replace(pos, sn.bytes.size(), sn.bytes);
            visit(sn.name, s);
          }
        }
      }
    }
  });
}

TEST(KernelRandom, RandomValidTextAndItsMutations) {
  const auto ks = kcheck::bodies();
  kcheck::generator gen(20261122);
  std::size_t failures = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::size_t len = gen.below(i % 10 == 0 ? 4000 : 700);
    const std::string valid = gen.valid(len);
    for (const std::string& in : {valid, gen.mutated(valid), gen.mutated(valid)}) {
      failures += kcheck::check_all(ks, in, [&](const std::string& why) {
        if (failures < kReportLimit) ADD_FAILURE() << why;
      });
    }
  }
  EXPECT_EQ(failures, 0u);
}

TEST(KernelRandom, RandomBytes) {
  const auto ks = kcheck::bodies();
  kcheck::generator gen(7);
  std::size_t failures = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string in = gen.random_bytes(gen.below(80));
    failures += kcheck::check_all(ks, in, [&](const std::string& why) {
      if (failures < kReportLimit) ADD_FAILURE() << why;
    });
  }
  EXPECT_EQ(failures, 0u);
}

// Every body reports the same verdict as the scalar body on long inputs
// whose only error lies far from the start: the error path never rescans.
TEST(KernelRandom, LateErrorsInLongInputs) {
  const auto ks = kcheck::bodies();
  kcheck::generator gen(99);
  std::size_t failures = 0;
  for (int i = 0; i < 200; ++i) {
    std::string in = gen.valid(20000 + gen.below(5000));
    const std::size_t at = in.size() - 1 - gen.below(300);
    in[at] = static_cast<char>(0x80 + gen.below(0x80));
    failures += kcheck::check_all(ks, in, [&](const std::string& why) {
      if (failures < kReportLimit) ADD_FAILURE() << why;
    });
  }
  EXPECT_EQ(failures, 0u);
}

}  // namespace
