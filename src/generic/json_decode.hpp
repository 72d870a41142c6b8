// json_decode.hpp - the vector JSON decoder, written once for the wrappers
// with mask registers (AVX-512).
//
// No include guard on purpose: each AVX-512 kernel file (src/kernels/)
// includes this file inside its ISA namespace and target region, after that
// set's wrapper (src/simd/avx512.hpp, struct simd8) and
// generic/percent_decode.hpp, whose hex digit lookup (hex_value) it shares.
// It needs core/json.hpp. On SSE4.2 and AVX2 the selects below would each
// cost a register built from bits, and the scalar decoder is as fast.
//
// Each block of 64 bytes is read at p and, where it holds a backslash, at
// p+1 .. p+5 (and p+7, p+8 where it holds a pair), so that byte k of the
// registers is a possible escape \uXXXX whole: 'u' and its digits' values
// h0..h3, and for a pair the low half's l1..l3. The UTF-8 of the character
// is a function of neighbouring digits, byte by byte, so each byte is
// computed in the lane it goes to, from the registers read there (dj: the
// digit j bytes on):
//   U+0000..007F   lane k    h2 << 4 | h3                   d4, d5
//   U+0080..07FF   lane k    C0 | h1 << 2 | h2 >> 2         d3, d4
//                  lane k+1  80 | (h2 & 3) << 4 | h3        d3, d4
//   U+0800..FFFF   lane k    E0 | h0                        d2
//                  lane k+1  80 | h1 << 2 | h2 >> 2         d2, d3
//                  lane k+2  80 | (h2 & 3) << 4 | h3        d2, d3
//   a pair         lane k    F0 | (t + 1) >> 2              d3, d4
//                  lane k+1  80 | (t + 1 & 3) << 4 | (h2 & 3) << 2 | h3 >> 2
//                                                           d2, d3, d4
//                  lane k+2  80 | (h3 & 3) << 4 | (l1 & 3) << 2 | l2 >> 2
//                                                           d3, d7, d8
//                  lane k+3  80 | (l2 & 3) << 4 | l3        d7, d8
// where t = (h1 & 3) << 2 | h2 >> 2: the plane's bits, less one. Then the
// escape's other lanes are squeezed out (simd8::compact), leaving the
// decoded bytes in order, raw bytes as they are.
//
// An escape's bytes after the backslash are 'u' and hex digits, never a
// backslash, so escapes never overlap. A block stops at its first backslash
// that starts anything else (a short escape, a lone surrogate, a bad one:
// the scalar decoder's units), and before an escape whose bytes or whose
// low half would not fit the register.

namespace json_vector {

static_assert(simd8::mask_registers);

// Nibble tables of a digit's value k: k << 2, k >> 2, (k & 3) << 2,
// (k & 3) << 4; and a pair's first two bytes from t: F0 | (t + 1) >> 2 and
// 80 | (t + 1 & 3) << 4.
alignas(16) inline constexpr std::uint8_t kShl2[16] = {0,  4,  8,  12, 16, 20, 24, 28,
                                                       32, 36, 40, 44, 48, 52, 56, 60};
alignas(16) inline constexpr std::uint8_t kShr2[16] = {0, 0, 0, 0, 1, 1, 1, 1,
                                                       2, 2, 2, 2, 3, 3, 3, 3};
alignas(16) inline constexpr std::uint8_t kLow2Shl2[16] = {0, 4, 8, 12, 0, 4, 8, 12,
                                                           0, 4, 8, 12, 0, 4, 8, 12};
alignas(16) inline constexpr std::uint8_t kLow2Shl4[16] = {0, 16, 32, 48, 0, 16, 32, 48,
                                                           0, 16, 32, 48, 0, 16, 32, 48};
alignas(16) inline constexpr std::uint8_t kPairFirst[16] = {
    0xF0, 0xF0, 0xF0, 0xF1, 0xF1, 0xF1, 0xF1, 0xF2, 0xF2, 0xF2, 0xF2, 0xF3, 0xF3, 0xF3, 0xF3, 0xF4};
alignas(16) inline constexpr std::uint8_t kPairSecond[16] = {
    0x90, 0xA0, 0xB0, 0x80, 0x90, 0xA0, 0xB0, 0x80, 0x90, 0xA0, 0xB0, 0x80, 0x90, 0xA0, 0xB0, 0x80};

// digit is the value of the hex digit at p in each lane that holds one, a
// byte with its top bit set in every other lane, which it also ors into
// not_digits.
UTF8GUARD_SIMD_INLINE simd8 digit(const std::uint8_t* p, const percent_vector::hex_tables& t,
                                  simd8& not_digits) {
  const simd8 d = percent_vector::hex_value(simd8::load(p), t);
  not_digits = not_digits | d;
  return d;
}

// lead is a multibyte character's lead or middle byte from the digits a, b:
// high | a << 2 | b >> 2. tail is a continuation byte: 80 | (a & 3) << 4 | b.
// plane is (a & 3) << 2 | b >> 2.
UTF8GUARD_SIMD_INLINE simd8 lead(std::uint8_t high, simd8 a, simd8 b) {
  return simd8::splat(high) | a.low_nibble_lookup(simd8::repeat_16(kShl2)) |
         b.low_nibble_lookup(simd8::repeat_16(kShr2));
}
UTF8GUARD_SIMD_INLINE simd8 tail(simd8 a, simd8 b) {
  return simd8::splat(0x80) | a.low_nibble_lookup(simd8::repeat_16(kLow2Shl4)) | b;
}
UTF8GUARD_SIMD_INLINE simd8 plane(simd8 a, simd8 b) {
  return a.low_nibble_lookup(simd8::repeat_16(kLow2Shl2)) |
         b.low_nibble_lookup(simd8::repeat_16(kShr2));
}

// with_pairs is merged with the bytes of the pairs that start in the lanes
// of two written in; p is the block, d2..d4 its digits from p+2..p+4.
UTF8GUARD_SIMD_INLINE simd8 with_pairs(const std::uint8_t* p, std::uint64_t two, simd8 d2, simd8 d3,
                                       simd8 d4, simd8 merged,
                                       const percent_vector::hex_tables& hex) {
  simd8 not_digits = simd8::zero();  // the pairs' digits are known good
  const simd8 d7 = digit(p + 7, hex, not_digits);
  const simd8 d8 = digit(p + 8, hex, not_digits);
  const simd8 first = plane(d3, d4).low_nibble_lookup(simd8::repeat_16(kPairFirst));
  const simd8 second =
      plane(d2, d3).low_nibble_lookup(simd8::repeat_16(kPairSecond)) | plane(d3, d4);
  const simd8 third =
      simd8::splat(0x80) | d3.low_nibble_lookup(simd8::repeat_16(kLow2Shl4)) | plane(d7, d8);
  merged = simd8::select_bits(two, first, merged);
  merged = simd8::select_bits(two << 1, second, merged);
  merged = simd8::select_bits(two << 2, third, merged);
  return simd8::select_bits(two << 3, tail(d7, d8), merged);
}

// decode: see core/json.hpp (json_decode_fn).
inline json_decode_progress decode(const std::uint8_t* p, std::size_t n, std::size_t limit,
                                   std::uint8_t* out) noexcept {
  constexpr std::size_t width = simd8::width;
  static_assert(width == 64);
  // A \uXXXX in the last two lanes would write past the register; a high
  // surrogate escape in the last six has its low half past the block.
  constexpr std::uint64_t last_two = ~(~std::uint64_t{0} >> 2);
  constexpr std::uint64_t last_six = ~(~std::uint64_t{0} >> 6);
  const percent_vector::hex_tables hex = percent_vector::make_hex_tables();
  std::size_t i = 0, o = 0, last = kNoEscape, last_width = 0;
  // SAFETY: a block is read only when p[i .. i + width + 8) is in the input.
  while (i < limit && n - i >= width + 8) {
    const simd8 v0 = simd8::load(p + i);
    const std::uint64_t backslashes = v0.eq_bits('\\');
    if (backslashes == 0) {
      v0.store(out + o);
      o += width;
      i += width;
      continue;
    }
    const std::uint64_t u = simd8::load(p + i + 1).eq_bits('u');
    simd8 not_digits = simd8::zero();
    const simd8 d2 = digit(p + i + 2, hex, not_digits);
    const simd8 d3 = digit(p + i + 3, hex, not_digits);
    const simd8 d4 = digit(p + i + 4, hex, not_digits);
    const simd8 d5 = digit(p + i + 5, hex, not_digits);
    // Lanes where a \uXXXX starts: the four bytes after 'u' are digits.
    const std::uint64_t escapes = backslashes & u & ~not_digits.bits();
    // The UTF-16 unit's high and low bytes; a surrogate's high byte is D8..DF.
    const simd8 high = d2.low_nibble_lookup(hex.times16) | d3;
    const simd8 low = d4.low_nibble_lookup(hex.times16) | d5;
    const simd8 high_fc = high & simd8::splat(0xFC);
    const std::uint64_t highs = escapes & high_fc.eq_bits(0xD8);
    const std::uint64_t lows = escapes & high_fc.eq_bits(0xDC);
    const std::uint64_t plain = escapes & ~(highs | lows);
    const std::uint64_t pairs = highs & lows >> 6;
    // Where a block may stop and the next one start.
    const std::uint64_t next = (plain & last_two) | (highs & last_six);
    const std::uint64_t stops = (backslashes & ~(plain | pairs | pairs << 6)) | next;
    const std::size_t cut = stops == 0 ? width : static_cast<std::size_t>(__builtin_ctzll(stops));
    const std::uint64_t before = cut == width ? ~std::uint64_t{0} : (std::uint64_t{1} << cut) - 1;
    const std::uint64_t one = plain & before;
    const std::uint64_t two = pairs & before;
    // A \uXXXX's length: 3 bytes from U+0800 (a high byte of 08 and above),
    // 2 from U+0080, else 1.
    const std::uint64_t three = one & ~high.saturating_sub(simd8::splat(0x07)).eq_bits(0);
    const std::uint64_t two_up = one & ~(high | low.saturating_sub(simd8::splat(0x7F))).eq_bits(0);
    // Each lane's byte by its place in the character.
    const simd8 first = simd8::select_bits(
        two_up, simd8::select_bits(three, simd8::splat(0xE0) | d2, lead(0xC0, d3, d4)), low);
    const simd8 second = simd8::select_bits(three << 1, lead(0x80, d2, d3), tail(d3, d4));
    simd8 merged = simd8::select_bits(one, first, v0);
    merged = simd8::select_bits(two_up << 1, second, merged);
    merged = simd8::select_bits(three << 2, tail(d2, d3), merged);
    if (two != 0) merged = with_pairs(p + i, two, d2, d3, d4, merged, hex);
    const std::uint64_t units = one | two;
    // An escape's six bytes by one multiplication: escapes are six bytes
    // apart at least, so the products do not overlap.
    const std::uint64_t escape_bytes = (units | two << 6) * 0x3F;
    const std::uint64_t keep =
        (before & ~escape_bytes) | units | (two_up | two) << 1 | (three | two) << 2 | two << 3;
    merged.compact(keep, out + o);
    o += static_cast<std::size_t>(__builtin_popcountll(keep));
    std::size_t end = cut;
    if (units != 0) {
      const std::size_t k = 63 - static_cast<std::size_t>(__builtin_clzll(units));
      last = i + k;
      last_width = (two >> k & 1) != 0 ? 12 : 6;
      end = std::max(end, k + last_width);
    }
    i += end;
    // A stop that is no escape of this decoder's ends the run; an escape in
    // the last lanes starts the next block.
    if (cut < width && (next >> cut & 1) == 0) break;
  }
  return {i, o, last, last_width};
}

}  // namespace json_vector
