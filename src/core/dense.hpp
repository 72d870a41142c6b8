// dense.hpp - the hostile-input paths: every maximal subpart of a window of
// bytes, found by walking the classifying DFA of dfa.hpp without a branch
// per byte.
//
// The streaming engine (engine.hpp) calls these when errors come close
// together (random bytes, binary data), where the vector kernel would stop,
// hand over to the classifier and restart on almost every byte. Each walk
// starts at a sequence boundary and covers a window of at most kWindow bytes;
// it stops at the end of the window or, if a sequence is still open there, at
// that sequence's lead, so that the next window (or kernel scan) starts at a
// boundary again.
//
// Two walks share the DFA and its actions: errors_in() lists the subparts
// (for the error scanner), replace_in() writes the sanitized bytes (for
// sanitize). Per byte, errors_in moves the state by one shift and reads
// everything else from the action columns of dfa.hpp; replace_in reads all
// from one entry by (state, byte). No branch depends on the data.
#ifndef UTF8GUARD_STREAM_DENSE_HPP
#define UTF8GUARD_STREAM_DENSE_HPP

#include <cstddef>
#include <cstdint>

#include "core/dfa.hpp"

namespace utf8guard::detail::dense {

inline constexpr std::size_t kWindow = 256;
// Every byte adds at most 6 output bytes (U+FFFD for the sequence it breaks,
// U+FFFD for itself); the last 8-byte store may reach 2 bytes further, and
// replace_in's second walk writes 8 bytes past the room of the first.
inline constexpr std::size_t kMaxOutput = 6 * kWindow + 10;

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
// as two words, g++ puts them together from two loads and clang uses two
// of everything.
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
  // stores' addresses.
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

// One walk of sanitize's table (dfa::replace_table) over part of a window,
// writing from `out`.
struct replace_walk {
  char* out;
  std::uint32_t row = 0;    // the state's row offset, id * dfa::kRow (the boundary: 0)
  std::uint32_t moved = 0;  // dfa::replace_table's move, summed

  void step(std::uint8_t b) noexcept {
    const std::size_t at = row + b;
    const std::uint64_t s = dfa::kReplace.store[at];
    const std::uint32_t m = dfa::kReplace.move[at];
    const auto from = static_cast<std::int8_t>(m >> dfa::kMoveOffsetAt);  // fffd_at
    store64(out + (moved & dfa::kMoveField) + from, s);
    moved += m;
    row = static_cast<std::uint32_t>(s >> dfa::kNextRowAt);
  }
  std::size_t cursor() const noexcept { return moved & dfa::kMoveField; }
  std::size_t count() const noexcept { return (moved >> dfa::kMoveCountAt) & dfa::kMoveField; }
  std::size_t open() const noexcept { return dfa::kReplace.have[row / dfa::kRow]; }
};
static_assert(6 * kWindow <= dfa::kMoveField && 2 * kWindow <= dfa::kMoveField,
              "a window's cursor and count fit their fields of replace_walk::moved");

// Where a window splits for its second walk: the first byte at or after m
// that no sequence begun before it can take. That is a byte that is no
// continuation (it starts over whatever came before), or one that follows
// three continuation bytes (a sequence has at most three, so the DFA is at
// the boundary there). One is met within four bytes, or at n.
// Needs 3 <= m <= n.
inline std::size_t unit_start(const std::uint8_t* p, std::size_t n, std::size_t m) noexcept {
  const auto tail = [p](std::size_t i) { return is_continuation(p[i]); };
  while (m < n && tail(m) && !(tail(m - 1) && tail(m - 2) && tail(m - 3))) ++m;
  return m;
}

// replace_in writes the sanitized bytes of p[0..n), n <= kWindow, to
// out[0..kMaxOutput): well-formed bytes unchanged, each maximal subpart as
// U+FFFD (EF BF BD). Bytes of a sequence in progress are written at once and
// written over when the sequence breaks (dfa::action says where).
//
// Each byte's state comes from a load (dfa::replace_table), so one walk
// waits on it; two walks over the halves of the window, side by side, keep
// the core busy, where one walk alone is slower than the shift DFA. The
// second half starts at a unit_start, so its walk starts at the boundary
// like the first, and writes 8 bytes past the first half's room; its output
// then moves down behind the first's.
__attribute__((noinline)) inline window_end replace_in(const std::uint8_t* p, std::size_t n,
                                                       char* out) noexcept {
  const std::size_t m = n < 6 ? n : unit_start(p, n, n / 2);
  // SAFETY: a walk's cursor is <= 6 * i before its byte i (advance <= 6),
  // and a broken sequence's bytes (fffd_at = -have) were written at or after
  // its start: the 8-byte stores of the first walk lie in out[0 .. 6 * m + 2),
  // those of the second in out[6 * m + 8 .. 6 * n + 10), within kMaxOutput.
  replace_walk first{out}, second{out + 6 * m + 8};
  const std::uint8_t* q = p + m;
  const std::size_t n2 = n - m, both = m < n2 ? m : n2;
  for (std::size_t i = 0; i < both; ++i) {
    // Both bytes are read before either store (the compiler cannot tell
    // that the stores miss p, and would read them again after).
    const std::uint8_t x = p[i], y = q[i];
    first.step(x);
    second.step(y);
  }
  for (std::size_t i = both; i < m; ++i) first.step(p[i]);
  for (std::size_t i = both; i < n2; ++i) second.step(q[i]);
  // A sequence still open at the end is not output yet: the next walk
  // starts at its lead, whose bytes were copied one for one.
  std::size_t to = first.cursor(), count = first.count();
  if (n2 == 0) return {n - first.open(), to - first.open(), count};
  // A sequence open at m is broken by p[m] (no continuation byte, as
  // unit_start found): one U+FFFD over its copied bytes, as one walk writes.
  if (const std::size_t open = first.open(); open != 0) {
    to -= open;
    store32(out + to, dfa::kFffd);  // below 6 * m + 4: second's output is intact
    to += 3;
    ++count;
  }
  const std::size_t tail = second.cursor() - second.open();
  __builtin_memmove(out + to, second.out, tail);
  return {n - second.open(), to + tail, count + second.count()};
}

}  // namespace utf8guard::detail::dense

#endif  // UTF8GUARD_STREAM_DENSE_HPP
