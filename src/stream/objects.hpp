// objects.hpp - the streaming objects (validator, sanitizer, error_scanner):
// what each does with the engine's valid runs and errors, on the state that
// the C structs of utf8guard.h hold and the C++ classes wrap, and their life
// (utf8guard.h, "Streaming objects"): caller bugs fail closed here, once for
// both APIs. All three run the one engine in engine.hpp. Included by
// api/stream.cpp, whose C++ and C entry points both call these functions.
#ifndef UTF8GUARD_STREAM_OBJECTS_HPP
#define UTF8GUARD_STREAM_OBJECTS_HPP

#include <cstddef>
#include <cstdint>
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

// start makes s a new stream: nothing fed, nothing carried, no error, and
// the characters of policy denied (none by default).
template <class State>
void start(State& s, utf8guard_policy policy = 0) noexcept {
  s = State{};
  s.priv_policy = policy;
  s.priv_state = kOpen;
}

// feed_with_policy is feed through a policy_filter, out of line: the filter
// holds the handler's address, and a feed that takes a local's address gets
// a stack-protector check on every chunk, without a policy too.
// (The handler goes as stream_feed_rest's does: see rest_handler.)
template <class Handler, class State>
__attribute__((noinline)) bool feed_with_policy(State& s, std::string_view chunk,
                                                rest_handler<Handler> h) {
  policy_filter<Handler> f(h, s.priv_policy, s.priv_position - s.priv_carry_len);
  return stream_feed(cursor(s), bytes(chunk.data()), chunk.size(), f);
}

// feed runs one chunk through the engine, and through a policy_filter when
// the stream has a policy (stream/policy_filter.hpp); finish needs none: it
// only reports an unfinished sequence.
template <class State, class Handler>
bool feed(State& s, std::string_view chunk, Handler& h) {
  if (__builtin_expect(s.priv_policy == 0, 1)) {
    return stream_feed(cursor(s), bytes(chunk.data()), chunk.size(), h);
  }
  return feed_with_policy<Handler>(s, chunk, h);
}

// runs is the sanitizer's and scanner's common case: an object that is open,
// a chunk pointer (a finish has none to miss) and a callback. Anything else
// takes settled(). For a C++ object, whose address is never null, the first
// test folds away.
template <class State>
bool runs(const State* s, bool has_chunk, bool has_callback) noexcept {
  return __builtin_expect(s != nullptr && s->priv_state == kOpen && has_chunk && has_callback, 1);
}

// settled is the sanitizer's and scanner's answer to a call that runs()
// turned away; bad_args says whether its arguments hold a caller bug. A first
// failure stands; a caller bug on an open or finished object becomes its
// failure. An empty chunk on an open object, and a second finish, have
// nothing to do.
template <class State>
__attribute__((noinline, cold)) utf8guard_status settled(State* s, bool bad_args,
                                                         bool finishing) noexcept {
  if (s == nullptr) return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  switch (s->priv_state) {
    case kStopped: return UTF8GUARD_STATUS_SINK_FAILED;
    case kMisused: return UTF8GUARD_STATUS_INVALID_ARGUMENT;
    case kOpen:
      if (!bad_args) return UTF8GUARD_STATUS_OK;  // (nullptr, 0): the empty chunk
      break;
    case kFinished:
      if (finishing && !bad_args) return UTF8GUARD_STATUS_OK;
      break;
    default: return UTF8GUARD_STATUS_INVALID_ARGUMENT;  // never initialised: not written
  }
  s->priv_state = kMisused;
  return UTF8GUARD_STATUS_INVALID_ARGUMENT;
}

// settle records how a call that ran ended, and returns its status.
template <class State>
utf8guard_status settle(State* s, bool continued, bool finishing) noexcept {
  if (!continued) {
    s->priv_state = kStopped;
    return UTF8GUARD_STATUS_SINK_FAILED;
  }
  if (finishing) s->priv_state = kFinished;
  return UTF8GUARD_STATUS_OK;
}

// count_of reads a count of a C object: SIZE_MAX, never 0 (which reads as a
// clean input), when the object cannot be read.
template <class State>
std::size_t count_of(const State* s, std::size_t State::*count) noexcept {
  return s != nullptr && initialised(s->priv_state) ? s->*count : SIZE_MAX;
}

// Sanitized output goes to the caller's sink.
inline auto sink_handler(utf8guard_sink sink, void* ctx, std::size_t& replacements) {
  return replacing_handler{[sink, ctx](const char* p, std::size_t n) { return sink(ctx, p, n); },
                           replacements};
}

// Collects errors and hands them to `deliver` in batches: on hostile input
// an error comes every other byte, and one opaque call per batch instead of
// per error keeps the scan at DFA speed. deliver returns the number of errors
// it was given, or the index of the one for which its callback said stop.
using batch_fn = std::size_t (*)(void* ctx, const utf8guard_result* errors, std::size_t count);

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
  utf8guard_result batch[kBatch];  // written before read: no initialization
  bool valid(const std::uint8_t*, std::size_t) noexcept { return true; }
  bool error(const result& r) {
    batch[pending++] = to_c(r);
    return pending < kBatch || flush();
  }
  // A DFA window's list, converted in one loop (offsets relative to base).
  bool errors(const dense::window_error* list, std::size_t count, std::size_t base) {
    if (count > kBatch - pending && !flush()) return false;
    for (std::size_t k = 0; k < count; ++k) {
      batch[pending + k] = {static_cast<utf8guard_error>(list[k].kind()), base + list[k].offset(),
                            list[k].length(), UTF8GUARD_CATEGORY_NONE, 0};
    }
    pending += count;
    return pending < kBatch || flush();
  }
  bool flush() {
    if (pending == 0) return true;
    const std::size_t stopped_at = deliver(ctx, batch, pending);
    const bool go_on = stopped_at == pending;
    delivered += go_on ? pending : stopped_at + 1;  // the stopping one was reported
    pending = 0;
    return go_on;
  }
};

// scan runs `step` (a feed or a finish) with a batch_handler and counts what
// the callback was given.
template <class Step>
utf8guard_status scan(utf8guard_error_scanner* s, batch_fn deliver, void* ctx, bool finishing,
                      Step step) {
  batch_handler h(deliver, ctx);
  const bool continued = step(h) && h.flush();
  s->priv_errors += h.delivered;
  return settle(s, continued, finishing);
}

// validator_settled is the validator's answer to a call that does not run:
// no object, an object that is not open, or a null chunk pointer. A first
// failure stands; a caller bug on an open or finished object becomes its
// failure, at the stream's position.
inline __attribute__((noinline, cold)) const utf8guard_result& validator_settled(
    utf8guard_validator* v, std::size_t n) {
  if (v == nullptr) return kRefusedC;
  switch (v->priv_state) {
    case kOpen:
      if (n == 0) return v->priv_error;  // (nullptr, 0): the empty chunk
      [[fallthrough]];
    case kFinished:
      v->priv_error = kRefusedC;
      v->priv_error.offset = v->priv_position;
      v->priv_state = kMisused;
      break;
    case kStopped:
    case kMisused: break;
    default: return kRefusedC;  // never initialised: not written
  }
  v->priv_position += n;  // keep bytes_fed() honest; the verdict stands
  return v->priv_error;
}

// validator_feed is inlined into both entry points: with small chunks,
// every call layer shows in the throughput. One test sends every exception
// (a failed or finished object, a null pointer) to validator_settled.
inline const utf8guard_result& validator_feed(utf8guard_validator* v, std::string_view chunk) {
  if (__builtin_expect(v == nullptr || v->priv_state != kOpen || chunk.data() == nullptr, 0)) {
    return validator_settled(v, chunk.size());
  }
  first_error_handler h{v->priv_error};
  if (!feed(*v, chunk, h)) v->priv_state = kStopped;
  return v->priv_error;
}

// validator_finish answers a second finish, and every call after an error,
// with the answer it holds.
inline const utf8guard_result& validator_finish(utf8guard_validator* v) {
  if (v == nullptr || !initialised(v->priv_state)) return kRefusedC;
  if (v->priv_state == kOpen) {
    first_error_handler h{v->priv_error};
    v->priv_state = stream_finish(cursor(*v), h) ? kFinished : kStopped;
  }
  return v->priv_error;
}

inline utf8guard_status sanitizer_feed(utf8guard_sanitizer* s, std::string_view chunk,
                                       utf8guard_sink sink, void* ctx) {
  if (!runs(s, chunk.data() != nullptr, sink != nullptr)) {
    return settled(s, bad_span(chunk) || sink == nullptr, false);
  }
  auto h = sink_handler(sink, ctx, s->priv_replacements);
  return settle(s, feed(*s, chunk, h), false);
}

inline utf8guard_status sanitizer_finish(utf8guard_sanitizer* s, utf8guard_sink sink, void* ctx) {
  if (!runs(s, true, sink != nullptr)) return settled(s, sink == nullptr, true);
  auto h = sink_handler(sink, ctx, s->priv_replacements);
  return settle(s, stream_finish(cursor(*s), h), true);
}

// A null deliver is a missing callback.
inline utf8guard_status scanner_feed(utf8guard_error_scanner* s, std::string_view chunk,
                                     batch_fn deliver, void* ctx) {
  if (!runs(s, chunk.data() != nullptr, deliver != nullptr)) {
    return settled(s, bad_span(chunk) || deliver == nullptr, false);
  }
  return scan(s, deliver, ctx, false, [&](batch_handler& h) { return feed(*s, chunk, h); });
}

inline utf8guard_status scanner_finish(utf8guard_error_scanner* s, batch_fn deliver, void* ctx) {
  if (!runs(s, true, deliver != nullptr)) return settled(s, deliver == nullptr, true);
  return scan(s, deliver, ctx, true,
              [&](batch_handler& h) { return stream_finish(cursor(*s), h); });
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_OBJECTS_HPP
