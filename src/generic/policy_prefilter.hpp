// policy_prefilter.hpp - the policy's vector prefilter, written once.
//
// No include guard on purpose: src/kernels/policy_prefilter.cpp includes
// this file inside each ISA's namespace and target region, after that ISA's
// wrapper (src/simd/<isa>.hpp, struct simd8). It needs core/policy.hpp's
// prefilter_tables.
//
// Every character a policy can deny is flagged by the byte classes of
// core/policy.hpp's kPrefilterHigh/kPrefilterLow, unions of products (high
// nibble x low nibble), one bit each: two 16-entry lookups and an AND
// classify 16, 32 or 64 bytes at once, as the validation lookups do (Keiser
// and Lemire). The tables' bits of the categories the policy allows are
// cleared.
//
// A lead byte alone would stop the prefilter at every Arabic letter (D8),
// every no-break space (C2 A0) and every emoji (F0), so most classes count
// only with the byte after them that one of their denied characters has
// (two more lookups, on that byte): C2 80..9F, D8 9C, E2 80..81, EE/EF
// 80..BF, and for the noncharacters above U+FFFF their second and third
// bytes, 8F/9F/AF/BF then BF. The ASCII classes count alone, and so do F3
// and F4 (the private use planes), from a class of the byte-after tables.

namespace policy_prefilter {

// The byte-after classes, one bit per class of kPrefilterHigh it completes:
// bit 3 after C2, bit 4 after D8, bit 5 after E2, bit 6 after EE or EF,
// bit 7 after 8F/9F/AF/BF; and kF3F4, F3 and F4, which count alone.
constexpr std::uint8_t kF3F4 = 1;
alignas(16) inline constexpr std::uint8_t kSecondHigh[16] = {
    0, 0, 0, 0, 0, 0, 0, 0, 8 | 32 | 64, 8 | 16 | 64, 64, 64 | 128, 0, 0, 0, kF3F4};
alignas(16) inline constexpr std::uint8_t kSecondLow[16] = {
    8 | 32 | 64, 8 | 32 | 64, 8 | 64, 8 | 64 | kF3F4, 8 | 64 | kF3F4, 8 | 64, 8 | 64, 8 | 64,
    8 | 64,      8 | 64,      8 | 64, 8 | 64,         8 | 16 | 64,    8 | 64, 8 | 64, 8 | 64 | 128};
// The classes that count alone: the ASCII bytes.
constexpr std::uint8_t kAlone = 1 | 2 | 4;
// How far before a flagged byte its character may start: a pair is
// flagged at its second byte, and a noncharacter's lead is one byte before
// its pair.
constexpr std::size_t kBackUp = 2;

// quiet_prefix returns how many bytes from p[0] hold no byte that may start
// a denied character: up to kBackUp bytes before the first flagged byte, or
// before the end of the whole groups of four registers it read. The caller
// checks what follows exactly.
inline quiet_run quiet_prefix(const std::uint8_t* p, std::size_t n,
                              const prefilter_tables& t) noexcept {
  constexpr std::size_t kGroup = 4 * simd8::width;
  const simd8 first_high = simd8::repeat_16(t.high);
  const simd8 first_low = simd8::repeat_16(t.low);
  const simd8 second_high = simd8::repeat_16(kSecondHigh);
  const simd8 second_low = simd8::repeat_16(kSecondLow);
  const simd8 alone = simd8::splat(kAlone);
  const simd8 f3_f4 = simd8::splat(t.f3_f4);
  simd8 before = simd8::zero();  // the classes of the register before
  std::size_t i = 0;
  // SAFETY: a group is read only when i + kGroup <= n.
  for (; n - i >= kGroup; i += kGroup) {
    simd8 x[4];
    for (std::size_t r = 0; r < 4; ++r) x[r] = simd8::load(p + i + r * simd8::width);
    simd8 hits[4];
    if (((x[0] | x[1]) | (x[2] | x[3])).is_ascii()) {
      // ASCII alone: no lead, so only the classes that count alone, and no
      // lead class carried into the next group.
      for (std::size_t r = 0; r < 4; ++r) {
        hits[r] = x[r].high_nibble_lookup(first_high) & x[r].low_nibble_lookup(first_low);
      }
      before = simd8::zero();
    } else {
      for (std::size_t r = 0; r < 4; ++r) {
        const simd8 c = x[r].high_nibble_lookup(first_high) & x[r].low_nibble_lookup(first_low);
        const simd8 second =
            x[r].high_nibble_lookup(second_high) & x[r].low_nibble_lookup(second_low);
        hits[r] = (c & alone) | ((c.template prev<1>(before) | f3_f4) & second);
        before = c;
      }
    }
    if (((hits[0] | hits[1]) | (hits[2] | hits[3])).any()) {
      // Where: the scalar check then starts at the flagged character, not
      // at the group, which it would check again and again.
      std::size_t at = i;
      for (std::size_t r = 0; r < 4; ++r, at += simd8::width) {
        const std::size_t j = hits[r].first_nonzero();
        if (j != simd8::width) return {at + j < kBackUp ? 0 : at + j - kBackUp, true};
      }
    }
  }
  return {i < kBackUp ? 0 : i - kBackUp, false};
}

}  // namespace policy_prefilter
