// neon.hpp - the 16-byte AArch64 NEON wrapper; the members of src/simd/sse.hpp.
//
// Included by src/kernels/neon.cpp inside its namespace. NEON is part of the
// AArch64 baseline, so no target region is needed.

struct simd8 {
  uint8x16_t v;

  static constexpr std::size_t width = 16;
  static constexpr std::size_t group_regs = 8;  // 128 bytes per error check
  static constexpr bool align_blocks = false;   // NEON's loads take any alignment
  // ext is one cheap instruction; reading the flags' bytes from memory
  // (sse.hpp) is unmeasured on an AArch64 CPU, so NEON keeps the shift.
  static constexpr bool leads_from_memory = false;
  // 32 registers would have room (avx512.hpp), but pinning the constants is
  // unmeasured on an AArch64 CPU.
  static constexpr bool pin_constants = false;
  static constexpr bool short_masked = false;  // see avx512.hpp
  using ascii_reg = simd8;                     // runs of ASCII: see sse.hpp

  // SAFETY: the caller guarantees p[0..16) is inside the input.
  static UTF8GUARD_SIMD_INLINE simd8 load(const std::uint8_t* p) { return {vld1q_u8(p)}; }
  // Two words (core/short_input.hpp): never past the input, never through memory.
  static UTF8GUARD_SIMD_INLINE simd8 load_partial(const std::uint8_t* p, std::size_t len) {
    const std::size_t lo = len < 8 ? len : 8;
    const std::uint64_t a = load_up_to_8(p, lo);
    const std::uint64_t b = len > 8 ? load_up_to_8(p + 8, len - 8) : 0;
    return {vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(a), vcreate_u64(b)))};
  }
  // NEON's loads take any alignment.
  static UTF8GUARD_SIMD_INLINE simd8 load_aligned(const std::uint8_t* p) { return load(p); }
  static UTF8GUARD_SIMD_INLINE simd8 splat(std::uint8_t b) { return {vdupq_n_u8(b)}; }
  static UTF8GUARD_SIMD_INLINE simd8 zero() { return {vdupq_n_u8(0)}; }
  static UTF8GUARD_SIMD_INLINE simd8 last_word(std::uint32_t w) {
    return {vreinterpretq_u8_u32(vsetq_lane_u32(w, vdupq_n_u32(0), 3))};
  }
  UTF8GUARD_SIMD_INLINE simd8 kept() const {  // see sse.hpp
    uint8x16_t x = v;
    asm("" : "+w"(x));
    return {x};
  }
  UTF8GUARD_SIMD_INLINE std::uint32_t top_word() const {
    return vgetq_lane_u32(vreinterpretq_u32_u8(kept().v), 3);
  }
  static UTF8GUARD_SIMD_INLINE simd8 repeat_16(const std::uint8_t (&t)[16]) {
    return {vld1q_u8(t)};
  }

  template <int N>
  UTF8GUARD_SIMD_INLINE simd8 prev(simd8 prev_input) const {
    return {vextq_u8(prev_input.v, v, 16 - N)};
  }

  // tbl returns 0 for an index >= 16, so only the low nibble needs a mask.
  UTF8GUARD_SIMD_INLINE simd8 high_nibble_lookup(simd8 table) const {
    return {vqtbl1q_u8(table.v, vshrq_n_u8(v, 4))};
  }
  UTF8GUARD_SIMD_INLINE simd8 low_nibble_lookup(simd8 table) const {
    return {vqtbl1q_u8(table.v, vandq_u8(v, vdupq_n_u8(0x0F)))};
  }

  UTF8GUARD_SIMD_INLINE simd8 saturating_sub(simd8 o) const { return {vqsubq_u8(v, o.v)}; }
  friend UTF8GUARD_SIMD_INLINE simd8 operator|(simd8 a, simd8 b) { return {vorrq_u8(a.v, b.v)}; }
  friend UTF8GUARD_SIMD_INLINE simd8 operator&(simd8 a, simd8 b) { return {vandq_u8(a.v, b.v)}; }
  friend UTF8GUARD_SIMD_INLINE simd8 operator^(simd8 a, simd8 b) { return {veorq_u8(a.v, b.v)}; }

  UTF8GUARD_SIMD_INLINE simd8 eq(std::uint8_t b) const {  // see sse.hpp
    return {vceqq_u8(v, vdupq_n_u8(b))};
  }
  UTF8GUARD_SIMD_INLINE simd8 key(std::uint8_t b) const {  // see sse.hpp
    return {veorq_u8(v, vdupq_n_u8(b))};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 min_signed(simd8 a, simd8 b) {
    return {vreinterpretq_u8_s8(vminq_s8(vreinterpretq_s8_u8(a.v), vreinterpretq_s8_u8(b.v)))};
  }
  friend UTF8GUARD_SIMD_INLINE simd8 min_unsigned(simd8 a, simd8 b) { return {vminq_u8(a.v, b.v)}; }
  friend UTF8GUARD_SIMD_INLINE simd8 max_unsigned(simd8 a, simd8 b) { return {vmaxq_u8(a.v, b.v)}; }
  UTF8GUARD_SIMD_INLINE bool clean() const { return vminvq_s8(vreinterpretq_s8_u8(v)) > 0; }
  UTF8GUARD_SIMD_INLINE bool any() const { return vmaxvq_u32(vreinterpretq_u32_u8(v)) != 0; }
  UTF8GUARD_SIMD_INLINE bool is_ascii() const { return vmaxvq_u8(v) < 0x80; }
  // Narrowing each 16-bit lane by 4 bits turns the 0x00/0xFF byte mask into
  // one nibble per byte in a 64-bit word.
  UTF8GUARD_SIMD_INLINE std::size_t first_nonzero() const {
    const uint8x8_t nibbles = vshrn_n_u16(vreinterpretq_u16_u8(vtstq_u8(v, v)), 4);
    const std::uint64_t bits = vget_lane_u64(vreinterpret_u64_u8(nibbles), 0);
    return bits == 0 ? width : static_cast<std::size_t>(__builtin_ctzll(bits)) / 4;
  }
};
