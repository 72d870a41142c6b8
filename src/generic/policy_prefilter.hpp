// policy_prefilter.hpp - the policy's vector prefilter, written once.
//
// No include guard on purpose: src/kernels/policy_prefilter.cpp includes
// this file inside each ISA's namespace and target region, after that ISA's
// wrapper (src/simd/<isa>.hpp, struct simd8). It needs core/policy.hpp's
// prefilter_tables.
//
// Every character a policy can deny starts with one of the bytes 00..08,
// 0A..1F, 7F, C2, D8, E2, EE..F4 (core/policy.hpp). That set is exactly a
// union of products (high nibble x low nibble), one bit each, so two 16-entry
// lookups and an AND classify 16, 32 or 64 bytes at once, as the validation
// lookups do (Keiser and Lemire). The tables' bits of the categories the
// policy allows are cleared.
//
// A lead byte alone would stop the prefilter at every Arabic letter (D8) and
// every no-break space (C2 A0), so the leads C2, D8, E2, EE and EF count only
// with the byte after them that one of their denied characters has (two more
// lookups, on that byte): C2 80..9F, D8 9C, E2 80..81, EE/EF 80..BF. The
// ASCII bytes and F0..F4 count alone.

namespace policy_prefilter {

// The second-byte classes, one bit per lead class of core/policy.hpp's
// kPrefilterHigh: bit 3 after C2, bit 4 after D8, bit 5 after E2, bit 6
// after EE or EF.
alignas(16) inline constexpr std::uint8_t kSecondHigh[16] = {
    0, 0, 0, 0, 0, 0, 0, 0, 8 | 32 | 64, 8 | 16 | 64, 64, 64, 0, 0, 0, 0};
alignas(16) inline constexpr std::uint8_t kSecondLow[16] = {
    8 | 32 | 64, 8 | 32 | 64, 8 | 64, 8 | 64, 8 | 64,      8 | 64, 8 | 64, 8 | 64,
    8 | 64,      8 | 64,      8 | 64, 8 | 64, 8 | 16 | 64, 8 | 64, 8 | 64, 8 | 64};
// The classes that count alone: the ASCII bytes and F0..F4.
constexpr std::uint8_t kAlone = 1 | 2 | 4 | 128;

// quiet_prefix returns how many bytes from p[0] hold no byte that may start
// a denied character: a whole number of groups of four registers, less one
// byte (a lead at the end of a group is told by the byte after it), or 0.
// The caller checks what follows exactly.
inline std::size_t quiet_prefix(const std::uint8_t* p, std::size_t n,
                                const prefilter_tables& t) noexcept {
  constexpr std::size_t kGroup = 4 * simd8::width;
  const simd8 first_high = simd8::repeat_16(t.high);
  const simd8 first_low = simd8::repeat_16(t.low);
  const simd8 second_high = simd8::repeat_16(kSecondHigh);
  const simd8 second_low = simd8::repeat_16(kSecondLow);
  const simd8 alone = simd8::splat(kAlone);
  simd8 before = simd8::zero();  // the classes of the register before
  std::size_t i = 0;
  // SAFETY: a group is read only when i + kGroup <= n.
  for (; n - i >= kGroup; i += kGroup) {
    simd8 x[4];
    for (std::size_t r = 0; r < 4; ++r) x[r] = simd8::load(p + i + r * simd8::width);
    simd8 hits = simd8::zero();
    if (((x[0] | x[1]) | (x[2] | x[3])).is_ascii()) {
      // ASCII alone: no lead, so only the classes that count alone, and no
      // lead class carried into the next group.
      for (const simd8& v : x) {
        hits = hits | (v.high_nibble_lookup(first_high) & v.low_nibble_lookup(first_low));
      }
      before = simd8::zero();
    } else {
      for (const simd8& v : x) {
        const simd8 c = v.high_nibble_lookup(first_high) & v.low_nibble_lookup(first_low);
        const simd8 second = v.high_nibble_lookup(second_high) & v.low_nibble_lookup(second_low);
        hits = hits | (c & alone) | (c.template prev<1>(before) & second);
        before = c;
      }
    }
    if (hits.any()) break;
  }
  return i == 0 ? 0 : i - 1;
}

}  // namespace policy_prefilter
