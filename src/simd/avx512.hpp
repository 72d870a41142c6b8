// avx512.hpp - the 64-byte AVX-512BW wrapper; the members of src/simd/sse.hpp.
//
// Included by src/kernels/avx512vbmi2.cpp, avx512vbmi.cpp and avx512bw.cpp,
// each in its own namespace that first defines `constexpr bool kVbmi` and
// `kVbmi2`: with VBMI byte permutes replace two steps each, with VBMI2 one
// vpcompressb squeezes a whole register (compact); without them the same
// members use BW instructions only.

// kept() passes a register through an empty asm. The test program that
// compiles this wrapper over portable intrinsics (tests/emulated/
// emulated_avx512.cpp), where __m512i is a struct, passes it through memory.
#ifndef UTF8GUARD_AVX512_KEEP
#define UTF8GUARD_AVX512_KEEP(x) asm("" : "+v"(x))
#endif

#include "simd/compact.hpp"  // compact16, for compact()

struct simd8 {
  __m512i v;

  static constexpr std::size_t width = 64;
  static constexpr std::size_t group_regs = 4;  // 256 bytes per error check
  // As AVX2 (avx2.hpp): aligned reads gain a little in L2 but stream ASCII
  // from memory slower.
  static constexpr bool align_blocks = false;
  // The lead flags are shifted (vpermt2b with VBMI), not read from memory as
  // AVX2 reads them: there each 64-byte load would split across two cache
  // lines. The BW body shares the choice.
  static constexpr bool leads_from_memory = false;
  // The check's constants are pinned in registers (see sse.hpp): 32 have
  // room for them, and unpinned, g++ builds three again for every group of
  // non-ASCII.
  static constexpr bool pin_constants = true;
  // short_masked: scan settles an input of at most two registers by
  // masked loads, with no branch on its content (utf8_lookup.hpp,
  // short_check); the other wrappers build a partial register from pieces.
  static constexpr bool short_masked = true;
  // Runs of ASCII are read by 32-byte registers (see sse.hpp): 64-byte loads
  // stream them from memory more slowly.
  struct ascii_reg {
    __m256i v;
    static constexpr std::size_t width = 32;
    static UTF8GUARD_SIMD_INLINE ascii_reg load(const std::uint8_t* p) {
      return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))};
    }
    static UTF8GUARD_SIMD_INLINE ascii_reg load_aligned(const std::uint8_t* p) {
      return {_mm256_load_si256(reinterpret_cast<const __m256i*>(p))};
    }
    friend UTF8GUARD_SIMD_INLINE ascii_reg operator|(ascii_reg a, ascii_reg b) {
      return {_mm256_or_si256(a.v, b.v)};
    }
    UTF8GUARD_SIMD_INLINE ascii_reg eq(std::uint8_t b) const {
      return {_mm256_cmpeq_epi8(v, _mm256_set1_epi8(static_cast<char>(b)))};
    }
    UTF8GUARD_SIMD_INLINE ascii_reg key(std::uint8_t b) const {
      return {_mm256_xor_si256(v, _mm256_set1_epi8(static_cast<char>(b)))};
    }
    friend UTF8GUARD_SIMD_INLINE ascii_reg min_signed(ascii_reg a, ascii_reg b) {
      return {_mm256_min_epi8(a.v, b.v)};
    }
    UTF8GUARD_SIMD_INLINE bool clean() const {
      return _mm256_movemask_epi8(_mm256_subs_epi8(v, _mm256_set1_epi8(1))) == 0;
    }
    UTF8GUARD_SIMD_INLINE bool is_ascii() const { return _mm256_movemask_epi8(v) == 0; }
  };

  // SAFETY: the caller guarantees p[0..64) is inside the input.
  static UTF8GUARD_SIMD_INLINE simd8 load(const std::uint8_t* p) { return {_mm512_loadu_si512(p)}; }
  // A masked load reads only p[0..len): masked-off bytes are zero and never
  // fault, so the tail needs no copy.
  static UTF8GUARD_SIMD_INLINE simd8 load_partial(const std::uint8_t* p, std::size_t len) {
    return {_mm512_maskz_loadu_epi8(_bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(len)), p)};
  }
  // store and store_partial write out[0..64) and out[0..len): the masked
  // store never touches the bytes past len (short_copy, utf8_lookup.hpp).
  UTF8GUARD_SIMD_INLINE void store(std::uint8_t* out) const { _mm512_storeu_si512(out, v); }
  UTF8GUARD_SIMD_INLINE void store_partial(std::uint8_t* out, std::size_t len) const {
    _mm512_mask_storeu_epi8(out, _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(len)), v);
  }
  // SAFETY: as load, and p is 64-byte aligned.
  static UTF8GUARD_SIMD_INLINE simd8 load_aligned(const std::uint8_t* p) {
    return {_mm512_load_si512(p)};
  }
  static UTF8GUARD_SIMD_INLINE simd8 splat(std::uint8_t b) {
    return {_mm512_set1_epi8(static_cast<char>(b))};
  }
  static UTF8GUARD_SIMD_INLINE simd8 zero() { return {_mm512_setzero_si512()}; }
  static UTF8GUARD_SIMD_INLINE simd8 last_word(std::uint32_t w) {
    return {_mm512_maskz_set1_epi32(0x8000, static_cast<int>(w))};
  }
  UTF8GUARD_SIMD_INLINE simd8 kept() const {  // see sse.hpp
    __m512i x = v;
    UTF8GUARD_AVX512_KEEP(x);
    return {x};
  }
  UTF8GUARD_SIMD_INLINE std::uint32_t top_word() const {
    return static_cast<std::uint32_t>(_mm_extract_epi32(_mm512_extracti32x4_epi32(kept().v, 3), 3));
  }
  // The table in all four 128-bit lanes serves vpshufb (per lane) and, as a
  // 64-entry table whose index bits 4-5 do not matter, vpermb.
  static UTF8GUARD_SIMD_INLINE simd8 repeat_16(const std::uint8_t (&t)[16]) {
    return {_mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)))};
  }

  template <int N>
  UTF8GUARD_SIMD_INLINE simd8 prev(simd8 prev_input) const {
    if constexpr (kVbmi) {
      // Byte i takes index (i - N) mod 128 of the pair (v, prev_input):
      // v[i - N] for i >= N, else prev_input[64 + i - N].
      alignas(64) static constexpr std::uint8_t kIdx[64] = {
          (0 - N) & 127,  (1 - N) & 127,  (2 - N) & 127,  (3 - N) & 127,  (4 - N) & 127,
          (5 - N) & 127,  (6 - N) & 127,  (7 - N) & 127,  (8 - N) & 127,  (9 - N) & 127,
          (10 - N) & 127, (11 - N) & 127, (12 - N) & 127, (13 - N) & 127, (14 - N) & 127,
          (15 - N) & 127, (16 - N) & 127, (17 - N) & 127, (18 - N) & 127, (19 - N) & 127,
          (20 - N) & 127, (21 - N) & 127, (22 - N) & 127, (23 - N) & 127, (24 - N) & 127,
          (25 - N) & 127, (26 - N) & 127, (27 - N) & 127, (28 - N) & 127, (29 - N) & 127,
          (30 - N) & 127, (31 - N) & 127, (32 - N) & 127, (33 - N) & 127, (34 - N) & 127,
          (35 - N) & 127, (36 - N) & 127, (37 - N) & 127, (38 - N) & 127, (39 - N) & 127,
          (40 - N) & 127, (41 - N) & 127, (42 - N) & 127, (43 - N) & 127, (44 - N) & 127,
          (45 - N) & 127, (46 - N) & 127, (47 - N) & 127, (48 - N) & 127, (49 - N) & 127,
          (50 - N) & 127, (51 - N) & 127, (52 - N) & 127, (53 - N) & 127, (54 - N) & 127,
          (55 - N) & 127, (56 - N) & 127, (57 - N) & 127, (58 - N) & 127, (59 - N) & 127,
          (60 - N) & 127, (61 - N) & 127, (62 - N) & 127, (63 - N) & 127};
      return {_mm512_permutex2var_epi8(v, _mm512_load_si512(kIdx), prev_input.v)};
    } else {
      // vpalignr works per 128-bit lane: feed it [prev's top lane, this
      // register's lanes 0-2] as the low operand.
      const __m512i spliced = _mm512_alignr_epi64(v, prev_input.v, 6);
      return {_mm512_alignr_epi8(v, spliced, 16 - N)};
    }
  }

  UTF8GUARD_SIMD_INLINE simd8 high_nibble_lookup(simd8 table) const {
    const __m512i shifted = _mm512_srli_epi16(v, 4);
    if constexpr (kVbmi) {
      // vpermb reads index bits 0-5: bits 0-3 are the high nibble, bits 4-5
      // (from the neighbouring byte) select one of four equal table copies.
      return {_mm512_permutexvar_epi8(shifted, table.v)};
    } else {
      return {_mm512_shuffle_epi8(table.v, _mm512_and_si512(shifted, _mm512_set1_epi8(0x0F)))};
    }
  }
  UTF8GUARD_SIMD_INLINE simd8 low_nibble_lookup(simd8 table) const {
    if constexpr (kVbmi) {
      return {_mm512_permutexvar_epi8(v, table.v)};  // index bits 4-5 pick a copy
    } else {
      return {_mm512_shuffle_epi8(table.v, _mm512_and_si512(v, _mm512_set1_epi8(0x0F)))};
    }
  }

  UTF8GUARD_SIMD_INLINE simd8 saturating_sub(simd8 o) const { return {_mm512_subs_epu8(v, o.v)}; }
  friend UTF8GUARD_SIMD_INLINE simd8 operator|(simd8 a, simd8 b) {
    return {_mm512_or_si512(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 operator&(simd8 a, simd8 b) {
    return {_mm512_and_si512(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 operator^(simd8 a, simd8 b) {
    return {_mm512_xor_si512(a.v, b.v)};
  }

  UTF8GUARD_SIMD_INLINE simd8 eq(std::uint8_t b) const {  // see sse.hpp
    return {_mm512_movm_epi8(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(b))))};
  }
  UTF8GUARD_SIMD_INLINE simd8 key(std::uint8_t b) const {  // see sse.hpp
    return {_mm512_xor_si512(v, _mm512_set1_epi8(static_cast<char>(b)))};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 min_signed(simd8 a, simd8 b) {
    return {_mm512_min_epi8(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 min_unsigned(simd8 a, simd8 b) {
    return {_mm512_min_epu8(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 max_unsigned(simd8 a, simd8 b) {
    return {_mm512_max_epu8(a.v, b.v)};
  }
  UTF8GUARD_SIMD_INLINE bool clean() const {
    return _mm512_cmpgt_epi8_mask(v, _mm512_setzero_si512()) == ~std::uint64_t{0};
  }
  UTF8GUARD_SIMD_INLINE bool any() const { return _mm512_test_epi64_mask(v, v) != 0; }
  UTF8GUARD_SIMD_INLINE bool is_ascii() const { return _mm512_movepi8_mask(v) == 0; }
  UTF8GUARD_SIMD_INLINE std::size_t first_nonzero() const {
    const std::uint64_t nonzero = _mm512_test_epi8_mask(v, v);
    return nonzero == 0 ? width : static_cast<std::size_t>(_tzcnt_u64(nonzero));
  }

  // store, operator+, bits, compact, eq_bits, select_by_sign: see sse.hpp.
  friend UTF8GUARD_SIMD_INLINE simd8 operator+(simd8 a, simd8 b) {
    return {_mm512_add_epi8(a.v, b.v)};
  }
  UTF8GUARD_SIMD_INLINE std::uint64_t bits() const { return _mm512_movepi8_mask(v); }
  // With VBMI2 compact writes all 64 bytes of out, the kept ones first: it
  // compresses into a register and stores that, because vpcompressb to
  // memory is microcoded and slow on Zen 4.
  UTF8GUARD_SIMD_INLINE void compact(std::uint64_t keep, std::uint8_t* out) const {
    if constexpr (kVbmi2) {
      _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(keep, v));
    } else {
      out = compact16(_mm512_castsi512_si128(v), keep & 0xFFFF, out);
      out = compact16(_mm512_extracti32x4_epi32(v, 1), keep >> 16 & 0xFFFF, out);
      out = compact16(_mm512_extracti32x4_epi32(v, 2), keep >> 32 & 0xFFFF, out);
      compact16(_mm512_extracti32x4_epi32(v, 3), keep >> 48 & 0xFFFF, out);
    }
  }
  UTF8GUARD_SIMD_INLINE std::uint64_t eq_bits(std::uint8_t b) const {
    return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(b)));
  }
  UTF8GUARD_SIMD_INLINE simd8 select_by_sign(simd8 if_set, simd8 if_clear) const {
    return {_mm512_mask_blend_epi8(_mm512_movepi8_mask(v), if_clear.v, if_set.v)};
  }
  // mask_registers: select_bits takes the lanes of if_set whose bit is set
  // in m, of if_clear elsewhere, from an opmask register: where the caller
  // has the bits already, no register of 0xFF and 0 lanes is built for it.
  static constexpr bool mask_registers = true;
  static UTF8GUARD_SIMD_INLINE simd8 select_bits(std::uint64_t m, simd8 if_set, simd8 if_clear) {
    return {_mm512_mask_blend_epi8(m, if_clear.v, if_set.v)};
  }
  // lookup128 (with VBMI) gives each byte b its entry for b & 0x7F in the
  // 128-byte table lo:hi (lo holds entries 0-63), with b's top bit or-ed in:
  // a byte below 0x80 gets its entry, any other a byte with the top bit set.
  // One vpermi2b and one vpternlogd, with no opmask to build.
  static constexpr bool table128 = kVbmi;
  UTF8GUARD_SIMD_INLINE simd8 lookup128(simd8 lo, simd8 hi) const {
    const __m512i entry = _mm512_permutex2var_epi8(lo.v, v, hi.v);
    return {_mm512_ternarylogic_epi32(entry, v, _mm512_set1_epi8(static_cast<char>(0x80)),
                                      0xF8)};  // entry | (v & 0x80)
  }
};
