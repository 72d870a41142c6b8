// percent_decode.cpp - the vector percent decoder (generic/percent_decode.hpp)
// compiled for each x86 instruction set, and the choice of the one that
// matches the active kernel. Each set gives the decoder a `struct lanes`: one
// register and the dozen operations it needs. The scalar kernel, and NEON,
// decode with the scalar loop of stream/percent_engine.hpp.
#include "kernels/arch.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/percent.hpp"
#include "dispatch.hpp"
#include "kernels/kernel.hpp"
#include "simd/target.hpp"

#if defined(UTF8GUARD_X86_64)
#include <immintrin.h>

namespace utf8guard::detail {
namespace {

// kCompact[m] lists the positions of the set bits of m, in order: the pshufb
// indices that squeeze the kept bytes of an 8-byte group to its front.
alignas(8) constexpr std::array<std::array<std::uint8_t, 8>, 256> kCompact = [] {
  std::array<std::array<std::uint8_t, 8>, 256> t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (unsigned bit = 0; bit < 8; ++bit) {
      if ((m >> bit & 1) != 0) t[m][k++] = static_cast<std::uint8_t>(bit);
    }
  }
  return t;
}();

}  // namespace
}  // namespace utf8guard::detail

UTF8GUARD_TARGET_REGION("ssse3,sse4.1,sse4.2,popcnt")
namespace utf8guard::detail::sse42_percent {

// compact16 writes the bytes of v whose bit is set in keep (16 bits), in
// order, to out; it may write up to 16 bytes.
UTF8GUARD_SIMD_INLINE std::uint8_t* compact16(__m128i v, unsigned keep, std::uint8_t* out) {
  const unsigned lo = keep & 0xFF;
  const unsigned hi = keep >> 8 & 0xFF;
  const __m128i lo_idx = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kCompact[lo].data()));
  const __m128i hi_idx = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kCompact[hi].data()));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(v, lo_idx));
  out += __builtin_popcount(lo);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(_mm_srli_si128(v, 8), hi_idx));
  return out + __builtin_popcount(hi);
}

struct lanes {
  using reg = __m128i;
  static constexpr std::size_t width = 16;
  static UTF8GUARD_SIMD_INLINE reg load(const std::uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }
  static UTF8GUARD_SIMD_INLINE void store(std::uint8_t* p, reg v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
  }
  static UTF8GUARD_SIMD_INLINE reg splat(std::uint8_t b) {
    return _mm_set1_epi8(static_cast<char>(b));
  }
  static UTF8GUARD_SIMD_INLINE reg table(const std::uint8_t (&t)[16]) {
    return _mm_load_si128(reinterpret_cast<const __m128i*>(t));
  }
  static UTF8GUARD_SIMD_INLINE reg eq(reg a, reg b) { return _mm_cmpeq_epi8(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_and(reg a, reg b) { return _mm_and_si128(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_or(reg a, reg b) { return _mm_or_si128(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_xor(reg a, reg b) { return _mm_xor_si128(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_andnot(reg a, reg b) { return _mm_andnot_si128(a, b); }
  static UTF8GUARD_SIMD_INLINE reg add(reg a, reg b) { return _mm_add_epi8(a, b); }
  static UTF8GUARD_SIMD_INLINE reg low_nibble(reg x) { return _mm_and_si128(x, splat(0x0F)); }
  static UTF8GUARD_SIMD_INLINE reg high_nibble(reg x) {
    return _mm_and_si128(_mm_srli_epi16(x, 4), splat(0x0F));
  }
  static UTF8GUARD_SIMD_INLINE reg shift_left_4(reg x) {
    return _mm_and_si128(_mm_slli_epi16(x, 4), splat(0xF0));
  }
  static UTF8GUARD_SIMD_INLINE reg lookup(reg t, reg idx) { return _mm_shuffle_epi8(t, idx); }
  static UTF8GUARD_SIMD_INLINE bool any(reg m) { return _mm_testz_si128(m, m) == 0; }
  static UTF8GUARD_SIMD_INLINE std::uint64_t bits(reg m) {
    return static_cast<unsigned>(_mm_movemask_epi8(m));
  }
  static UTF8GUARD_SIMD_INLINE void compact(reg v, std::uint64_t keep, std::uint8_t* out) {
    compact16(v, static_cast<unsigned>(keep), out);
  }
};

#include "generic/percent_decode.hpp"

}  // namespace utf8guard::detail::sse42_percent
UTF8GUARD_TARGET_REGION_END

UTF8GUARD_TARGET_REGION("avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx2_percent {

struct lanes {
  using reg = __m256i;
  static constexpr std::size_t width = 32;
  static UTF8GUARD_SIMD_INLINE reg load(const std::uint8_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static UTF8GUARD_SIMD_INLINE void store(std::uint8_t* p, reg v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
  static UTF8GUARD_SIMD_INLINE reg splat(std::uint8_t b) {
    return _mm256_set1_epi8(static_cast<char>(b));
  }
  static UTF8GUARD_SIMD_INLINE reg table(const std::uint8_t (&t)[16]) {
    return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(t)));
  }
  static UTF8GUARD_SIMD_INLINE reg eq(reg a, reg b) { return _mm256_cmpeq_epi8(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_and(reg a, reg b) { return _mm256_and_si256(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_or(reg a, reg b) { return _mm256_or_si256(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_xor(reg a, reg b) { return _mm256_xor_si256(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_andnot(reg a, reg b) { return _mm256_andnot_si256(a, b); }
  static UTF8GUARD_SIMD_INLINE reg add(reg a, reg b) { return _mm256_add_epi8(a, b); }
  static UTF8GUARD_SIMD_INLINE reg low_nibble(reg x) { return _mm256_and_si256(x, splat(0x0F)); }
  static UTF8GUARD_SIMD_INLINE reg high_nibble(reg x) {
    return _mm256_and_si256(_mm256_srli_epi16(x, 4), splat(0x0F));
  }
  static UTF8GUARD_SIMD_INLINE reg shift_left_4(reg x) {
    return _mm256_and_si256(_mm256_slli_epi16(x, 4), splat(0xF0));
  }
  static UTF8GUARD_SIMD_INLINE reg lookup(reg t, reg idx) { return _mm256_shuffle_epi8(t, idx); }
  static UTF8GUARD_SIMD_INLINE bool any(reg m) { return _mm256_testz_si256(m, m) == 0; }
  static UTF8GUARD_SIMD_INLINE std::uint64_t bits(reg m) {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(m));
  }
  static UTF8GUARD_SIMD_INLINE void compact(reg v, std::uint64_t keep, std::uint8_t* out) {
    out = sse42_percent::compact16(_mm256_castsi256_si128(v), keep & 0xFFFF, out);
    sse42_percent::compact16(_mm256_extracti128_si256(v, 1), keep >> 16 & 0xFFFF, out);
  }
};

#include "generic/percent_decode.hpp"

}  // namespace utf8guard::detail::avx2_percent
UTF8GUARD_TARGET_REGION_END

// GCC 12's AVX-512 intrinsics trip -Wmaybe-uninitialized on their dead
// pass-through operand (see avx512vbmi.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx512_percent {

struct lanes {
  using reg = __m512i;
  static constexpr std::size_t width = 64;
  static UTF8GUARD_SIMD_INLINE reg load(const std::uint8_t* p) { return _mm512_loadu_si512(p); }
  static UTF8GUARD_SIMD_INLINE void store(std::uint8_t* p, reg v) { _mm512_storeu_si512(p, v); }
  static UTF8GUARD_SIMD_INLINE reg splat(std::uint8_t b) {
    return _mm512_set1_epi8(static_cast<char>(b));
  }
  static UTF8GUARD_SIMD_INLINE reg table(const std::uint8_t (&t)[16]) {
    return _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(t)));
  }
  static UTF8GUARD_SIMD_INLINE reg eq(reg a, reg b) {
    return _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(a, b));
  }
  static UTF8GUARD_SIMD_INLINE reg bit_and(reg a, reg b) { return _mm512_and_si512(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_or(reg a, reg b) { return _mm512_or_si512(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_xor(reg a, reg b) { return _mm512_xor_si512(a, b); }
  static UTF8GUARD_SIMD_INLINE reg bit_andnot(reg a, reg b) { return _mm512_andnot_si512(a, b); }
  static UTF8GUARD_SIMD_INLINE reg add(reg a, reg b) { return _mm512_add_epi8(a, b); }
  static UTF8GUARD_SIMD_INLINE reg low_nibble(reg x) { return _mm512_and_si512(x, splat(0x0F)); }
  static UTF8GUARD_SIMD_INLINE reg high_nibble(reg x) {
    return _mm512_and_si512(_mm512_srli_epi16(x, 4), splat(0x0F));
  }
  static UTF8GUARD_SIMD_INLINE reg shift_left_4(reg x) {
    return _mm512_and_si512(_mm512_slli_epi16(x, 4), splat(0xF0));
  }
  static UTF8GUARD_SIMD_INLINE reg lookup(reg t, reg idx) { return _mm512_shuffle_epi8(t, idx); }
  static UTF8GUARD_SIMD_INLINE bool any(reg m) { return _mm512_test_epi64_mask(m, m) != 0; }
  static UTF8GUARD_SIMD_INLINE std::uint64_t bits(reg m) { return _mm512_movepi8_mask(m); }
  static UTF8GUARD_SIMD_INLINE void compact(reg v, std::uint64_t keep, std::uint8_t* out) {
    out = sse42_percent::compact16(_mm512_castsi512_si128(v), keep & 0xFFFF, out);
    out = sse42_percent::compact16(_mm512_extracti32x4_epi32(v, 1), keep >> 16 & 0xFFFF, out);
    out = sse42_percent::compact16(_mm512_extracti32x4_epi32(v, 2), keep >> 32 & 0xFFFF, out);
    sse42_percent::compact16(_mm512_extracti32x4_epi32(v, 3), keep >> 48 & 0xFFFF, out);
  }
};

#include "generic/percent_decode.hpp"

}  // namespace utf8guard::detail::avx512_percent
UTF8GUARD_TARGET_REGION_END
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

namespace utf8guard::detail {

percent_decode_fn vector_percent_decoder() noexcept {
  switch (active_vector_isa()) {
#if defined(UTF8GUARD_X86_64)
    case vector_isa::sse42: return &sse42_percent::percent_vector::decode;
    case vector_isa::avx2: return &avx2_percent::percent_vector::decode;
    case vector_isa::avx512: return &avx512_percent::percent_vector::decode;
#endif
    default: return nullptr;  // scalar and NEON: the scalar loop
  }
}

}  // namespace utf8guard::detail
