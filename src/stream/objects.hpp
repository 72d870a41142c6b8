// objects.hpp - the streaming objects (validator, sanitizer, error_scanner):
// what each does with the engine's valid runs and errors, on the state that
// the C structs of utf8guard.h hold and the C++ classes wrap. All three run
// the one engine in engine.hpp. Included by api/stream.cpp, whose C++ and C
// entry points both call these functions.
#ifndef UTF8GUARD_STREAM_OBJECTS_HPP
#define UTF8GUARD_STREAM_OBJECTS_HPP

#include <cstddef>
#include <string_view>

#include "core/convert.hpp"
#include "stream/engine.hpp"

namespace utf8guard::detail {
namespace {

template <class State>
stream_cursor<State> cursor(State& s) noexcept {
  return {s};
}

// start makes s a new stream: nothing fed, nothing carried, no error.
template <class State>
void start(State& s) noexcept {
  s = State{};
}

// Sanitized output goes to the caller's sink.
auto sink_handler(utf8guard_sink sink, void* ctx, std::size_t& replacements) {
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
                            list[k].length()};
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
bool scan(utf8guard_scanner* s, batch_fn deliver, void* ctx, Step step) {
  batch_handler h(deliver, ctx);
  const bool continued = step(h) && h.flush();
  s->priv_errors += h.delivered;
  return continued;
}

// validator_feed is inlined into both entry points: with small chunks,
// every call layer shows in the throughput.
inline const utf8guard_result& validator_feed(utf8guard_validator* v, std::string_view chunk) {
  if (v->priv_error.kind != UTF8GUARD_ERROR_NONE) {
    v->priv_position += chunk.size();  // keep bytes_fed() honest; the verdict stands
    return v->priv_error;
  }
  first_error_handler h{v->priv_error};
  stream_feed(cursor(*v), bytes(chunk.data()), chunk.size(), h);
  return v->priv_error;
}

const utf8guard_result& validator_finish(utf8guard_validator* v) {
  if (v->priv_error.kind == UTF8GUARD_ERROR_NONE) {
    first_error_handler h{v->priv_error};
    stream_finish(cursor(*v), h);
  }
  return v->priv_error;
}

bool sanitizer_feed(utf8guard_sanitizer* s, std::string_view chunk, utf8guard_sink sink,
                    void* ctx) {
  auto h = sink_handler(sink, ctx, s->priv_replacements);
  return stream_feed(cursor(*s), bytes(chunk.data()), chunk.size(), h);
}

bool sanitizer_finish(utf8guard_sanitizer* s, utf8guard_sink sink, void* ctx) {
  auto h = sink_handler(sink, ctx, s->priv_replacements);
  return stream_finish(cursor(*s), h);
}

bool scanner_feed(utf8guard_scanner* s, std::string_view chunk, batch_fn deliver, void* ctx) {
  return scan(s, deliver, ctx, [&](batch_handler& h) {
    return stream_feed(cursor(*s), bytes(chunk.data()), chunk.size(), h);
  });
}

bool scanner_finish(utf8guard_scanner* s, batch_fn deliver, void* ctx) {
  return scan(s, deliver, ctx, [&](batch_handler& h) { return stream_finish(cursor(*s), h); });
}

}  // namespace
}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_OBJECTS_HPP
