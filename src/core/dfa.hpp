// dfa.hpp - Table 3-7 as branch-free DFAs: a yes/no shift DFA for the
// scalar kernel, and one that also says where and why, for the scalar paths
// that must go on after an error (sanitize's replacement loop, the
// every-error scan), where a branch per byte would mispredict on hostile
// input every other byte. The every-error scan reads it as shift rows,
// sanitize as a table by (state, byte) (replace_table).
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
#ifndef UTF8GUARD_STREAM_DFA_HPP
#define UTF8GUARD_STREAM_DFA_HPP

#include <cstddef>
#include <cstdint>

#include "core/table37.hpp"

namespace utf8guard::detail::dfa {

// The classifying states, by id: the boundary; in a sequence, with `have`
// bytes of it read and `need` more continuation bytes wanted (N<need>H<have>);
// after a lead whose second byte has a narrow range (E0, ED, F0, F4; have 1).
// The states count the bytes read so that a walk knows, from the state alone,
// where the sequence that a byte breaks began, instead of keeping the
// lead's offset in a register, a chain of two conditional moves and an add
// per byte.
enum state_id : unsigned { A, N1H1, N1H2, N1H3, N2H1, N2H2, N3H1, S_E0, S_ED, S_F0, S_F4 };
inline constexpr unsigned kClassifyingStates = 11;

struct state_info {
  unsigned need;      // continuation bytes still wanted
  unsigned have;      // bytes of the sequence read so far
  std::uint8_t lead;  // a lead byte whose kLeads entry gives the next byte's range
};
constexpr state_info info(unsigned s) {
  switch (s) {
    case N1H1: return {1, 1, 0xC2};
    case N1H2: return {1, 2, 0xC2};
    case N1H3: return {1, 3, 0xC2};
    case N2H1: return {2, 1, 0xC2};
    case N2H2: return {2, 2, 0xC2};
    case N3H1: return {3, 1, 0xC2};
    case S_E0: return {2, 1, 0xE0};
    case S_ED: return {2, 1, 0xED};
    case S_F0: return {3, 1, 0xF0};
    case S_F4: return {3, 1, 0xF4};
    default: return {0, 0, 0x00};  // A
  }
}
constexpr bool narrow(unsigned s) { return info(s).lead != 0xC2 && s != A; }

// The state with `have` bytes read that wants `need` more, any 80..BF next.
constexpr unsigned in_sequence(unsigned need, unsigned have) {
  if (need == 0) return A;
  if (need == 1) return have == 1 ? N1H1 : have == 2 ? N1H2 : N1H3;
  if (need == 2) return have == 1 ? N2H1 : N2H2;
  return N3H1;
}

// The state after a lead byte (from the boundary), by its kLeads entry.
constexpr unsigned state_after_lead(std::uint8_t b) {
  const lead_info& lead = kLeads.entry[b];
  if (lead.size <= 1) return A;  // ASCII, or no lead at all (then an error)
  if (lead.lo == 0x80 && lead.hi == 0xBF) return in_sequence(lead.size - 1u, 1);
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
  const state_info here = info(s);
  const lead_info& lead = kLeads.entry[here.lead];
  const std::uint8_t lo = narrow(s) ? lead.lo : 0x80, hi = narrow(s) ? lead.hi : 0xBF;
  if (b >= lo && b <= hi)
    return {in_sequence(here.need - 1, here.have + 1), error::none, error::none};
  const transition again = from_boundary(b);
  return {again.next, is_continuation(b) ? lead.range_kind : error::truncated, again.second};
}

// The yes/no DFA of the scalar kernel needs no byte count: its states are
// the classifying ones with `have` dropped, plus the sticky error state, 6
// bits apart.
enum valid_id : unsigned { V_A, V_N1, V_N2, V_N3, V_E0, V_ED, V_F0, V_F4, ERR };
inline constexpr unsigned kValidSpacing = 6;
constexpr unsigned valid_of(unsigned s) {
  const state_info i = info(s);
  if (s == A) return V_A;
  if (!narrow(s)) return i.need == 1 ? V_N1 : i.need == 2 ? V_N2 : V_N3;
  return s == S_E0 ? V_E0 : s == S_ED ? V_ED : s == S_F0 ? V_F0 : V_F4;
}
// A classifying state of each yes/no state (its transitions are the same).
constexpr unsigned classifying_of(unsigned v) {
  constexpr unsigned kFirst[ERR] = {A, N1H1, N2H1, N3H1, S_E0, S_ED, S_F0, S_F4};
  return kFirst[v];
}

// The classifying states' offsets in a row. Eleven 6-bit fields take 66
// bits, so two pairs overlap by one bit: bit 5 of the field at 30 is bit 0
// of the field at 35, and bit 5 of the field at 53 is bit 0 of the one at
// 58. That is consistent for every byte because
// - every state that a lead, ASCII or an invalid byte leads to sits where
//   bit 5 and bit 0 agree (even below 32, odd above), and from two states a
//   byte that is no continuation leads to the same state;
// - on a continuation N1H1 (at 30) and N1H2 (at 53) go to A (0: bit 5 is 0),
//   and F0 (at 35) and N1H3 (at 58) go to A or to N2H2 (6: bit 0 is 0).
// classify_rows_hold_the_transitions() checks every field of every row at
// compile time.
inline constexpr unsigned kPosition[kClassifyingStates] = {
    /* A */ 0,     /* N1H1 */ 30, /* N1H2 */ 53, /* N1H3 */ 58, /* N2H1 */ 41, /* N2H2 */ 6,
    /* N3H1 */ 47, /* S_E0 */ 12, /* S_ED */ 18, /* S_F0 */ 35, /* S_F4 */ 24};

// What one byte does to the two walks of dense.hpp, by (state id, byte), so
// that the walks read every decision from tables and branch on nothing.
//
// sanitize writes, at fffd_at from its output cursor, U+FFFD for the
// sequence that the byte breaks (if it breaks one: fffd_at is then -have,
// the start of that sequence's bytes, which were copied as they came), then
// the byte itself or, if it is an error, U+FFFD; and moves the cursor by
// `advance`. The bytes of a sequence in progress are thus copied at once
// and written over if it breaks.
//
// The error list holds words (dense.hpp, window_error): the kind in bits
// 0-2, the length in bits 3-4, the start offset from bit 5 on. A walk keeps
// the word of start i (length 0, no kind) and adds to it:
//   broken  for the sequence this byte breaks: its kind, its length have,
//           its start have bytes back (kind + 8 * have - 32 * have)
//   second  for the byte itself: its kind and length 1
// The walk writes the byte's first real word (broken if it broke a sequence,
// else second) at its count and the other after it (the pair `words` of
// action_columns below), and adds `count`: where it stores depends on the
// count alone.
struct action {
  std::int8_t fffd_at;   // -have of a broken sequence, else 0
  std::uint8_t advance;  // the cursor's move: fffd_at + 3 (if broken) + 3 (an error) or 1
  std::uint8_t count;    // maximal subparts that end at this byte: 0, 1 or 2
  std::uint8_t broke;    // 1 if the byte ends the sequence in progress as an error
  std::uint8_t bad;      // 1 if the byte itself is an error
  std::int8_t broken;    // kind - 24 * have of the broken sequence
  std::uint8_t second;   // kind of the byte itself, 0 if none
};

constexpr action action_for(unsigned s, std::uint8_t b) {
  const transition t = step(s, b);
  const bool broke = t.first != error::none, bad = t.second != error::none;
  const int have = broke ? static_cast<int>(info(s).have) : 0;
  return action{static_cast<std::int8_t>(-have),
                static_cast<std::uint8_t>(-have + (broke ? 3 : 0) + (bad ? 3 : 1)),
                static_cast<std::uint8_t>(broke + bad),
                static_cast<std::uint8_t>(broke),
                static_cast<std::uint8_t>(bad),
                static_cast<std::int8_t>(static_cast<int>(t.first) - 24 * have),
                static_cast<std::uint8_t>(t.second)};
}

// The actions are few (16: a byte kept; an error byte of 3 kinds; a broken
// sequence of 6 lengths and kinds, each followed by a kept or an error byte
// of the kinds that can follow), so the error walk does not index a table
// by (state, byte): a second row per byte holds, at each state's position,
// the number of its action. One shift and a mask give it, where a table by
// state needed the state's id from its position first, and the columns
// below stay at 256 bytes each. (sanitize's walk does index one: see
// replace_table below for why.)
inline constexpr unsigned kCodeBits = 5;
inline constexpr unsigned kMaxActions = 1u << kCodeBits;

// The actions as the error walk reads them, indexed by action number,
// packed so that each byte loads as few words as it can: on random bytes
// the walks are bound by loads per byte more than by instructions. A byte's
// two words sit side by side (`words`), one 16-byte load.
inline constexpr std::uint64_t kFffd = 0xEF | 0xBF << 8 | 0xBD << 16;  // little-endian
inline constexpr std::uint64_t kLengthOne = std::uint64_t{1} << 3;     // in a window_error
struct action_columns {
  std::uint64_t count[kMaxActions];
  // The error words: broken if the byte breaks a sequence, else second;
  // then second (counted only after a broken sequence).
  alignas(16) std::uint64_t words[kMaxActions][2];
};

constexpr bool same_action(const action& x, const action& y) {
  return x.fffd_at == y.fffd_at && x.advance == y.advance && x.count == y.count &&
         x.broke == y.broke && x.bad == y.bad && x.broken == y.broken && x.second == y.second;
}

struct tables {
  std::uint64_t valid[256];        // yes/no rows, kValidSpacing
  std::uint64_t classify[256];     // next-state rows, at kPosition
  std::uint64_t action_code[256];  // action numbers, kCodeBits at kPosition
  action actions[kMaxActions];     // the distinct actions, by number
  unsigned action_count;
  action_columns column;
  std::uint8_t have_at[64];  // the bytes read in the state at each position
  constexpr tables()
      : valid{}, classify{}, action_code{}, actions{}, action_count{0}, column{}, have_at{} {
    for (unsigned s = 0; s < kClassifyingStates; ++s) {
      have_at[kPosition[s]] = static_cast<std::uint8_t>(info(s).have);
    }
    for (unsigned b = 0; b < 256; ++b) {
      const auto byte = static_cast<std::uint8_t>(b);
      std::uint64_t v = std::uint64_t{ERR * kValidSpacing} << (ERR * kValidSpacing), c = 0, a = 0;
      for (unsigned s = 0; s < ERR; ++s) {
        const transition t = step(classifying_of(s), byte);
        const bool ok = t.first == error::none && t.second == error::none;
        v |= std::uint64_t{(ok ? valid_of(t.next) : unsigned{ERR}) * kValidSpacing}
             << (s * kValidSpacing);
      }
      for (unsigned s = 0; s < kClassifyingStates; ++s) {
        c |= std::uint64_t{kPosition[step(s, byte).next]} << kPosition[s];
        a |= std::uint64_t{number_of(action_for(s, byte))} << kPosition[s];
      }
      valid[b] = v;
      classify[b] = c;
      action_code[b] = a;
    }
    for (unsigned k = 0; k < action_count; ++k) {
      const action& x = actions[k];
      column.count[k] = x.count;
      const std::uint64_t second = x.second + kLengthOne;
      column.words[k][0] = x.broke ? static_cast<std::uint64_t>(std::int64_t{x.broken}) : second;
      column.words[k][1] = second;
    }
  }
  // number_of finds the action in the list, or adds it (a full list is
  // caught by a static_assert below: the number would not fit its field).
  constexpr unsigned number_of(const action& x) {
    for (unsigned k = 0; k < action_count; ++k) {
      if (same_action(actions[k], x)) return k;
    }
    if (action_count < kMaxActions) actions[action_count] = x;
    return action_count++;
  }
};
inline constexpr tables kTables{};
static_assert(kTables.action_count <= kMaxActions, "the action numbers need wider fields");

// Every field of every classifying row holds the state its transition names,
// overlaps included (see kPosition), and every field of the action rows its
// action (5-bit fields, at least 5 bits apart, do not overlap).
constexpr bool classify_rows_hold_the_transitions() {
  for (unsigned b = 0; b < 256; ++b) {
    for (unsigned s = 0; s < kClassifyingStates; ++s) {
      const unsigned next = step(s, static_cast<std::uint8_t>(b)).next;
      if (((kTables.classify[b] >> kPosition[s]) & 63) != kPosition[next]) return false;
      const unsigned code = (kTables.action_code[b] >> kPosition[s]) & (kMaxActions - 1);
      if (!same_action(kTables.actions[code], action_for(s, static_cast<std::uint8_t>(b)))) {
        return false;
      }
    }
  }
  return true;
}
static_assert(classify_rows_hold_the_transitions(), "kPosition: overlapping fields disagree");
static_assert(kPosition[A] == 0, "the boundary is state 0");

// sanitize's walk (dense.hpp, replace_in) reads one table indexed by
// (state id, byte), row * 256 + byte: a walk from the shift rows above puts
// the action's number, the state and the store together per byte, and is
// bound by instruction count. Here an entry holds the 8 bytes to store with
// the byte already among them, and the next state, so a byte takes about
// half the instructions; but the state now goes through a load, so
// replace_in walks two halves of a window side by side.
//
// store: the bytes in 0-47 (U+FFFD for a broken sequence, then the byte or
//   U+FFFD for it). Only the first advance - fffd_at (at most 6) are output;
//   the rest land at or past the cursor after the byte, where the next store
//   writes again. Bits 48-63 hold the next state's row offset (id * 256),
//   which thus lands there too.
// move: added as it is to the walk's accumulator: advance in bits 0-11 (the
//   cursor), count in 12-23 (the subparts met), and in 24-31 fffd_at, where
//   the store goes from the cursor (signed; it piles up above bit 24 in the
//   accumulator, where nothing is read).
inline constexpr unsigned kRow = 256;
inline constexpr unsigned kNextRowAt = 48;
inline constexpr std::uint32_t kMoveField = 0xFFF;  // the cursor, and the count from kMoveCountAt
inline constexpr unsigned kMoveCountAt = 12, kMoveOffsetAt = 24;
struct replace_table {
  std::uint64_t store[kClassifyingStates * kRow];
  std::uint32_t move[kClassifyingStates * kRow];
  std::uint8_t have[kClassifyingStates];  // by id: bytes of the open sequence
  constexpr replace_table() : store{}, move{}, have{} {
    for (unsigned s = 0; s < kClassifyingStates; ++s) {
      have[s] = static_cast<std::uint8_t>(info(s).have);
      for (unsigned b = 0; b < kRow; ++b) {
        const auto byte = static_cast<std::uint8_t>(b);
        const action x = action_for(s, byte);
        const unsigned at = x.broke ? 3 : 0;  // where the byte goes among the stored bytes
        const std::uint64_t bytes = (x.broke ? kFffd : 0) | (x.bad ? kFffd : byte) << (8 * at);
        store[s * kRow + b] = bytes | std::uint64_t{step(s, byte).next * kRow} << kNextRowAt;
        move[s * kRow + b] = x.advance | std::uint32_t{x.count} << kMoveCountAt |
                             std::uint32_t{static_cast<std::uint8_t>(x.fffd_at)} << kMoveOffsetAt;
      }
    }
  }
};
inline constexpr replace_table kReplace{};
static_assert(8 * 6 <= kNextRowAt, "two U+FFFD fit below the next row");

// Offsets of the yes/no DFA's boundary and error states.
inline constexpr std::uint64_t kValidAccept = V_A * kValidSpacing;
inline constexpr std::uint64_t kValidError = ERR * kValidSpacing;

}  // namespace utf8guard::detail::dfa

#endif  // UTF8GUARD_STREAM_DFA_HPP
