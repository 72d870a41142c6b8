// limits.cpp - the read pass. The vector versions live in target-attribute
// functions (no per-file -m flags: HACKING.md) and are chosen at run time.
#include "limits.hpp"

#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define UTF8GUARD_BENCH_X86 1
#endif

namespace bench {
namespace {

// The portable version, also the tail of the vector ones: the OR of all
// bytes, folded to one.
std::uint64_t read_words(const std::uint8_t* p, std::size_t n) noexcept {
  std::uint64_t acc = 0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    acc |= w;
  }
  for (; i < n; ++i) acc |= p[i];
  for (int shift = 32; shift >= 8; shift /= 2) acc |= acc >> shift;
  return acc & 0xFF;
}

#ifdef UTF8GUARD_BENCH_X86
// Per 256-byte block: three loads into one ternary OR, a fourth OR, and a
// test of every bit, counted. No vector value is carried from one block to
// the next. It reads from L2 at least as fast as four running accumulators,
// eight loads per step or a sign-bit test, with g++ and with clang, so the
// limit it sets is not an artefact of a slow loop.
__attribute__((target("avx512f,avx512bw"))) std::uint64_t read_avx512(const std::uint8_t* p,
                                                                      std::size_t n) noexcept {
  std::uint64_t nonzero_blocks = 0;
  std::size_t i = 0;
  for (; i + 256 <= n; i += 256) {
    __m512i x = _mm512_ternarylogic_epi64(_mm512_loadu_si512(p + i), _mm512_loadu_si512(p + i + 64),
                                          _mm512_loadu_si512(p + i + 128), 0xFE);  // a | b | c
    x = _mm512_or_si512(x, _mm512_loadu_si512(p + i + 192));
    nonzero_blocks += _mm512_test_epi64_mask(x, x) != 0;
  }
  return nonzero_blocks + read_words(p + i, n - i);
}

__attribute__((target("avx2"))) std::uint64_t read_avx2(const std::uint8_t* p,
                                                        std::size_t n) noexcept {
  std::uint64_t nonzero_blocks = 0;
  std::size_t i = 0;
  // SAFETY: every load reads 32 bytes at p + i + k with i + 128 <= n.
  for (; i + 128 <= n; i += 128) {
    const auto* v = reinterpret_cast<const __m256i*>(p + i);
    const __m256i x =
        _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256(v), _mm256_loadu_si256(v + 1)),
                        _mm256_or_si256(_mm256_loadu_si256(v + 2), _mm256_loadu_si256(v + 3)));
    nonzero_blocks += _mm256_testz_si256(x, x) == 0;
  }
  return nonzero_blocks + read_words(p + i, n - i);
}
#endif

using read_fn = std::uint64_t (*)(const std::uint8_t*, std::size_t) noexcept;

struct choice {
  read_fn fn;
  std::string_view isa;
};

choice choose() noexcept {
#ifdef UTF8GUARD_BENCH_X86
  // __builtin_cpu_supports also checks that the OS saves the vector state.
  if (__builtin_cpu_supports("avx512bw")) return {read_avx512, "avx512"};
  if (__builtin_cpu_supports("avx2")) return {read_avx2, "avx2"};
#endif
  return {read_words, "scalar64"};
}

const choice& chosen() noexcept {
  static const choice c = choose();
  return c;
}

}  // namespace

std::uint64_t read_pass(const std::uint8_t* p, std::size_t n) noexcept { return chosen().fn(p, n); }

std::string_view read_pass_isa() noexcept { return chosen().isa; }

}  // namespace bench
