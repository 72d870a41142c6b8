// percent_decode.hpp - the vector percent decoder, written once.
//
// No include guard on purpose: src/kernels/percent_decode.cpp includes this
// file inside each instruction set's namespace and target region, after that
// set's `struct lanes` (the few operations below, on one register of
// lanes::width bytes). It needs core/percent.hpp.
//
// Each block of `width` encoded bytes is read three times, at p, p+1 and p+2,
// so that byte k of the three registers is a possible escape's '%' and its two
// digits. Then, all in registers:
//   escape = (p[k] == '%') & hex(p[k+1]) & hex(p[k+2])
//   value  = nibble(p[k+1]) << 4 | nibble(p[k+2])
//   merged = escape ? value : p[k]
// and the digits of every escape are squeezed out (lanes::compact), leaving
// the decoded bytes in order. A digit is never '%', so escapes never overlap,
// and an escape in a block's last two bytes drops the first one or two bytes
// of the next block. A block without '%' is copied as it is.

namespace percent_vector {

// hex_class gives hex digits a non-zero class: '0'-'9' by high nibble 3 and
// low nibble 0-9 (bit 0), 'A'-'F' and 'a'-'f' by high nibble 4 or 6 and low
// nibble 1-6 (bit 1).
alignas(16) inline constexpr std::uint8_t kHexHigh[16] = {0, 0, 0, 1, 2, 0, 2, 0,
                                                          0, 0, 0, 0, 0, 0, 0, 0};
alignas(16) inline constexpr std::uint8_t kHexLow[16] = {1, 3, 3, 3, 3, 3, 3, 1,
                                                         1, 1, 0, 0, 0, 0, 0, 0};

// is_hex is 0xFF in the lanes that hold a hex digit, 0 elsewhere.
UTF8GUARD_SIMD_INLINE lanes::reg is_hex(lanes::reg x, lanes::reg high, lanes::reg low) {
  const lanes::reg c = lanes::bit_and(lanes::lookup(high, lanes::high_nibble(x)),
                                      lanes::lookup(low, lanes::low_nibble(x)));
  return lanes::bit_andnot(lanes::eq(c, lanes::splat(0)), lanes::splat(0xFF));
}

// nibble is a hex digit's value: its low nibble, plus 9 for a letter (bit 6
// set). Lanes that are not hex digits get something that is never used.
UTF8GUARD_SIMD_INLINE lanes::reg nibble(lanes::reg x) {
  const lanes::reg letter = lanes::eq(lanes::bit_and(x, lanes::splat(0x40)), lanes::splat(0x40));
  return lanes::add(lanes::low_nibble(x), lanes::bit_and(letter, lanes::splat(9)));
}

// decode: see core/percent.hpp (percent_decode_fn).
inline decode_progress decode(const std::uint8_t* p, std::size_t n, std::size_t limit,
                              std::uint8_t* out, unsigned stops) noexcept {
  constexpr std::size_t width = lanes::width;
  const lanes::reg percent = lanes::splat('%');
  const lanes::reg high = lanes::table(kHexHigh);
  const lanes::reg low = lanes::table(kHexLow);
  std::size_t i = 0;
  std::size_t o = 0;
  std::uint64_t carried = 0;  // digits of the last block's escapes in this one
  // SAFETY: a block is read only when p[i .. i + width + 2) is in the input.
  for (; i < limit && n - i >= width + 2; i += width) {
    const lanes::reg v0 = lanes::load(p + i);
    const lanes::reg is_percent = lanes::eq(v0, percent);
    if (carried == 0 && !lanes::any(is_percent)) {
      lanes::store(out + o, v0);
      o += width;
      continue;
    }
    const lanes::reg v1 = lanes::load(p + i + 1);
    const lanes::reg v2 = lanes::load(p + i + 2);
    const lanes::reg escape =
        lanes::bit_and(is_percent, lanes::bit_and(is_hex(v1, high, low), is_hex(v2, high, low)));
    const lanes::reg value = lanes::bit_or(lanes::shift_left_4(nibble(v1)), nibble(v2));
    const std::uint64_t escapes = lanes::bits(escape);
    if (stops != 0) {
      const bool bad = (stops & kStopBadEscape) != 0 && lanes::bits(is_percent) != escapes;
      const bool pct25 = (stops & kStopPercent25) != 0 &&
                         (lanes::bits(lanes::eq(value, lanes::splat(0x25))) & escapes) != 0;
      if (bad || pct25) break;
    }
    const lanes::reg merged = lanes::bit_xor(v0, lanes::bit_and(escape, lanes::bit_xor(v0, value)));
    const std::uint64_t all = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    const std::uint64_t keep = ~(escapes << 1 | escapes << 2 | carried) & all;
    lanes::compact(merged, keep, out + o);
    o += static_cast<std::size_t>(__builtin_popcountll(keep));
    const std::uint64_t last_two = escapes >> (width - 2) & 3;  // escapes at width-2, width-1
    carried = last_two | last_two >> 1;                         // 1: one digit; 3: two digits
  }
  // Stop at a unit boundary: past the digits already decoded.
  return {i + static_cast<std::size_t>(__builtin_popcountll(carried)), o};
}

}  // namespace percent_vector
