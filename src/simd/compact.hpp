// compact.hpp - compact16: the bytes of a 16-byte register that a mask
// keeps, squeezed to its front (pshufb by simd/compact_table.hpp's kCompact),
// from which each x86 wrapper's compact() is built for the percent decoder
// (generic/percent_decode.hpp).
//
// No include guard on purpose: each x86 wrapper (sse.hpp, avx2.hpp,
// avx512.hpp) includes this file inside its ISA namespace and target region,
// so compact16 is compiled for that set. The kernel file includes
// simd/compact_table.hpp first, outside them.

// compact16 writes the bytes of v whose bit is set in keep (16 bits), in
// order, to out, and returns the end of what it kept; it may write up to 16
// bytes.
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
