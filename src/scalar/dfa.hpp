// dfa.hpp - Table 3-7 as branch-free shift DFAs: a yes/no one for the
// scalar kernel, and one that also says where and why, for the scalar paths
// that must go on after an error (sanitize's replacement loop, the
// every-error scan), where a branch per byte would mispredict on hostile
// input every other byte.
//
// The transitions are not written by hand: they are computed at compile time
// from the lead table of table37.hpp (kLeads), so the DFAs and the classifier
// cannot disagree on a kind; tests/kernels/dfa_test.cpp checks every
// transition against sequence_at as well.
//
// Shift DFA: a state is a bit offset into a 64-bit row, and the row of byte b
// holds at that offset the state reached from it on b. One step is
// `row[b] >> state`: the row load does not depend on the state, so the
// dependency chain from byte to byte is a single shift (x86 and AArch64
// shifts use only the low 6 bits of the count, so no mask is needed either).
#ifndef UTF8GUARD_SCALAR_DFA_HPP
#define UTF8GUARD_SCALAR_DFA_HPP

#include <cstddef>
#include <cstdint>

#include "scalar/table37.hpp"

namespace utf8guard::detail::dfa {

// The states, by id: the boundary; in a sequence, waiting for 1, 2 or 3 more
// continuation bytes; after a lead whose second byte has a narrow range (E0,
// ED, F0, F4); and, in the yes/no DFA only, the sticky error state.
enum state_id : unsigned { A, N1, N2, N3, S_E0, S_ED, S_F0, S_F4, ERR };
inline constexpr unsigned kClassifyingStates = 8;  // A .. S_F4

// The lead byte that puts the DFA in each narrow-range state; its kLeads
// entry gives the range and the kind of an out-of-range continuation.
constexpr std::uint8_t representative_lead(unsigned s) {
  return s == S_E0 ? 0xE0 : s == S_ED ? 0xED : s == S_F0 ? 0xF0 : s == S_F4 ? 0xF4 : 0xC2;
}
constexpr bool narrow(unsigned s) { return s == S_E0 || s == S_ED || s == S_F0 || s == S_F4; }

// needs is how many more bytes a state in a sequence waits for; needing is
// the state that waits for k more bytes with no range narrower than 80..BF.
constexpr unsigned needs(unsigned s) {
  return s == N1 ? 1 : s == N2 ? 2 : s == N3 ? 3 : kLeads.entry[representative_lead(s)].size - 1;
}
constexpr unsigned needing(unsigned k) { return k == 0 ? A : k == 1 ? N1 : k == 2 ? N2 : N3; }

// The state after a lead byte (from the boundary), by its kLeads entry.
constexpr unsigned state_after_lead(std::uint8_t b) {
  const lead_info& lead = kLeads.entry[b];
  if (lead.size <= 1) return A;  // ASCII, or no lead at all (then an error)
  if (lead.lo == 0x80 && lead.hi == 0xBF) return needing(lead.size - 1u);
  if (lead.size == 3) return lead.lo == 0xA0 ? S_E0 : S_ED;
  return lead.lo == 0x90 ? S_F0 : S_F4;
}

// One transition: the next state, the error that ends the sequence in
// progress (its maximal subpart is that sequence's bytes so far), and the
// error of the byte itself when it must start a sequence and cannot.
struct transition {
  unsigned next;
  error first;
  error second;
};

constexpr transition from_boundary(std::uint8_t b) {
  const lead_info& lead = kLeads.entry[b];
  if (lead.size == 0) return {A, error::none, lead.bad_kind};
  return {state_after_lead(b), error::none, error::none};
}

constexpr transition step(unsigned s, std::uint8_t b) {
  if (s == A) return from_boundary(b);
  // In a sequence, the next byte must be in the lead's range (only second
  // bytes have a narrow one) or the sequence ends here, as sequence_at says:
  // an out-of-range continuation gives the lead's range kind, anything else
  // "truncated"; the byte then starts over from the boundary.
  const lead_info& lead = kLeads.entry[representative_lead(s)];
  const std::uint8_t lo = narrow(s) ? lead.lo : 0x80, hi = narrow(s) ? lead.hi : 0xBF;
  if (b >= lo && b <= hi) return {needing(needs(s) - 1), error::none, error::none};
  const transition again = from_boundary(b);
  return {again.next, is_continuation(b) ? lead.range_kind : error::truncated, again.second};
}

// The yes/no DFA of the scalar kernel: 9 states 6 bits apart, any error
// leading to the sticky ERR.
inline constexpr unsigned kValidSpacing = 6;
// The classifying DFA: 8 states 8 bits apart, so that state >> 3 is its id.
inline constexpr unsigned kClassifySpacing = 8;

// What one byte does to the output of sanitize and to the list of errors, by
// (state id, byte). Byte fields, so each is one load, not a shift and a mask.
struct action {
  std::uint8_t broke;    // 3 if the byte ends the sequence in progress as an error, else 0
  std::uint8_t advance;  // output bytes: broke (its U+FFFD) + 1 (the byte) or + 3 (U+FFFD)
  std::uint8_t kept;     // 1 if the byte itself is output, 0 if it becomes U+FFFD
  std::uint8_t count;    // maximal subparts that end at this byte: 0, 1 or 2
  std::uint8_t starts;   // 1 if the byte starts a sequence (or a one-byte subpart)
  error first;           // the kind of the sequence it breaks, if any
  error second;          // the kind of the byte itself, if it cannot start a sequence
  std::uint8_t unused;
};

struct tables {
  std::uint64_t valid[256];     // yes/no rows, kValidSpacing
  std::uint64_t classify[256];  // next-state rows, kClassifySpacing
  action act[kClassifyingStates][256];
  constexpr tables() : valid{}, classify{}, act{} {
    for (unsigned b = 0; b < 256; ++b) {
      std::uint64_t v = std::uint64_t{ERR * kValidSpacing} << (ERR * kValidSpacing), c = 0;
      for (unsigned s = 0; s < kClassifyingStates; ++s) {
        const transition t = step(s, static_cast<std::uint8_t>(b));
        const bool broke = t.first != error::none, bad = t.second != error::none;
        const unsigned valid_next = (broke || bad) ? unsigned{ERR} : t.next;
        v |= std::uint64_t{valid_next * kValidSpacing} << (s * kValidSpacing);
        c |= std::uint64_t{t.next * kClassifySpacing} << (s * kClassifySpacing);
        act[s][b] = action{static_cast<std::uint8_t>(broke ? 3 : 0),
                           static_cast<std::uint8_t>((broke ? 3 : 0) + (bad ? 3 : 1)),
                           static_cast<std::uint8_t>(bad ? 0 : 1),
                           static_cast<std::uint8_t>(broke + bad),
                           static_cast<std::uint8_t>(s == A || broke),
                           t.first,
                           t.second,
                           0};
      }
      valid[b] = v;
      classify[b] = c;
    }
  }
};
inline constexpr tables kTables{};

// Offsets of the yes/no DFA's boundary and error states.
inline constexpr std::uint64_t kValidAccept = A * kValidSpacing;
inline constexpr std::uint64_t kValidError = ERR * kValidSpacing;

}  // namespace utf8guard::detail::dfa

#endif  // UTF8GUARD_SCALAR_DFA_HPP
