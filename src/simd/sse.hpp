// sse.hpp - the 16-byte SSE4.2 wrapper (pshufb is SSSE3, ptest SSE4.1).
//
// Included by src/kernels/sse42.cpp inside its target region and its ISA
// namespace, after <immintrin.h> and <cstring>. Every wrapper under src/simd/
// offers the same members, so src/generic/ is written once:
//   width, align_blocks, leads_from_memory, pin_constants, ascii_reg, load,
//   load_aligned, load_partial, splat, zero, last_word, top_word, kept,
//   repeat_16, prev<N>, high_nibble_lookup, low_nibble_lookup,
//   saturating_sub, | & ^, eq, key, min_signed, min_unsigned, max_unsigned,
//   clean, any, is_ascii, first_nonzero.

#include "simd/compact.hpp"  // compact16, for compact()

struct simd8 {
  __m128i v;

  static constexpr std::size_t width = 16;
  // group_regs: registers read per error check (utf8_lookup.hpp), 128 bytes.
  static constexpr std::size_t group_regs = 8;
  // align_blocks: runs of ASCII are read from width-aligned addresses
  // (utf8_lookup.hpp, ascii_blocks). Legacy SSE folds only an aligned load
  // into por, and from an odd address one 16-byte load in four spans two
  // cache lines: aligned, ASCII in L2 validates faster, and from memory
  // about as fast.
  static constexpr bool align_blocks = true;
  // leads_from_memory: the full check reads the bytes 2 and 3 before each
  // register from memory for its lead flags (utf8_lookup.hpp, check_at),
  // two unaligned loads instead of a byte shift (palignr) of the flags
  // carried from the register before: the loads go to load ports that have
  // room, the shift to the shuffle port the nibble lookups already crowd.
  static constexpr bool leads_from_memory = true;
  // pin_constants: the check's constants are kept() (utf8_lookup.hpp,
  // constants) so that the compiler cannot build them again per group. With
  // 16 registers that makes g++ spill them to the stack instead.
  static constexpr bool pin_constants = false;
  static constexpr bool short_masked = false;  // see avx512.hpp
  // ascii_reg: the register that reads runs of ASCII by 1 KiB blocks
  // (utf8_lookup.hpp, ascii_blocks): this one, except on AVX-512.
  using ascii_reg = simd8;

  // SAFETY: the caller guarantees p[0..16) is inside the input.
  static UTF8GUARD_SIMD_INLINE simd8 load(const std::uint8_t* p) {
    return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))};
  }
  // SAFETY: as load, and p is 16-byte aligned. Without VEX only an aligned
  // load can be folded into the instruction that uses it.
  static UTF8GUARD_SIMD_INLINE simd8 load_aligned(const std::uint8_t* p) {
    return {_mm_load_si128(reinterpret_cast<const __m128i*>(p))};
  }
  // load_partial reads p[0..len), len < 16, and zero-fills the rest, from
  // two words (core/short_input.hpp): never past the input, never through memory.
  static UTF8GUARD_SIMD_INLINE simd8 load_partial(const std::uint8_t* p, std::size_t len) {
    const std::size_t lo = len < 8 ? len : 8;
    const std::uint64_t a = load_up_to_8(p, lo);
    const std::uint64_t b = len > 8 ? load_up_to_8(p + 8, len - 8) : 0;
    return {_mm_set_epi64x(static_cast<long long>(b), static_cast<long long>(a))};
  }
  static UTF8GUARD_SIMD_INLINE simd8 splat(std::uint8_t b) {
    return {_mm_set1_epi8(static_cast<char>(b))};
  }
  static UTF8GUARD_SIMD_INLINE simd8 zero() { return {_mm_setzero_si128()}; }
  // last_word is zero but for w (little-endian) in the last 4 bytes: the
  // bytes a stream carried over, as the register before the next chunk.
  static UTF8GUARD_SIMD_INLINE simd8 last_word(std::uint32_t w) {
    return {_mm_insert_epi32(_mm_setzero_si128(), static_cast<int>(w), 3)};
  }
  // kept is this value, held in a register: the empty asm hides where it
  // came from, so a loaded value is loaded once and not folded into each
  // instruction that uses it (g++ reads the same bytes two or three times
  // otherwise), and an extract from it is not narrowed into a small load.
  UTF8GUARD_SIMD_INLINE simd8 kept() const {
    __m128i x = v;
    asm("" : "+x"(x));
    return {x};
  }
  // top_word is the last 4 bytes, little-endian: the inverse of last_word.
  // Kept: a load of a register and its extract would otherwise become a
  // 4-byte load, the kind of load of a chunk's end that utf8_lookup.hpp avoids.
  UTF8GUARD_SIMD_INLINE std::uint32_t top_word() const {
    return static_cast<std::uint32_t>(_mm_extract_epi32(kept().v, 3));
  }
  // repeat_16 is a 16-entry lookup table, for the nibble lookups.
  static UTF8GUARD_SIMD_INLINE simd8 repeat_16(const std::uint8_t (&t)[16]) {
    return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(t))};
  }

  // prev<N> is this register shifted N bytes later in the stream: byte i is
  // the input byte N before byte i, taken from prev_input for i < N.
  template <int N>
  UTF8GUARD_SIMD_INLINE simd8 prev(simd8 prev_input) const {
    return {_mm_alignr_epi8(v, prev_input.v, 16 - N)};
  }

  // table[byte >> 4] and table[byte & 15]; pshufb zeroes a lane whose index
  // has bit 7 set, so both indexes are masked to a nibble first.
  UTF8GUARD_SIMD_INLINE simd8 high_nibble_lookup(simd8 table) const {
    const __m128i idx = _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0F));
    return {_mm_shuffle_epi8(table.v, idx)};
  }
  UTF8GUARD_SIMD_INLINE simd8 low_nibble_lookup(simd8 table) const {
    return {_mm_shuffle_epi8(table.v, _mm_and_si128(v, _mm_set1_epi8(0x0F)))};
  }

  UTF8GUARD_SIMD_INLINE simd8 saturating_sub(simd8 o) const { return {_mm_subs_epu8(v, o.v)}; }
  friend UTF8GUARD_SIMD_INLINE simd8 operator|(simd8 a, simd8 b) {
    return {_mm_or_si128(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 operator&(simd8 a, simd8 b) {
    return {_mm_and_si128(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 operator^(simd8 a, simd8 b) {
    return {_mm_xor_si128(a.v, b.v)};
  }

  // eq is 0xFF in the lanes that hold b (the fused '%' check of percent mode).
  UTF8GUARD_SIMD_INLINE simd8 eq(std::uint8_t b) const {
    return {_mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(b)))};
  }
  // The ASCII test of percent mode, by a min-reduction instead of an OR:
  // key() maps ASCII but '%' to 1..7F and '%' and non-ASCII to 0 or below,
  // so the signed minimum of the keys is positive exactly when all is ASCII
  // without '%' (clean()).
  UTF8GUARD_SIMD_INLINE simd8 key(std::uint8_t b) const {
    return {_mm_xor_si128(v, _mm_set1_epi8(static_cast<char>(b)))};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 min_signed(simd8 a, simd8 b) {
    return {_mm_min_epi8(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 min_unsigned(simd8 a, simd8 b) {
    return {_mm_min_epu8(a.v, b.v)};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 max_unsigned(simd8 a, simd8 b) {
    return {_mm_max_epu8(a.v, b.v)};
  }
  UTF8GUARD_SIMD_INLINE bool clean() const {
    return _mm_movemask_epi8(_mm_subs_epi8(v, _mm_set1_epi8(1))) == 0;
  }
  UTF8GUARD_SIMD_INLINE bool any() const { return _mm_testz_si128(v, v) == 0; }
  UTF8GUARD_SIMD_INLINE bool is_ascii() const { return _mm_movemask_epi8(v) == 0; }
  // first_nonzero is the index of the first nonzero byte, or width if none.
  UTF8GUARD_SIMD_INLINE std::size_t first_nonzero() const {
    const unsigned zero =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())));
    const unsigned nonzero = ~zero & 0xFFFFu;
    return nonzero == 0 ? width : static_cast<std::size_t>(__builtin_ctz(nonzero));
  }

  // What the percent decoder needs besides (generic/percent_decode.hpp):
  // store writes the register to p[0..width); bits has bit i set when byte
  // i's top bit is (a mask of 0xFF and 0 lanes); compact writes the bytes
  // whose bit is set in keep, in order, to out (writing up to width bytes).
  UTF8GUARD_SIMD_INLINE void store(std::uint8_t* p) const {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
  }
  friend UTF8GUARD_SIMD_INLINE simd8 operator+(simd8 a, simd8 b) {
    return {_mm_add_epi8(a.v, b.v)};
  }
  UTF8GUARD_SIMD_INLINE std::uint64_t bits() const {
    return static_cast<unsigned>(_mm_movemask_epi8(v));
  }
  UTF8GUARD_SIMD_INLINE void compact(std::uint64_t keep, std::uint8_t* out) const {
    compact16(v, static_cast<unsigned>(keep & 0xFFFF), out);
  }
  // eq_bits is eq(b).bits(). select_by_sign takes the lanes of if_set where
  // this register's top bit is set, of if_clear elsewhere. table128: whether
  // lookup128 exists, a 128-entry lookup of the ASCII bytes; mask_registers:
  // whether select_bits does, a select by bits (both avx512.hpp).
  UTF8GUARD_SIMD_INLINE std::uint64_t eq_bits(std::uint8_t b) const { return eq(b).bits(); }
  UTF8GUARD_SIMD_INLINE simd8 select_by_sign(simd8 if_set, simd8 if_clear) const {
    return {_mm_blendv_epi8(if_clear.v, if_set.v, v)};
  }
  static constexpr bool table128 = false;
  static constexpr bool mask_registers = false;
};
