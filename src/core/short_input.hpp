// short_input.hpp - short inputs read as words, with no read outside them and
// no store to memory: the last m < 8 bytes of an input (a tail built through
// a stack buffer costs a failed store-to-load forward on every short input),
// the test that settles a short input of ASCII, and the scan of a short
// input by the scalar kernel's DFA, a word at a time.
#ifndef UTF8GUARD_KERNELS_SHORT_INPUT_HPP
#define UTF8GUARD_KERNELS_SHORT_INPUT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/dfa.hpp"
#include "core/scan.hpp"

namespace utf8guard::detail {

// load_1_to_8 returns q[0..m) (1 <= m <= 8) as a little-endian word, zero
// above, with no branch on m: the lengths of short inputs are random, and a
// branch on them mispredicts on a good share of calls. Both ways of reading
// are made and one is chosen by a mask (compilers turn a ?: back into a
// branch); the 4-byte reads read kZeros when m < 4.
inline constexpr std::uint8_t kZeros[4] = {};
// The mask of load_1_to_8's choice: all ones when m >= 4.
inline std::uint64_t wide_mask(std::size_t m) noexcept { return 0 - std::uint64_t{m >= 4}; }
// words_at is where read_1_to_8 reads, and store_1_to_8 writes, the two
// 4-byte words, the first at at[0] and the second at at[m - 4]: q and m when
// m >= 4, else other (4 bytes of the caller's) and 4, so both at other[0].
template <class T>
struct words_at {
  T* at;
  std::size_t m;
};
template <class T>
inline words_at<T> place_words(T* q, std::size_t m, T* other) noexcept {
  const std::uint64_t wide = wide_mask(m);
  return {reinterpret_cast<T*>((reinterpret_cast<std::uintptr_t>(q) & wide) |
                               (reinterpret_cast<std::uintptr_t>(other) & ~wide)),
          (m & wide) | (4 & ~wide)};
}
// The reads of load_1_to_8: the first and the last four bytes of q[0..m)
// when m >= 4 (they overlap when m < 8), else of kZeros, with the shift that
// puts the second in place; and the first, middle and last byte, which cover
// q[0..m) when m = 1, 2 or 3.
struct reads_1_to_8 {
  std::uint32_t a, b;
  std::size_t shift;
  std::uint64_t first, middle, last;
};
inline reads_1_to_8 read_1_to_8(const std::uint8_t* q, std::size_t m) noexcept {
  const words_at<const std::uint8_t> w = place_words(q, m, kZeros);
  // SAFETY: both word reads are of bytes inside q[0..m) when m >= 4, else of
  // kZeros; q[0], q[m / 2] and q[m - 1] lie in q[0..m) for every m >= 1.
  reads_1_to_8 r;
  std::memcpy(&r.a, w.at, 4);
  std::memcpy(&r.b, w.at + w.m - 4, 4);
  r.shift = 8 * (w.m - 4);
  r.first = q[0];
  r.middle = q[m / 2];
  r.last = q[m - 1];
  return r;
}
// word_of puts the reads of q[0..m) in place: load_1_to_8's word.
inline std::uint64_t word_of(const reads_1_to_8& r, std::size_t m) noexcept {
  const std::uint64_t four = std::uint64_t{r.a} | std::uint64_t{r.b} << r.shift;
  const std::uint64_t three = r.first | r.middle << (8 * (m / 2)) | r.last << (8 * (m - 1));
  const std::uint64_t wide = wide_mask(m);
  return (four & wide) | (three & ~wide);
}
inline std::uint64_t load_1_to_8(const std::uint8_t* q, std::size_t m) noexcept {
  return word_of(read_1_to_8(q, m), m);
}

// is_ascii_1_to_8 says whether q[0..m) (1 <= m <= 8) is ASCII: load_1_to_8's
// reads, ORed without putting them in place (which the test does not need).
inline bool is_ascii_1_to_8(const reads_1_to_8& r) noexcept {
  return ((r.a | r.b | r.first | r.middle | r.last) & 0x80808080U) == 0;
}
inline bool is_ascii_1_to_8(const std::uint8_t* q, std::size_t m) noexcept {
  return is_ascii_1_to_8(read_1_to_8(q, m));
}

// load_up_to_8 returns q[0..m) (m <= 8) as a little-endian word, zero above.
inline std::uint64_t load_up_to_8(const std::uint8_t* q, std::size_t m) noexcept {
  return m == 0 ? 0 : load_1_to_8(q, m);
}

// store_1_to_8 writes q[0..m) (1 <= m <= 8) from the reads of its bytes that
// read_1_to_8 made, with no branch on m: the two words, to q when m >= 4,
// else to sink (4 bytes the caller owns), and the three bytes, which cover
// q[0..m) when the words went to the sink. A branch on m >= 4 mispredicts on
// random short lengths.
inline void store_1_to_8(char* q, std::size_t m, const reads_1_to_8& r, char* sink) noexcept {
  const words_at<char> words = place_words(q, m, sink);
  // SAFETY: the words lie in q[0..m) when m >= 4, else both at sink[0..4);
  // the bytes in q[0..m).
  std::memcpy(words.at, &r.a, 4);
  std::memcpy(words.at + words.m - 4, &r.b, 4);
  q[0] = static_cast<char>(r.first);
  q[m / 2] = static_cast<char>(r.middle);
  q[m - 1] = static_cast<char>(r.last);
}

// load_word reads the 8 bytes at q (SAFETY: the caller checked they are inside).
inline std::uint64_t load_word(const std::uint8_t* q) noexcept {
  std::uint64_t w;
  std::memcpy(&w, q, 8);
  return w;
}

// quiet_ascii_words is the pass over quiet ASCII of a policy
// (generic/policy_prefilter.hpp's quiet_ascii) for a short input, a word at a
// time: it returns n when every byte of q[0..n) lies in [lo, hi] (ASCII, with
// lo <= 0x20 <= hi) and is not stop (a printable byte, or 0: none), else the
// start of a word that holds one that is. A word holds a byte below lo when
// subtracting lo from every byte borrows into a byte whose top bit was
// clear, a byte above hi when adding 0x7F - hi carries into a top bit or one
// was set, and the stop byte when the word xor stops holds a zero byte:
// subtracting 1 from every byte borrows into one whose top bit was clear
// (exact tests of whether any byte does, whatever the carries between
// bytes).
inline std::size_t quiet_ascii_words(const std::uint8_t* q, std::size_t n, std::uint8_t lo,
                                     std::uint8_t hi, std::uint8_t stop = 0) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101U, kTops = 0x8080808080808080U;
  const std::uint64_t below = kOnes * lo, above = kOnes * static_cast<std::uint8_t>(0x7F - hi);
  const std::uint64_t stops = kOnes * stop;
  const auto outside = [below, above, stop, stops](std::uint64_t w) {
    const std::uint64_t x = w ^ stops;
    const std::uint64_t stopped = stop != 0 ? (x - kOnes) & ~x : 0;
    return (((w - below) & ~w) | (w + above) | w | stopped) & kTops;
  };
  if (n < 8) {
    if (n == 0) return 0;
    // The bytes above q[n) are made spaces, which every range holds.
    const std::uint64_t w = load_1_to_8(q, n) | (kOnes * 0x20) << (8 * n);
    return outside(w) != 0 ? 0 : n;
  }
  std::size_t i = 0;
  // SAFETY: a word is read at i only when i + 8 < n, and the last at n - 8.
  for (; n - i > 8; i += 8) {
    if (outside(load_word(q + i)) != 0) return i;
  }
  return outside(load_word(q + n - 8)) != 0 ? i : n;
}

// is_short_ascii says whether q[0..m) is a short input of ASCII: at most
// kShortAscii bytes, read as two or four words that overlap, or one partial
// word. Every kernel settles such an input (a header line, a key, a token)
// with it before any setup of its own, and one-shot sanitize copies it.
inline constexpr std::size_t kShortAscii = 32;
inline bool is_short_ascii(const std::uint8_t* q, std::size_t m) noexcept {
  if (m > kShortAscii) return false;
  std::uint64_t w;
  // SAFETY: every word read lies in q[0..m): those at 8 and m - 16 only when
  // m > 16, the others when m >= 8.
  if (m > 16) {
    w = load_word(q) | load_word(q + 8) | load_word(q + m - 16) | load_word(q + m - 8);
  } else if (m >= 8) {
    w = load_word(q) | load_word(q + m - 8);
  } else {
    w = load_up_to_8(q, m);
  }
  return (w & 0x8080808080808080ULL) == 0;
}

// dfa_word runs the yes/no DFA of core/dfa.hpp (the scalar kernel's) over
// the 8 bytes of w, low byte first: eight steps with no branch, each one
// shift on the state's chain; the rows' loads do not wait for the state.
inline std::uint64_t dfa_word(std::uint64_t state, std::uint64_t w) noexcept {
  for (int k = 0; k < 8; ++k, w >>= 8) state = dfa::kTables.valid[w & 0xFF] >> (state & 63);
  return state;
}

// short_scan is a kernel's scan (kernels/kernel.hpp) for a short input: the
// DFA over whole words, the last one read by load_1_to_8 and padded with
// zero bytes. A zero is ASCII: it keeps a boundary a boundary and breaks an
// unfinished sequence, so the padded word ends at the boundary state exactly
// when the input is well-formed, and no step depends on where the input ends
// (a branch a short input of random length would mispredict). A word of
// ASCII at a boundary is skipped: on a text, words are steadily ASCII or
// steadily not. On an error it returns the start of the word where the DFA
// failed: the bytes before it are a valid prefix, and the error starts at
// most 3 bytes before it.
inline std::size_t short_scan(const std::uint8_t* p, std::size_t n) noexcept {
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  if (n == 0) return 0;
  std::uint64_t state = dfa::kValidAccept;
  std::size_t i = 0;
  // SAFETY: every word read lies in p[0..n): whole words while more than 8
  // bytes are left, then load_1_to_8 for the last 1..8.
  for (; n - i > 8; i += 8) {
    const std::uint64_t w = load_word(p + i);
    if ((w & kHigh) == 0 && (state & 63) == dfa::kValidAccept) continue;
    const std::uint64_t next = dfa_word(state, w);
    if ((next & 63) == dfa::kValidError) return i;
    state = next;
  }
  if ((state & 63) == dfa::kValidAccept && is_ascii_1_to_8(p + i, n - i)) return n;
  state = dfa_word(state, load_1_to_8(p + i, n - i));
  return (state & 63) == dfa::kValidAccept ? n : i;
}

// copy_short copies n <= kShortCopy bytes, none or at least 8 (checked_copy
// stores fewer as one word), with no loop whose exit a random length would
// mispredict: up to 32 bytes as words, from the start and from the end,
// overlapping in the middle, all loaded before any is stored, and longer
// inputs by memcpy. Its edges are those of the short strings' size classes
// (16 and 32 bytes are two and four words), so that each class takes one
// branch. Words in variables, not blocks in arrays: a local array gives
// every call a stack-protector check.
inline void store_word(char* q, std::uint64_t w) noexcept { std::memcpy(q, &w, 8); }
inline void copy_short(char* out, const std::uint8_t* in, std::size_t n) noexcept {
  // SAFETY: each word read or written lies in in[0..n) or out[0..n): none
  // when n == 0, else n >= 8.
  if (n > 32) {
    std::memcpy(out, in, n);
  } else if (n > 16) {
    const std::uint64_t a = load_word(in), b = load_word(in + 8);
    const std::uint64_t c = load_word(in + n - 16), d = load_word(in + n - 8);
    store_word(out, a);
    store_word(out + 8, b);
    store_word(out + n - 16, c);
    store_word(out + n - 8, d);
  } else if (n != 0) {
    const std::uint64_t a = load_word(in), d = load_word(in + n - 8);
    store_word(out, a);
    store_word(out + n - 8, d);
  }
}

// checked_copy is the short_copy (kernels/kernel.hpp) of a kernel without
// masked stores, from its valid. Up to one word, the word is checked by the
// DFA (as short_scan does) and stored by store_1_to_8; up to 32 bytes of
// ASCII are copied as the words that tested them; longer inputs are checked
// by Valid and copied by copy_short. An ill-formed input goes on to the
// caller's rest by a jump. Each step is a function of its own, reached by a jump,
// so that the ones before it need no frame (g++ gives a function one at its
// entry, for all its paths). The AVX-512 kernels store from the registers
// that checked instead (utf8_lookup.hpp).
template <valid_fn Valid>
__attribute__((noinline)) std::size_t checked_copy_long(const std::uint8_t* p, std::size_t n,
                                                        char* out, std::size_t capacity,
                                                        sanitize_rest_fn rest) noexcept {
  if (!Valid(p, n)) return rest(p, n, out, capacity);
  copy_short(out, p, n);
  return n;
}
template <valid_fn Valid>
__attribute__((noinline)) std::size_t checked_copy_words(const std::uint8_t* p, std::size_t n,
                                                         char* out, std::size_t capacity,
                                                         sanitize_rest_fn rest) noexcept {
  if (!is_short_ascii(p, n)) return checked_copy_long<Valid>(p, n, out, capacity, rest);
  copy_short(out, p, n);
  return n;
}
// checked_copy_word is checked_copy for 1..8 bytes: the reads of one word,
// tested for ASCII, else put in place and checked by the DFA (as short_scan
// does: zero bytes pad it, which end a well-formed input at the boundary
// state and break one that ends inside a sequence), and stored back from the
// same reads by store_1_to_8. Out of line: only this path needs
// store_1_to_8's sink on the stack. No stack protector: the sink is its only
// local, and place_words aims both words at its first byte whenever it picks
// it (m < 4), so no write can leave it, and the canary's store and check
// would run on every call of 1..8 bytes.
__attribute__((noinline, no_stack_protector)) inline std::size_t checked_copy_word(
    const std::uint8_t* p, std::size_t n, char* out, std::size_t capacity,
    sanitize_rest_fn rest) noexcept {
  const reads_1_to_8 r = read_1_to_8(p, n);
  if (!is_ascii_1_to_8(r) &&
      (dfa_word(dfa::kValidAccept, word_of(r, n)) & 63) != dfa::kValidAccept) {
    return rest(p, n, out, capacity);
  }
  char sink[4];
  store_1_to_8(out, n, r, sink);
  return n;
}
template <valid_fn Valid>
std::size_t checked_copy(const std::uint8_t* p, std::size_t n, char* out, std::size_t capacity,
                         sanitize_rest_fn rest) noexcept {
  static_assert(kShortDfa == 8, "one word");
  if (n - 1 >= kShortDfa) return checked_copy_words<Valid>(p, n, out, capacity, rest);
  return checked_copy_word(p, n, out, capacity, rest);
}

// The public entry points (api/) settle inputs of at most one word with
// short_scan rather than call a kernel whose short_dfa (kernels/kernel.hpp)
// says so: there a vector kernel's setup costs more than the DFA's steps,
// while from the second word on it is faster (and the AVX-512 kernels' masked
// short path from the first). The scalar kernel uses short_scan up to
// kShortScalar bytes, where its blocks of 16 would mostly be tails.
inline constexpr std::size_t kShortScalar = 128;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_KERNELS_SHORT_INPUT_HPP
