// dense.hpp - the hostile-input paths: every maximal subpart of a window of
// bytes, found by walking the classifying DFA of dfa.hpp without a branch
// per byte.
//
// The streaming engine (stream.hpp) calls these when errors come close
// together (random bytes, binary data), where the vector kernel would stop,
// hand over to the classifier and restart on almost every byte. Each walk
// starts at a sequence boundary and covers a window of at most kWindow bytes;
// it stops at the end of the window or, if a sequence is still open there, at
// that sequence's lead, so that the next window (or kernel scan) starts at a
// boundary again.
//
// Two walks share the DFA and its actions: errors_in() lists the subparts
// (for the error scanner), replace_in() writes the sanitized bytes (for
// sanitize). Per byte, the state moves by one shift and everything else is
// read from the action columns of dfa.hpp: no branch depends on the data.
#ifndef UTF8GUARD_SCALAR_DENSE_HPP
#define UTF8GUARD_SCALAR_DENSE_HPP

#include <cstddef>
#include <cstdint>

#include "scalar/dfa.hpp"

namespace utf8guard::detail::dense {

inline constexpr std::size_t kWindow = 256;
// Every byte adds at most 6 output bytes (U+FFFD for the sequence it breaks,
// U+FFFD for itself); the last 8-byte store may reach 2 bytes further.
inline constexpr std::size_t kMaxOutput = 6 * kWindow + 4;

// store32 and store64 write 4 or 8 bytes at p with one unaligned store.
// (__builtin_memcpy, not memcpy: _FORTIFY_SOURCE turns memcpy into a checked
// library call when the offset is not a constant, one call per byte here.)
inline void store32(char* p, std::uint32_t v) noexcept { __builtin_memcpy(p, &v, 4); }
inline void store64(char* p, std::uint64_t v) noexcept { __builtin_memcpy(p, &v, 8); }

// The number of the action of byte b in the DFA state `state` (a position
// in the rows), and the state after it.
inline unsigned action_number(std::uint64_t state, std::uint8_t b) noexcept {
  return static_cast<unsigned>(dfa::kTables.action_code[b] >> (state & 63)) &
         (dfa::kMaxActions - 1);
}
inline const dfa::action& action_of(std::uint64_t state, std::uint8_t b) noexcept {
  return dfa::kTables.actions[action_number(state, b)];
}
inline std::uint64_t next_state(std::uint64_t state, std::uint8_t b) noexcept {
  return dfa::kTables.classify[b] >> (state & 63);
}
// The bytes of the sequence in progress in `state` (0 at the boundary).
inline std::size_t open_bytes(std::uint64_t state) noexcept {
  return dfa::kTables.have_at[state & 63];
}

struct window_end {
  std::size_t stop;          // where the walk ended: a sequence boundary
  std::size_t count;         // errors listed, or bytes written
  std::size_t replacements;  // maximal subparts met
};

// One maximal subpart of a window, in one word (one store per entry, and an
// array of them costs no initialization): its kind (bits 0-2), its length
// (bits 3-4) and its start relative to the window (from bit 5). A walk makes
// each by adding a signed constant to the word of the byte's offset
// (dfa::action's broken and second), and the consumer takes each field with
// one shift or mask.
struct window_error {
  std::uint64_t bits;
  std::size_t offset() const noexcept { return bits >> 5; }
  std::size_t length() const noexcept { return (bits >> 3) & 3; }
  error kind() const noexcept { return static_cast<error>(bits & 7); }
};
inline constexpr std::size_t kMaxErrors = 2 * kWindow;             // two per byte at most
inline constexpr std::uint64_t kNextByte = std::uint64_t{1} << 5;  // start + 1
static_assert(static_cast<unsigned>(error::incomplete) < 8, "a kind fits 3 bits");

// Two error words as one value, so that errors_in moves an action's pair
// with one 16-byte load, add and store (SSE2 on x86-64, NEON on AArch64):
// as two words, g++ put them together from two loads and clang used two
// of everything (HACKING.md, "How a call flows", has the figures).
using word_pair = std::uint64_t __attribute__((vector_size(16)));
static_assert(sizeof(word_pair) == sizeof(dfa::action_columns::words[0]), "a pair is 16 bytes");

// errors_in lists, in out[0..kMaxErrors), every maximal subpart of p[0..n)
// (n <= kWindow), in order. Two entries are written for every byte and the
// count advances by the ones that are real (dfa::action_columns).
// (Not inlined: on its own the loop keeps its counters in registers.)
__attribute__((noinline)) inline window_end errors_in(const std::uint8_t* p, std::size_t n,
                                                      window_error* out) noexcept {
  static_assert(sizeof(window_error) == 8, "out holds the words as they are");
  const dfa::action_columns& c = dfa::kTables.column;
  std::uint64_t state = dfa::kPosition[dfa::A];
  word_pair here = {0, 0};  // start i as a window_error, twice
  const word_pair next = {kNextByte, kNextByte};
  std::size_t count = 0;
  // SAFETY: count <= 2 * i before byte i, so the pair's store is below 2 * n.
  // (Unsigned wrap-around: the first word may hold a negative offset.)
  // A broken sequence starts at or after 0 (the walk starts at a boundary),
  // so adding `broken` borrows from no bit above the start.
  // The byte is read once, before the store: the compiler cannot tell that
  // stores miss p, and read it again after them, a load that waited for the
  // stores' addresses (38 % of errors_in's time in a profile).
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t b = p[i];
    const unsigned k = action_number(state, b);
    state = next_state(state, b);
    word_pair words;
    __builtin_memcpy(&words, c.words[k], sizeof words);
    words += here;
    __builtin_memcpy(out + count, &words, sizeof words);
    count += c.count[k];
    here += next;
  }
  return {n - open_bytes(state), count, count};
}

// replace_in writes the sanitized bytes of p[0..n), n <= kWindow, to
// out[0..kMaxOutput): well-formed bytes unchanged, each maximal subpart as
// U+FFFD (EF BF BD). Bytes of a sequence in progress are written at once and
// written over when the sequence breaks (dfa::action says where).
__attribute__((noinline)) inline window_end replace_in(const std::uint8_t* p, std::size_t n,
                                                       char* out) noexcept {
  const dfa::action_columns& c = dfa::kTables.column;
  std::uint64_t state = dfa::kPosition[dfa::A];
  // The cursor's offset from out (dfa::kCursor) and the subparts met, one add.
  std::uint64_t moved = 0;
  // SAFETY: the cursor is <= 6 * i before byte i (advance <= 6), and a
  // broken sequence's bytes (store_offset = -have) were written at or after
  // out: each 8-byte store lies in out[0 .. 6 * i + 8), below 6 * n + 2 <=
  // kMaxOutput. (The byte is read once, before the store, as in errors_in.)
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t b = p[i];
    const unsigned k = action_number(state, b);
    state = next_state(state, b);
    const std::uint64_t s = c.store[k];
    store64(out + (moved & dfa::kCursor) + dfa::store_offset(s), dfa::stored_bytes(s, b));
    moved += c.advance_count[k];
  }
  // A sequence still open at the end is not output yet: the next walk
  // starts at its lead, whose bytes were copied one for one.
  const std::size_t open = open_bytes(state);
  return {n - open, static_cast<std::size_t>(moved & dfa::kCursor) - open,
          static_cast<std::size_t>(moved >> dfa::kCountAt)};
}

}  // namespace utf8guard::detail::dense

#endif  // UTF8GUARD_SCALAR_DENSE_HPP
