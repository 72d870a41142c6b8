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
// policy allows are cleared, so a quiet register costs two lookups, an AND
// and an OR into the group's accumulator.

namespace policy_prefilter {

// quiet_prefix returns how many bytes from p[0], in whole groups of
// registers, hold no byte that may start a denied character (all of n less
// a tail shorter than a group, if none does). The caller checks what follows
// exactly.
inline std::size_t quiet_prefix(const std::uint8_t* p, std::size_t n,
                                const prefilter_tables& t) noexcept {
  constexpr std::size_t kGroup = 4 * simd8::width;
  const simd8 high = simd8::repeat_16(t.high);
  const simd8 low = simd8::repeat_16(t.low);
  std::size_t i = 0;
  // SAFETY: a group is read only when i + kGroup <= n.
  for (; n - i >= kGroup; i += kGroup) {
    simd8 hits = simd8::zero();
    for (std::size_t r = 0; r < 4; ++r) {
      const simd8 x = simd8::load(p + i + r * simd8::width);
      hits = hits | (x.high_nibble_lookup(high) & x.low_nibble_lookup(low));
    }
    if (hits.any()) break;
  }
  return i;
}

}  // namespace policy_prefilter
