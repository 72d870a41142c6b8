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
// Two walks share the DFA and its action table: errors_in() lists the
// subparts (for the error scanner), replace_in() writes the sanitized bytes
// (for sanitize). Per byte, the state moves by one shift and everything else
// is read from dfa::action: no branch depends on the data.
#ifndef UTF8GUARD_SCALAR_DENSE_HPP
#define UTF8GUARD_SCALAR_DENSE_HPP

#include <cstddef>
#include <cstdint>

#include "scalar/dfa.hpp"

namespace utf8guard::detail::dense {

inline constexpr std::size_t kWindow = 256;
// Every byte adds at most 6 output bytes (U+FFFD for the sequence it breaks,
// U+FFFD for itself); the last 4-byte store may reach 3 bytes further.
inline constexpr std::size_t kMaxOutput = 6 * kWindow + 4;

// store32 writes 4 bytes at p with one unaligned store. (__builtin_memcpy,
// not memcpy: _FORTIFY_SOURCE turns memcpy into a checked library call when
// the offset is not a constant, one call per byte here.)
inline void store32(char* p, std::uint32_t v) noexcept { __builtin_memcpy(p, &v, 4); }

// The action of byte b in the DFA state `state` (an offset into the rows),
// and the state after it.
inline const dfa::action& action_of(std::uint64_t state, std::uint8_t b) noexcept {
  return dfa::kTables.act[(state & 63) / dfa::kClassifySpacing][b];
}
inline std::uint64_t next_state(std::uint64_t state, std::uint8_t b) noexcept {
  return dfa::kTables.classify[b] >> (state & 63);
}
inline bool at_boundary(std::uint64_t state) noexcept { return (state & 63) == dfa::A; }

struct window_end {
  std::size_t stop;          // where the walk ended: a sequence boundary
  std::size_t count;         // errors listed, or bytes written
  std::size_t replacements;  // maximal subparts met
};

// One maximal subpart of a window, in one word (one store per entry, and an
// array of them costs no initialization): its start (bits 0-15) and end
// (bits 16-31) relative to the window, and its kind (bits 32-39).
struct window_error {
  std::uint64_t bits;
  std::size_t offset() const noexcept { return bits & 0xFFFF; }
  std::size_t length() const noexcept { return ((bits >> 16) & 0xFFFF) - offset(); }
  error kind() const noexcept { return static_cast<error>((bits >> 32) & 0xFF); }
};
inline constexpr std::size_t kMaxErrors = 2 * kWindow;  // two per byte at most

// errors_in lists, in out[0..kMaxErrors), every maximal subpart of p[0..n)
// (n <= kWindow), in order. Both possible entries of a byte are written and
// the count advances by the ones that are real.
// (Not inlined: on its own the loop keeps its counters in registers.)
__attribute__((noinline)) inline window_end errors_in(const std::uint8_t* p, std::size_t n,
                                                      window_error* out) noexcept {
  std::uint64_t state = dfa::A;
  std::uint64_t lead = 0;  // offset of the sequence in progress
  std::size_t count = 0;
  // SAFETY: count <= 2 * i before byte i, so both stores are below 2 * n.
  // Offsets fit 16 bits: n <= kWindow.
  for (std::size_t i = 0; i < n; ++i) {
    const dfa::action& a = action_of(state, p[i]);
    const std::uint64_t here = std::uint64_t{i} << 16;  // byte i ends a broken sequence
    out[count] = {lead | here | std::uint64_t{static_cast<std::uint8_t>(a.first)} << 32};
    count += a.broke != 0;
    out[count] = {i | (here + (1 << 16)) |
                  std::uint64_t{static_cast<std::uint8_t>(a.second)} << 32};
    count += a.kept == 0;
    lead = a.starts ? i : lead;
    state = next_state(state, p[i]);
  }
  return {at_boundary(state) ? n : static_cast<std::size_t>(lead), count, count};
}

// replace_in writes the sanitized bytes of p[0..n), n <= kWindow, to
// out[0..kMaxOutput): well-formed bytes unchanged, each maximal subpart as
// U+FFFD (EF BF BD). Bytes of a sequence in progress are written at once and
// written over when the sequence breaks.
__attribute__((noinline)) inline window_end replace_in(const std::uint8_t* p, std::size_t n,
                                                       char* out) noexcept {
  // U+FFFD as a little-endian word: a 4-byte store writes EF BF BD and one
  // byte that a later store writes over (or that lies past the output).
  constexpr std::uint32_t kFffd = 0xEF | 0xBF << 8 | 0xBD << 16;
  std::uint64_t state = dfa::A;
  std::size_t lead = 0;  // output offset of the sequence in progress
  std::size_t o = 0, replacements = 0;
  // SAFETY: o <= 6 * i and lead <= o before byte i; every store is 4 bytes
  // at most 3 past o, below 6 * n + 4 <= kMaxOutput.
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t b = p[i];
    const dfa::action& a = action_of(state, p[i]);
    // A broken sequence's U+FFFD goes over its bytes; otherwise this store
    // lands at o and the byte's own store writes over it.
    const std::size_t t = a.broke ? lead : o;
    store32(out + t, kFffd);
    const std::size_t u = t + a.broke;  // where the byte (or its U+FFFD) goes
    store32(out + u, b);
    store32(out + u + a.kept, kFffd);  // over the byte, or just past it
    lead = a.starts ? u : lead;
    o = t + a.advance;
    replacements += a.count;
    state = next_state(state, p[i]);
  }
  // A sequence still open at the end is not output yet: the next walk
  // starts at its lead, whose bytes were copied one for one.
  const std::size_t open = at_boundary(state) ? 0 : o - lead;
  return {n - open, o - open, replacements};
}

}  // namespace utf8guard::detail::dense

#endif  // UTF8GUARD_SCALAR_DENSE_HPP
