// objects.hpp - the streaming objects (validator, sanitizer, error_scanner,
// and the validator and scanner of each encoded form, encoded_objects.hpp):
// one life, written once as stream_life<Kind>, on the state that the C structs of
// utf8guard.h hold and the C++ classes wrap (utf8guard.h, "Streaming
// objects"): start, reset, feed, finish, counts; caller bugs fail closed
// here, once for both APIs. A Kind names its C struct and what sets it
// apart. The functions answer in C++ types (result, bool); api/ builds the C
// API's answers from them (core/convert.hpp). Every kind runs the one engine
// of engine.hpp.
#ifndef UTF8GUARD_STREAM_OBJECTS_HPP
#define UTF8GUARD_STREAM_OBJECTS_HPP

#include <cstddef>
#include <cstdint>
#include <new>
#include <string_view>

#include "core/convert.hpp"
#include "stream/engine.hpp"
#include "stream/policy_filter.hpp"

namespace utf8guard::detail {

template <class State>
stream_cursor<State> cursor(State& s) noexcept {
  return {s};
}

// A streaming object's life, in the priv_state field that start() sets. The
// words are distinct and non-zero, so that a zero-filled object, or one
// holding anything start() did not write, is "never initialised": refused,
// and never written to.
enum life : std::uint32_t {
  kOpen = 0x4f50454e,      // taking chunks
  kFinished = 0x46494e44,  // finish succeeded; a finish may run again (nothing is left)
  kStopped = 0x53544f50,   // an error (validator), or a sink or callback said stop
  kMisused = 0x52454655,   // a caller bug failed it
};

inline bool initialised(std::uint32_t state) noexcept {
  return state == kOpen || state == kFinished || state == kStopped || state == kMisused;
}

// stream_life is the life of every streaming object. Kind provides
//   state                 the C struct (priv_position, priv_policy, priv_state)
//   kVerdict              true for a validator: it answers with the first
//                         error it keeps (verdict), and counts the bytes of a
//                         refused chunk in bytes_fed; false for the objects
//                         that report to a sink or callback and answer
//                         whether they went on
//   owns(s)               whether the struct was started as this kind (the
//                         two kinds of an encoded form share one struct)
//   started(s)            what a new stream sets beyond the common fields
// and, with kVerdict, verdict(s) (the kept error) and refuse(s) (keep the
// refusal of a caller bug, at the stream's position).
template <class Kind>
struct stream_life {
  using state = typename Kind::state;

  // start makes s a new stream: nothing fed, nothing carried, no error, and
  // the characters of policy denied (none by default).
  static void start(state& s, utf8guard_policy policy = 0) noexcept {
    s = state{};
    s.priv_policy = policy;
    s.priv_state = kOpen;
    Kind::started(s);
  }

  // reset starts a new input under the same policy, at any time.
  static void reset(state& s) noexcept { start(s, s.priv_policy); }

  static bool owns(const state* s) noexcept {
    return s != nullptr && initialised(s->priv_state) && Kind::owns(*s);
  }

  // feed runs step(state&), the engine over one chunk (false: it stopped),
  // on an open object, or settles a call that does not run. true: the call
  // went on (or had nothing to do). Inlined, with the step, into each entry
  // point: with small chunks every call layer shows in the throughput.
  template <class Step>
  __attribute__((always_inline)) static bool feed(state* s, std::string_view chunk,
                                                  bool has_callback, Step&& step) {
    if (!runs(s, chunk.data() != nullptr, has_callback)) {
      return settled(s, chunk.size(), bad_span(chunk) || !has_callback, false);
    }
    return settle(*s, step(*s), false);
  }

  // finish runs step(state&), the end of the input, as feed does.
  template <class Step>
  __attribute__((always_inline)) static bool finish(state* s, bool has_callback, Step&& step) {
    if (!runs(s, true, has_callback)) return settled(s, 0, !has_callback, true);
    return settle(*s, step(*s), true);
  }

  // stopped says why a call returned false: a stop (a sink, a callback, or
  // the validator's error) rather than a caller bug.
  static bool stopped(const state* s) noexcept { return owns(s) && s->priv_state == kStopped; }

  // count reads a count of an object: SIZE_MAX, never 0 (which reads as a
  // clean input), when the object cannot be read.
  static std::size_t count(const state* s, std::size_t state::*field) noexcept {
    return owns(s) ? s->*field : SIZE_MAX;
  }

  // verdict is a validator's answer after a call, given whether it went on.
  static auto verdict(const state* s, bool went_on) noexcept {
    return went_on || owns(s) ? Kind::verdict(*s) : Kind::refused();
  }

 private:
  // runs is the common case: an object that is open, a chunk pointer (a
  // finish has none to miss) and a callback. Anything else takes settled().
  // For a C++ object, whose address is never null, the first test folds away.
  static bool runs(const state* s, bool has_chunk, bool has_callback) noexcept {
    return __builtin_expect(
        s != nullptr && s->priv_state == kOpen && has_chunk && has_callback && Kind::owns(*s), 1);
  }

  // settle records how a call that ran ended.
  static bool settle(state& s, bool continued, bool finishing) noexcept {
    if (!continued) {
      s.priv_state = kStopped;
      return false;
    }
    if (finishing) s.priv_state = kFinished;
    return true;
  }

  // settled answers a call that runs() turned away; bad_args says whether
  // its arguments hold a caller bug. A first failure stands; a caller bug on
  // an open or finished object becomes its failure. An empty chunk on an
  // open object, and a second finish, have nothing to do.
  __attribute__((noinline, cold)) static bool settled(state* s, std::size_t n, bool bad_args,
                                                      bool finishing) noexcept {
    if (!owns(s)) return false;  // never initialised: not written
    const std::uint32_t life = s->priv_state;
    const bool working = life == kOpen || life == kFinished;  // else stopped or misused: it stands
    const bool went_on = !bad_args && (life == kOpen || (life == kFinished && finishing));
    if (working && !went_on) {
      if constexpr (Kind::kVerdict) Kind::refuse(*s);
      s->priv_state = kMisused;
    }
    if constexpr (Kind::kVerdict) s->priv_position += n;  // keep bytes_fed() honest
    return went_on;
  }
};

// feed_with_policy is engine_feed through a policy_filter, out of line: the filter
// holds the handler's address, and a feed that takes a local's address gets
// a stack-protector check on every chunk, without a policy too.
// (The handler goes as stream_feed_rest's does: see rest_handler.)
template <class Handler, class State>
__attribute__((noinline)) bool feed_with_policy(State& s, std::string_view chunk,
                                                rest_handler<Handler> h) {
  policy_filter<Handler> f(h, s.priv_policy, s.priv_position - s.priv_carry_len);
  return stream_feed(cursor(s), bytes(chunk.data()), chunk.size(), f);
}

// engine_feed runs one chunk through the engine, and through a policy_filter
// when the stream has a policy (stream/policy_filter.hpp); finish needs
// none: it only reports an unfinished sequence.
template <class State, class Handler>
bool engine_feed(State& s, std::string_view chunk, Handler& h) {
  if (__builtin_expect(s.priv_policy == 0, 1)) {
    return stream_feed(cursor(s), bytes(chunk.data()), chunk.size(), h);
  }
  return feed_with_policy<Handler>(s, chunk, h);
}

// The plain kinds: one C struct each, nothing beyond the common fields.
template <class State>
struct plain_kind {
  using state = State;
  static bool owns(const State&) noexcept { return true; }
  static void started(State&) noexcept {}
};

struct validator_kind : plain_kind<utf8guard_validator> {
  static constexpr bool kVerdict = true;
  static result verdict(const state& v) noexcept { return from_c(v.priv_error); }
  static result refused() noexcept { return kRefused; }
  static void refuse(state& v) noexcept {
    v.priv_error = kRefusedC;
    v.priv_error.offset = v.priv_position;
  }
};
struct sanitizer_kind : plain_kind<utf8guard_sanitizer> {
  static constexpr bool kVerdict = false;
};
struct scanner_kind : plain_kind<utf8guard_error_scanner> {
  static constexpr bool kVerdict = false;
};

using validator_life = stream_life<validator_kind>;
using sanitizer_life = stream_life<sanitizer_kind>;
using scanner_life = stream_life<scanner_kind>;

// validator_feed is inlined into both entry points: with small chunks,
// every call layer shows in the throughput.
__attribute__((always_inline)) inline result validator_feed(utf8guard_validator* v,
                                                            std::string_view chunk) {
  const bool went_on = validator_life::feed(v, chunk, true, [&](utf8guard_validator& s) {
    first_error_handler h{s.priv_error};
    return engine_feed(s, chunk, h);
  });
  return validator_life::verdict(v, went_on);
}

// validator_finish answers a second finish, and every call after an error,
// with the answer it holds.
inline result validator_finish(utf8guard_validator* v) {
  const bool went_on = validator_life::finish(v, true, [](utf8guard_validator& s) {
    first_error_handler h{s.priv_error};
    return stream_finish(cursor(s), h);
  });
  return validator_life::verdict(v, went_on);
}

// Sanitized output goes to the caller's sink.
inline auto sink_handler(sink_fn sink, void* ctx, std::size_t& replacements) {
  return replacing_handler{[sink, ctx](const char* p, std::size_t n) { return sink(ctx, p, n); },
                           replacements};
}

inline bool sanitizer_feed(utf8guard_sanitizer* s, std::string_view chunk, sink_fn sink,
                           void* ctx) {
  return sanitizer_life::feed(s, chunk, sink != nullptr, [&](utf8guard_sanitizer& st) {
    auto h = sink_handler(sink, ctx, st.priv_replacements);
    return engine_feed(st, chunk, h);
  });
}

inline bool sanitizer_finish(utf8guard_sanitizer* s, sink_fn sink, void* ctx) {
  return sanitizer_life::finish(s, sink != nullptr, [&](utf8guard_sanitizer& st) {
    auto h = sink_handler(sink, ctx, st.priv_replacements);
    return stream_finish(cursor(st), h);
  });
}

// Collects errors and hands them to `deliver` in batches: on hostile input
// an error comes every other byte, and one opaque call per batch instead of
// per error keeps the scan at DFA speed. deliver returns the number of errors
// it was given, or the index of the one for which its callback said stop.
struct batch_handler {
  static constexpr bool kIgnoresValid = true;
  static constexpr bool kTakesLists = true;
  // Room for the errors of a whole DFA window, so that it needs one flush.
  static constexpr std::size_t kBatch = dense::kMaxErrors;
  batch_handler(batch_fn d, void* c) noexcept : deliver(d), ctx(c) {}
  batch_fn deliver;
  void* ctx;
  std::size_t delivered = 0;
  std::size_t pending = 0;
  // The batch, written before read: raw storage, since an array of result
  // would clear its kBatch entries (their default member initializers) on
  // every feed.
  union slots {
    slots() noexcept {}
    result entry[kBatch];
  } batch;
  bool valid(const std::uint8_t*, std::size_t) noexcept { return true; }
  bool error(const result& r) {
    new (&batch.entry[pending++]) result(r);
    return pending < kBatch || flush();
  }
  // A DFA window's list, converted in one loop (offsets relative to base).
  bool errors(const dense::window_error* list, std::size_t count, std::size_t base) {
    if (count > kBatch - pending && !flush()) return false;
    for (std::size_t k = 0; k < count; ++k) {
      new (&batch.entry[pending + k]) result{static_cast<utf8guard::error>(list[k].kind()),
                                             base + list[k].offset(), list[k].length()};
    }
    pending += count;
    return pending < kBatch || flush();
  }
  bool flush() {
    if (pending == 0) return true;
    const std::size_t stopped_at = deliver(ctx, batch.entry, pending);
    const bool go_on = stopped_at == pending;
    delivered += go_on ? pending : stopped_at + 1;  // the stopping one was reported
    pending = 0;
    return go_on;
  }
};

// scan runs `step` (a feed or a finish) with a batch_handler and counts what
// the callback was given. A null deliver is a missing callback.
template <class Step>
bool scan(utf8guard_error_scanner& s, batch_fn deliver, void* ctx, Step step) {
  batch_handler h(deliver, ctx);
  const bool continued = step(h) && h.flush();
  s.priv_errors += h.delivered;
  return continued;
}

inline bool scanner_feed(utf8guard_error_scanner* s, std::string_view chunk, batch_fn deliver,
                         void* ctx) {
  return scanner_life::feed(s, chunk, deliver != nullptr, [&](utf8guard_error_scanner& st) {
    return scan(st, deliver, ctx, [&](batch_handler& h) { return engine_feed(st, chunk, h); });
  });
}

inline bool scanner_finish(utf8guard_error_scanner* s, batch_fn deliver, void* ctx) {
  return scanner_life::finish(s, deliver != nullptr, [&](utf8guard_error_scanner& st) {
    return scan(st, deliver, ctx, [&](batch_handler& h) { return stream_finish(cursor(st), h); });
  });
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_OBJECTS_HPP
