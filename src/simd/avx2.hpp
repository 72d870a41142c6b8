// avx2.hpp - the 32-byte AVX2 wrapper; the members of src/simd/sse.hpp.
//
// Included by src/kernels/avx2.cpp inside its target region and namespace.

#include "simd/compact.hpp"  // compact16, for compact()

struct simd8 {
  __m256i v;

  static constexpr std::size_t width = 32;
  static constexpr std::size_t group_regs = 8;  // 256 bytes per error check
  // VEX folds unaligned loads too, and aligned reads stream ASCII from
  // memory more slowly (see sse.hpp).
  static constexpr bool align_blocks = false;
  // Two loads instead of vperm2i128 + vpalignr (see sse.hpp): faster on
  // non-ASCII text with both compilers.
  static constexpr bool leads_from_memory = true;
  static constexpr bool pin_constants = false;  // 16 registers (see sse.hpp)
  static constexpr bool short_masked = false;   // see avx512.hpp
  using ascii_reg = simd8;                      // runs of ASCII: see sse.hpp

  // SAFETY: the caller guarantees p[0..32) is inside the input.
  static UTF8GUARD_SIMD_INLINE simd8 load(const std::uint8_t* p) {
    return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))};
  }
  // SAFETY: as load, and p is 32-byte aligned.
  static UTF8GUARD_SIMD_INLINE simd8 load_aligned(const std::uint8_t* p) {
    return {_mm256_load_si256(reinterpret_cast<const __m256i*>(p))};
  }
  // load_partial reads p[0..len), len < 32: the whole 4-byte words by a
  // masked load (masked-off words are not read and cannot fault), the last
  // 0..3 bytes as a word of their own (core/short_input.hpp), put in place by a mask.
  static UTF8GUARD_SIMD_INLINE simd8 load_partial(const std::uint8_t* p, std::size_t len) {
    const __m256i word = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i whole = _mm256_set1_epi32(static_cast<int>(len / 4));
    // SAFETY: only the words below len / 4 are read.
    const __m256i head =
        _mm256_maskload_epi32(reinterpret_cast<const int*>(p), _mm256_cmpgt_epi32(whole, word));
    const std::size_t done = len & ~std::size_t{3};
    const auto rest = static_cast<int>(load_up_to_8(p + done, len - done));
    const __m256i tail = _mm256_and_si256(_mm256_set1_epi32(rest), _mm256_cmpeq_epi32(whole, word));
    return {_mm256_or_si256(head, tail)};
  }
  static UTF8GUARD_SIMD_INLINE simd8 splat(std::uint8_t b) {
    return {_mm256_set1_epi8(static_cast<char>(b))};
  }
  static UTF8GUARD_SIMD_INLINE simd8 zero() { return {_mm256_setzero_si256()}; }
  static UTF8GUARD_SIMD_INLINE simd8 last_word(std::uint32_t w) {
    return {_mm256_insert_epi32(_mm256_setzero_si256(), static_cast<int>(w), 7)};
  }
  UTF8GUARD_SIMD_INLINE simd8 kept() const {  // see sse.hpp
    __m256i x = v;
    asm("" : "+x"(x));
    return {x};
  }
  UTF8GUARD_SIMD_INLINE std::uint32_t top_word() const {
    return static_cast<std::uint32_t>(_mm256_extract_epi32(kept().v, 7));
  }
  // vpshufb looks up within each 128-bit lane: the table is in both lanes.
  static UTF8GUARD_SIMD_INLINE simd8 repeat_16(const std::uint8_t (&t)[16]) {
    return {_mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)))};
  }

  // vpalignr works per 128-bit lane, so it is fed [prev's high lane, this
  // register's low lane] as its low operand.
  template <int N>
  UTF8GUARD_SIMD_INLINE simd8 prev(simd8 prev_input) const {
    const __m256i spliced = _mm256_permute2x128_si256(prev_input.v, v, 0x21);
    return {_mm256_alignr_epi8(v, spliced, 16 - N)};
  }

  UTF8GUARD_SIMD_INLINE simd8 high_nibble_lookup(simd8 table) const {
    const __m256i idx = _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
    return {_mm256_shuffle_epi8(table.v, idx)};
  }
  UTF8GUARD_SIMD_INLINE simd8 low_nibble_lookup(simd8 table) const {
    return {_mm256_shuffle_epi8(table.v, _mm256_and_si256(v, _mm256_set1_epi8(0x0F)))};
  }

  UTF8GUARD_SIMD_INLINE simd8 saturating_sub(simd8 o) const { return {_mm256_subs_epu8(v, o.v)}; }
  friend UTF8GUARD_SIMD_INLINE simd8 operator|(simd8 a, simd8 b) {
    return {_mm256_or_si256(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 operator&(simd8 a, simd8 b) {
    return {_mm256_and_si256(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 operator^(simd8 a, simd8 b) {
    return {_mm256_xor_si256(a.v, b.v)};
  }

  UTF8GUARD_SIMD_INLINE simd8 eq(std::uint8_t b) const {  // see sse.hpp
    return {_mm256_cmpeq_epi8(v, _mm256_set1_epi8(static_cast<char>(b)))};
  }
  UTF8GUARD_SIMD_INLINE simd8 key(std::uint8_t b) const {  // see sse.hpp
    return {_mm256_xor_si256(v, _mm256_set1_epi8(static_cast<char>(b)))};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 min_signed(simd8 a, simd8 b) {
    return {_mm256_min_epi8(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 min_unsigned(simd8 a, simd8 b) {
    return {_mm256_min_epu8(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 max_unsigned(simd8 a, simd8 b) {
    return {_mm256_max_epu8(a.v, b.v)};
  }
  UTF8GUARD_SIMD_INLINE bool clean() const {
    return _mm256_movemask_epi8(_mm256_subs_epi8(v, _mm256_set1_epi8(1))) == 0;
  }
  UTF8GUARD_SIMD_INLINE bool any() const { return _mm256_testz_si256(v, v) == 0; }
  UTF8GUARD_SIMD_INLINE bool is_ascii() const { return _mm256_movemask_epi8(v) == 0; }
  UTF8GUARD_SIMD_INLINE std::size_t first_nonzero() const {
    const unsigned zero =
        static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())));
    return zero == 0xFFFFFFFFu ? width : static_cast<std::size_t>(__builtin_ctz(~zero));
  }

  // store, operator+, bits, compact, eq_bits, select_by_sign, table128,
  // mask_registers: see sse.hpp.
  UTF8GUARD_SIMD_INLINE void store(std::uint8_t* p) const {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
  friend UTF8GUARD_SIMD_INLINE simd8 operator+(simd8 a, simd8 b) {
    return {_mm256_add_epi8(a.v, b.v)};
  }
  UTF8GUARD_SIMD_INLINE std::uint64_t bits() const {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(v));
  }
  UTF8GUARD_SIMD_INLINE void compact(std::uint64_t keep, std::uint8_t* out) const {
    out = compact16(_mm256_castsi256_si128(v), keep & 0xFFFF, out);
    compact16(_mm256_extracti128_si256(v, 1), keep >> 16 & 0xFFFF, out);
  }
  UTF8GUARD_SIMD_INLINE simd8 select_by_sign(simd8 if_set, simd8 if_clear) const {  // see sse.hpp
    return {_mm256_blendv_epi8(if_clear.v, if_set.v, v)};
  }
  UTF8GUARD_SIMD_INLINE std::uint64_t eq_bits(std::uint8_t b) const { return eq(b).bits(); }
  static constexpr bool table128 = false;
  static constexpr bool mask_registers = false;
};
