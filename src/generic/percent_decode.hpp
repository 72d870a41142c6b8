// percent_decode.hpp - the vector percent decoder, written once.
//
// No include guard on purpose: each x86 kernel file (src/kernels/) includes
// this file inside its ISA namespace and target region, after that set's
// wrapper (src/simd/<isa>.hpp, struct simd8). It needs core/percent.hpp.
//
// Each block of `width` encoded bytes is read three times, at p, p+1 and p+2,
// so that byte k of the three registers is a possible escape's '%' and its two
// digits. Then, all in registers, with d(b) a hex digit's value or a byte
// with its top bit set for any other byte (hex_value):
//   escape = (p[k] == '%') & top bit of d(p[k+1]) | d(p[k+2]) clear
//   value  = d(p[k+1]) << 4 | d(p[k+2])
//   merged = escape ? value : p[k]
// and the digits of every escape are squeezed out (simd8::compact), leaving
// the decoded bytes in order. A digit is never '%', so escapes never overlap,
// and an escape in a block's last two bytes drops the first one or two bytes
// of the next block. A block without '%' is copied as it is.

namespace percent_vector {

// kHexHigh & kHexLow give hex digits a non-zero class: '0'-'9' by high
// nibble 3 and low nibble 0-9 (class 1), 'A'-'F' and 'a'-'f' by high nibble 4 or 6 and
// low nibble 1-6 (class 2); kClassAdd turns a class into what the low nibble
// needs added to be the digit's value, or a top bit for no digit (class 0).
alignas(16) inline constexpr std::uint8_t kHexHigh[16] = {0, 0, 0, 1, 2, 0, 2, 0,
                                                          0, 0, 0, 0, 0, 0, 0, 0};
alignas(16) inline constexpr std::uint8_t kHexLow[16] = {1, 3, 3, 3, 3, 3, 3, 1,
                                                         1, 1, 0, 0, 0, 0, 0, 0};
alignas(16) inline constexpr std::uint8_t kClassAdd[16] = {
    0x80, 0, 9, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
// kHexValue128[b] is the value of the hex digit b, 0x80 for any other byte
// below 0x80: the table of wrappers with lookup128.
alignas(64) inline constexpr std::array<std::uint8_t, 128> kHexValue128 = [] {
  std::array<std::uint8_t, 128> t{};
  for (std::size_t b = 0; b < t.size(); ++b) t[b] = kHexValue[b] != kNotHex ? kHexValue[b] : 0x80;
  return t;
}();
// kTimes16[k] is k << 4: a digit's value moved to the high nibble, by a
// lookup, as the wrappers have no byte shift.
alignas(16) inline constexpr std::uint8_t kTimes16[16] = {
    0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0};

// The lookup tables as registers, made once per call (value_lo and value_hi
// only where the wrapper has lookup128).
struct hex_tables {
  simd8 high, low, class_add, times16, value_lo, value_hi;
};

inline hex_tables make_hex_tables() {
  hex_tables t{simd8::repeat_16(kHexHigh),
               simd8::repeat_16(kHexLow),
               simd8::repeat_16(kClassAdd),
               simd8::repeat_16(kTimes16),
               simd8::zero(),
               simd8::zero()};
  if constexpr (simd8::table128) {
    t.value_lo = simd8::load(kHexValue128.data());
    t.value_hi = simd8::load(kHexValue128.data() + 64);
  }
  return t;
}

// hex_value is the value of the hex digit in each lane that holds one, and a
// byte with its top bit set in every other lane. A template, so that the
// branch a wrapper does not take is never compiled for it.
template <class S>
UTF8GUARD_SIMD_INLINE S hex_value(S x, const hex_tables& t) {
  if constexpr (S::table128) {
    return x.lookup128(t.value_lo, t.value_hi);
  } else {
    const S cls = x.high_nibble_lookup(t.high) & x.low_nibble_lookup(t.low);
    return (x & S::splat(0x0F)) + cls.low_nibble_lookup(t.class_add);
  }
}

// merge is value in the lanes where an escape starts (escapes; digits has
// its top bit clear where the two bytes after are digits), v0 elsewhere.
template <class S>
UTF8GUARD_SIMD_INLINE S merge(S v0, S value, S digits, std::uint64_t escapes) {
  if constexpr (S::mask_registers) {
    return S::select_bits(escapes, value, v0);
  } else {
    return (digits | (v0.eq('%') ^ S::splat(0xFF))).select_by_sign(v0, value);
  }
}

// The events a decoder stops at (kStopBadEscape, kStopPercent25), as masks
// of every lane or none: a block tests both with one branch.
struct stop_masks {
  std::uint64_t bad_escape;
  std::uint64_t percent25;
};

inline stop_masks stop_masks_of(unsigned stops) {
  return {(stops & kStopBadEscape) != 0 ? ~std::uint64_t{0} : 0,
          (stops & kStopPercent25) != 0 ? ~std::uint64_t{0} : 0};
}

// The decoder's state between blocks: how much it wrote, which of the next
// block's first two bytes are digits of an escape that began before, and
// the escapes of the last block that held a '%'.
struct decode_state {
  std::size_t o = 0;
  std::uint64_t carried = 0;
  std::uint64_t escapes = 0;
};

// block decodes the block at offset 0 of load (load(k): the bytes from
// offset k, k = 0, 1, 2, read only when the block holds a '%' or a digit
// carried in) whose units start in the lanes of `lanes`, to out + st.o;
// false, writing nothing, when it holds an event of stops.
template <class Load>
UTF8GUARD_SIMD_INLINE bool block(const Load& load, std::uint64_t lanes, std::uint8_t* out,
                                 const stop_masks& stops, const hex_tables& t, decode_state& st) {
  const simd8 v0 = load(0);
  const std::uint64_t percents = v0.eq_bits('%') & lanes;
  if ((st.carried | percents) == 0) {
    v0.store(out + st.o);
    st.o += static_cast<std::size_t>(__builtin_popcountll(lanes));
    return true;
  }
  const simd8 d1 = hex_value(load(1), t);
  const simd8 d2 = hex_value(load(2), t);
  const simd8 digits = d1 | d2;  // top bit set where the two bytes are not both digits
  const std::uint64_t escapes = percents & ~digits.bits();
  const simd8 value = d1.low_nibble_lookup(t.times16) | d2;
  // A '%' without two digits after it, or an escape of '%' (a %25).
  if ((((percents ^ escapes) & stops.bad_escape) |
       (value.eq_bits(0x25) & escapes & stops.percent25)) != 0) {
    return false;
  }
  const simd8 merged = merge(v0, value, digits, escapes);
  const std::uint64_t keep = ~(escapes << 1 | escapes << 2 | st.carried) & lanes;
  merged.compact(keep, out + st.o);
  st.o += static_cast<std::size_t>(__builtin_popcountll(keep));
  const std::uint64_t last_two = escapes >> (simd8::width - 2) & 3;  // at width-2, width-1
  st.carried = last_two | last_two >> 1;                             // 1: one digit; 3: two digits
  st.escapes = escapes;
  return true;
}

// load_up_to is p[0..len) in a register, zero above when len < width (a
// zero is neither '%' nor a digit, so no escape reaches into it).
UTF8GUARD_SIMD_INLINE simd8 load_up_to(const std::uint8_t* p, std::size_t len) {
  return len >= simd8::width ? simd8::load(p) : simd8::load_partial(p, len);
}

// How far ahead of the block it decodes the decoder asks for the input.
inline constexpr std::size_t kPrefetchAhead = 2048;

// decode: see core/percent.hpp (percent_decode_fn).
inline decode_progress decode(const std::uint8_t* p, std::size_t n, std::size_t limit,
                              std::uint8_t* out, unsigned stops) noexcept {
  constexpr std::size_t width = simd8::width;
  constexpr std::uint64_t all = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  const hex_tables t = make_hex_tables();
  const stop_masks stop = stop_masks_of(stops);
  decode_state st;
  std::size_t i = 0;
  // SAFETY: a block is read only when p[i .. i + width + 2) is in the input.
  for (; i < limit && n - i >= width + 2; i += width) {
    // The loop asks for little work per block, so without a prefetch it
    // waits on each block's first load when the input comes from L3 or
    // memory.
    if (n - i > kPrefetchAhead) __builtin_prefetch(p + i + kPrefetchAhead);
    const auto whole = [p, i](std::size_t k) { return simd8::load(p + i + k); };
    if (!block(whole, all, out, stop, t, st)) {
      return {i + static_cast<std::size_t>(__builtin_popcountll(st.carried)), st.o};
    }
  }
  const std::size_t boundary = i + static_cast<std::size_t>(__builtin_popcountll(st.carried));
  if (i >= limit) return {boundary, st.o};
  // The units left before limit, fewer than a block and its two bytes, as
  // one partial block: a short input (a URL, a header) then needs no scalar
  // loop. Escapes that start in its last two lanes end past them, by
  // `beyond` digits.
  const std::size_t left = n - i;
  std::size_t m = std::min(std::min(limit, n) - i, width);
  // A '%' in the input's last two bytes may be an escape cut by the end of a
  // chunk, held for the next one: the scalar decoder takes it.
  if (left >= 1 && p[n - 1] == '%') m = std::min(m, left - 1);
  if (left >= 2 && p[n - 2] == '%') m = std::min(m, left - 2);
  if (m == 0) return {boundary, st.o};
  // SAFETY: load_up_to reads p[i..n) only (m >= 1, so left >= 1).
  const auto partial = [p, i, left](std::size_t k) {
    return load_up_to(p + i + k, left > k ? left - k : 0);
  };
  st.escapes = 0;
  if (!block(partial, m == width ? all : (std::uint64_t{1} << m) - 1, out, stop, t, st)) {
    return {boundary, st.o};
  }
  const std::size_t beyond =
      m >= 2 ? st.escapes >> (m - 2) & 3 : (st.escapes & 1) << 1;  // 0, 1 or 2 digits
  return {std::max(i + m + beyond, boundary), st.o};
}

}  // namespace percent_vector
