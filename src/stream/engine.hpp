// engine.hpp - the one streaming engine behind validator, sanitizer and
// error_scanner.
//
// A stream carries at most 3 bytes between chunks: the start of a sequence
// that the chunk's end cut short (a valid prefix, never an error yet). In the
// common case one kernel scan settles a chunk: the kernel takes the carried
// bytes as the register before the chunk, and reports an unfinished sequence
// at the chunk's end as open bytes, the next carry (kernels/kernel.hpp,
// scan_open).
// Otherwise the carried sequence is completed or broken on its own, through
// the same Table 3-7 classifier, and the rest of the chunk goes through the
// kernel up to each error. An error is reported as soon as the byte that
// makes it arrives; "incomplete" only at finish().
//
// A Handler has   bool valid(const std::uint8_t* p, std::size_t n)
//                 bool error(const result& absolute)
// and returns false from either to stop the stream (feed then returns false).
// A handler that replaces errors (kReplaces) also has
//                 bool replaced(const char* p, std::size_t n, std::size_t replacements)
// which takes already sanitized bytes from the hostile-input path.
//
// Errors far apart cost one kernel scan each: the kernel runs at vector
// speed up to the next error; subparts right behind an error are settled by
// the classifier without one. When kDenseRun errors in a row (a burst of
// adjacent subparts counting as one) each come within kDenseGap bytes of the
// one before, or a burst runs longer than any broken sequence makes it, the
// engine switches to the branch-free DFA walks of dense.hpp, window by
// window, until a window's errors are on average more than kDenseGap bytes
// apart.
#ifndef UTF8GUARD_STREAM_ENGINE_HPP
#define UTF8GUARD_STREAM_ENGINE_HPP

#include <type_traits>

#include "core/carry.hpp"
#include "core/convert.hpp"
#include "core/dense.hpp"
#include "core/table37.hpp"
#include "kernels/dispatch.hpp"

namespace utf8guard::detail {

// U+FFFD REPLACEMENT CHARACTER, encoded: what every maximal subpart becomes.
inline constexpr char kReplacement[3] = {'\xEF', '\xBF', '\xBD'};

// replacing_handler is the sanitize rule, once for every kind of output: valid
// runs are copied unchanged, each maximal subpart becomes one U+FFFD. Put is
// bool(const char*, std::size_t), false to stop.
template <class Put>
struct replacing_handler {
  static constexpr bool kReplaces = true;
  Put put;
  std::size_t& replacements;
  bool replaced(const char* p, std::size_t n, std::size_t count) {
    replacements += count;
    return n == 0 || put(p, n);
  }
  bool valid(const std::uint8_t* p, std::size_t n) {
    // SAFETY: p[0..n) lies inside the caller's chunk or the engine's carry copy.
    return n == 0 || put(reinterpret_cast<const char*>(p), n);
  }
  bool error(const result&) {
    ++replacements;
    return put(kReplacement, sizeof kReplacement);
  }
};
template <class Put>
replacing_handler(Put, std::size_t&) -> replacing_handler<Put>;

// first_error_handler is the validator's rule: keep the first error and stop
// there; valid runs need no work.
struct first_error_handler {
  static constexpr bool kIgnoresValid = true;
  utf8guard_result& first;
  bool valid(const std::uint8_t*, std::size_t) noexcept { return true; }
  bool error(const result& r) noexcept {
    first = to_c(r);
    return false;
  }
};

// stream_cursor is a streaming object's state, through the three fields the
// C structs of utf8guard.h share. It is one pointer, so the engine's
// out-of-line path takes it in a register rather than as three references
// built on the stack on every feed.
template <class State>
struct stream_cursor {
  State& state;
  std::size_t& position() const noexcept { return state.priv_position; }  // bytes fed so far
  unsigned char* carry() const noexcept { return state.priv_carry; }      // the carry word, 4 bytes
  unsigned char& carry_len() const noexcept { return state.priv_carry_len; }  // 0..3
};

// The carry holds the carried bytes as the prior word that kernels take
// (carry.hpp), byte k of the word in carry[k] (a little-endian host, as
// dfa::kFffd's U+FFFD word assumes too): the sequence is carry[4 - len .. 4),
// and the bytes below it are 0, but for the ASCII hint a kernel may leave in
// carry[0]. It is written and read whole, so no branch depends on how many
// bytes there are, and as one 4-byte store that the next feed's 4-byte load
// can take straight from the store buffer (byte stores, which clang keeps
// when the word is written byte by byte, cannot be forwarded to a word load).
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the carry word's layout");
template <class State>
std::uint32_t carry_word(stream_cursor<State> s) noexcept {
  std::uint32_t word;
  __builtin_memcpy(&word, s.carry(), 4);
  return word;
}
template <class State>
void set_carry(stream_cursor<State> s, std::uint32_t word, std::size_t len) noexcept {
  dense::store32(reinterpret_cast<char*>(s.carry()), word);
  s.carry_len() = static_cast<unsigned char>(len);
}
// carry_bytes makes seq[0..len) (len <= 3, an unfinished sequence) the carry.
template <class State>
void carry_bytes(stream_cursor<State> s, const std::uint8_t* seq, std::size_t len) noexcept {
  set_carry(s, prior_word(seq, len), len);
}
template <class State>
const std::uint8_t* carried(stream_cursor<State> s) noexcept {
  return s.carry() + 4 - s.carry_len();
}
// open_length_of is a kernel's open count, 0..3 by contract; clamped, so
// that carried() stays inside the carry whatever a kernel returns.
inline std::size_t open_length_of(const open_scan& o) noexcept { return o.open < 4 ? o.open : 3; }

// Where a kernel scan per error costs more than walking the DFA: about the
// bytes the DFA walks in the time of one scan's fixed cost (call, setup,
// classification). A run of close errors, not one, switches: a single
// error costs one scan either way.
inline constexpr std::size_t kDenseGap = 32;
inline constexpr unsigned kDenseRun = 4;
// A burst of adjacent subparts longer than one broken sequence gives (six:
// the 6-byte form FC 84 80 80 80 80) is hostile input, which the DFA walks
// without a branch per byte: after kDenseBurst subparts behind the first,
// the engine switches.
inline constexpr unsigned kDenseBurst = 6;
// After an error, a rest shorter than kShortRest goes straight to the
// classifier: setting up a kernel scan costs more than walking a few bytes.
inline constexpr std::size_t kShortRest = 16;

template <class Handler, class = void>
struct replaces : std::false_type {};
template <class Handler>
struct replaces<Handler, std::void_t<decltype(Handler::kReplaces)>>
    : std::bool_constant<Handler::kReplaces> {};

// A handler may declare kIgnoresValid (valid() does nothing): then the
// hostile-input path skips its calls, one unpredictable branch per error.
template <class Handler, class = void>
struct ignores_valid : std::false_type {};
template <class Handler>
struct ignores_valid<Handler, std::void_t<decltype(Handler::kIgnoresValid)>>
    : std::bool_constant<Handler::kIgnoresValid> {};

// A handler may declare kTakesLists (it ignores valid runs, and has
// bool errors(const dense::window_error* list, std::size_t count, std::size_t base)):
// then a DFA window's errors reach it as one list, not one call each.
template <class Handler, class = void>
struct takes_lists : std::false_type {};
template <class Handler>
struct takes_lists<Handler, std::void_t<decltype(Handler::kTakesLists)>>
    : std::bool_constant<Handler::kTakesLists> {};

// dense_window runs one DFA walk over p[0..n) (p is at absolute offset base,
// on a sequence boundary) and hands its result to h: sanitized bytes to a
// replacing handler, else valid runs and errors in order. stop is where the
// walk ended (see dense.hpp), errors how many subparts it met.
template <class Handler>
bool dense_window(const std::uint8_t* p, std::size_t n, std::size_t base, Handler& h,
                  std::size_t& stop, std::size_t& errors) {
  if constexpr (replaces<Handler>::value) {
    char out[dense::kMaxOutput];
    const dense::window_end w = dense::replace_in(p, n, out);
    stop = w.stop;
    errors = w.replacements;
    return h.replaced(out, w.count, w.replacements);
  } else {
    dense::window_error list[dense::kMaxErrors];
    const dense::window_end w = dense::errors_in(p, n, list);
    stop = w.stop;
    errors = w.count;
    if constexpr (takes_lists<Handler>::value) return h.errors(list, w.count, base);
    std::size_t run = 0;  // start of the valid run before the next error
    for (std::size_t k = 0; k < w.count; ++k) {
      const dense::window_error e = list[k];
      if constexpr (!ignores_valid<Handler>::value) {
        if (e.offset() != run && !h.valid(p + run, e.offset() - run)) return false;
        run = e.offset() + e.length();
      }
      if (!h.error(result{e.kind(), base + e.offset(), e.length()})) return false;
    }
    if constexpr (ignores_valid<Handler>::value) return true;
    return run == w.stop || h.valid(p + run, w.stop - run);
  }
}

// rest_handler is how stream_feed hands its handler to the out-of-line path:
// a small one that copies trivially goes by value, in registers, so that the
// feed that owns it keeps no address-taken local (no stack slot, no stack
// protector check on every chunk); any other by reference.
template <class Handler>
using rest_handler =
    std::conditional_t<std::is_trivially_copyable_v<Handler> && sizeof(Handler) <= sizeof(void*),
                       Handler, Handler&>;

// stream_feed_rest is the engine's general path: the carried sequence
// settled on its own, then kernel scans up to each error, or DFA windows
// where errors are dense. Out of line: stream_feed's common case stays small.
// scanned_to is stream_feed's scan result (0 if it ran none): carry and
// p[0..scanned_to) form a valid prefix, so when the carried sequence is
// well-formed the first error search starts there instead of rescanning.
template <class Handler, class State>
__attribute__((noinline)) bool stream_feed_rest(stream_cursor<State> s, const std::uint8_t* p,
                                                std::size_t n, rest_handler<Handler> h,
                                                std::size_t scanned_to) {
  const std::size_t base = s.position();  // absolute offset of p[0]
  s.position() += n;
  std::size_t i = 0;
  if (s.carry_len() != 0) {
    const std::size_t have = s.carry_len();
    const std::uint8_t* held = carried(s);
    const std::size_t need = kLeads.entry[held[0]].size - have;
    const std::size_t take = need < n ? need : n;
    // Byte loops, not memcpy: at most 3 bytes, and a variable-size memcpy is
    // a library call (a checked one under _FORTIFY_SOURCE) on every chunk.
    std::uint8_t seq[4];
    for (std::size_t k = 0; k < have; ++k) seq[k] = held[k];
    // SAFETY: take <= n, so p[0..take) is inside the chunk (none is read when n == 0).
    for (std::size_t k = 0; k < take; ++k) seq[have + k] = p[k];
    const result r = sequence_at(seq, have + take, 0);
    if (r.kind == error::incomplete) {  // the chunk ended first: keep carrying
      carry_bytes(s, seq, have + take);
      return true;
    }
    set_carry(s, 0, 0);
    if (r.ok()) {
      if (!h.valid(seq, have + take)) return false;
      i = take;
    } else {
      // The carried bytes were a valid prefix, so the subpart covers all of them.
      if (!h.error(result{r.kind, base - have, r.length})) return false;
      i = r.length - have;
      scanned_to = 0;  // the scan stopped at this error, not at a later one
    }
  }
  unsigned close_errors = 0;
  while (i < n) {
    if (close_errors >= kDenseRun) {
      const std::size_t len = n - i < dense::kWindow ? n - i : dense::kWindow;
      std::size_t stop = 0, errors = 0;
      if (!dense_window(p + i, len, base + i, h, stop, errors)) return false;
      if (stop < len && i + len == n) {  // the chunk ends inside a sequence (<= 3 bytes)
        carry_bytes(s, p + i + stop, len - stop);
        return true;
      }
      i += stop;
      if (errors * kDenseGap < stop) close_errors = 0;
      continue;
    }
    std::size_t pos = 0;   // p[i..i + pos) is a valid prefix; an error follows
    if (scanned_to > i) {  // stream_feed's scan already found one past i
      pos = scanned_to - i;
      scanned_to = 0;
    } else if (n - i >= kShortRest) {
      // A chunk that ends inside a sequence is the common case here, so the
      // kernel reports those bytes as open instead of as an error.
      const open_scan scanned = scan_open_active(p + i, n - i, 0);
      if (scanned.pos == n - i) {
        const std::size_t keep = open_length_of(scanned);
        const std::size_t closed = n - i - keep;
        if (closed != 0 && !h.valid(p + i, closed)) return false;
        set_carry(s, scanned.tail, keep);
        return true;
      }
      pos = scanned.pos;
    }
    const result r = first_error_from(p + i, n - i, boundary_before(p + i, 0, pos));
    if (r.ok()) return h.valid(p + i, n - i);  // only a short rest gets here
    if (r.offset != 0 && !h.valid(p + i, r.offset)) return false;
    if (r.kind == error::incomplete) {  // at most 3 bytes, at the very end
      carry_bytes(s, p + i + r.offset, r.length);
      return true;
    }
    if (!h.error(result{r.kind, base + i + r.offset, r.length})) return false;
    i += r.offset + r.length;
    close_errors = r.offset < kDenseGap ? close_errors + 1 : 0;
    // A broken sequence often leaves more subparts right behind it (C0 AF
    // is two, ED A0 80 three, F4 90 80 80 four). The classifier settles them
    // before a kernel scan is set up, and such a burst counts as one error
    // towards kDenseRun: counted one by one, a single F4 90 80 80 would send
    // the engine to a DFA window, costly on text with rare errors.
    for (unsigned burst = 1; i < n; ++burst) {
      const result next = sequence_at(p + i, n - i, 0);
      if (next.ok() || next.kind == error::incomplete) break;
      if (!h.error(result{next.kind, base + i, next.length})) return false;
      i += next.length;
      if (burst >= kDenseBurst) {
        close_errors = kDenseRun;
        break;
      }
    }
  }
  return true;
}

// stream_feed runs one chunk through the engine. The common case is one
// kernel scan: the chunk completes the carried sequence (the kernel takes
// the carried bytes as the register before the chunk), is well-formed, and
// may end inside a sequence, whose bytes (the kernel's tail word) become
// the new carry. No branch there depends on where the chunk ends.
template <class Handler, class State>
bool stream_feed(stream_cursor<State> s, const std::uint8_t* p, std::size_t n, Handler& h) {
  std::size_t scanned_to = 0;
  // One test of both conditions (| rather than ||): whether the last chunk
  // left bytes over is a coin toss on non-ASCII text, and whether a short
  // chunk is under 3 bytes one on short strings, while both together are
  // nearly always true.
  if (static_cast<int>(n >= 3) | static_cast<int>(s.carry_len() == 0)) {
    const open_scan scanned = scan_open_active(p, n, carry_word(s));
    scanned_to = scanned.pos;
    if (__builtin_expect(scanned.pos == n, 1)) {
      s.position() += n;
      if (s.carry_len() != 0 && !h.valid(carried(s), s.carry_len())) return false;
      const std::size_t keep = open_length_of(scanned);
      if (n != keep && !h.valid(p, n - keep)) return false;
      set_carry(s, scanned.tail, keep);
      return true;
    }
  }
  return stream_feed_rest<Handler>(s, p, n, h, scanned_to);
}

template <class Handler, class State>
bool stream_finish(stream_cursor<State> s, Handler& h) {
  if (s.carry_len() == 0) return true;
  const std::size_t len = s.carry_len();
  set_carry(s, 0, 0);
  return h.error(result{error::incomplete, s.position() - len, len});
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_ENGINE_HPP
