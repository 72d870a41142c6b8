// stream.cpp - the streaming objects of the C API (validator, sanitizer,
// scanner) and their C++ wrappers. All three run the one engine in
// stream.hpp; they differ only in what they do with valid runs and errors.
#include "stream/engine.hpp"
#include "core/convert.hpp"

namespace utf8guard::detail {
namespace {

template <class State>
stream_cursor<State> cursor(State& s) noexcept {
  return {s};
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

// The C API's callback takes one error at a time.
struct one_at_a_time {
  utf8guard_error_callback on_error;
  void* ctx;
  static std::size_t deliver(void* self, const utf8guard_result* errors, std::size_t count) {
    const auto& c = *static_cast<const one_at_a_time*>(self);
    for (std::size_t i = 0; i < count; ++i) {
      if (!c.on_error(c.ctx, errors[i])) return i;
    }
    return count;
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

// validator_feed is utf8guard_validator_feed, inlined into the C++ wrapper
// too: with 4 KiB chunks, every call layer shows in the throughput.
inline const utf8guard_result& validator_feed(utf8guard_validator* v, std::string_view chunk) {
  if (v->priv_error.kind != UTF8GUARD_ERROR_NONE) {
    v->priv_position += chunk.size();  // keep bytes_fed() honest; the verdict stands
    return v->priv_error;
  }
  first_error_handler h{v->priv_error};
  stream_feed(cursor(*v), bytes(chunk.data()), chunk.size(), h);
  return v->priv_error;
}

bool scanner_feed(utf8guard_scanner* s, std::string_view chunk, batch_fn deliver, void* ctx) {
  return scan(s, deliver, ctx, [&](batch_handler& h) {
    return stream_feed(cursor(*s), bytes(chunk.data()), chunk.size(), h);
  });
}

bool scanner_finish(utf8guard_scanner* s, batch_fn deliver, void* ctx) {
  return scan(s, deliver, ctx, [&](batch_handler& h) { return stream_finish(cursor(*s), h); });
}

utf8guard_status status_of(bool continued) noexcept {
  return continued ? UTF8GUARD_OK : UTF8GUARD_SINK_FAILED;
}

}  // namespace
}  // namespace utf8guard::detail

using namespace utf8guard::detail;

extern "C" {

void utf8guard_validator_init(utf8guard_validator* v) { *v = utf8guard_validator{}; }

utf8guard_result utf8guard_validator_feed(utf8guard_validator* v, const char* data, size_t len) {
  return validator_feed(v, c_bytes(data, len));
}

utf8guard_result utf8guard_validator_finish(utf8guard_validator* v) {
  if (v->priv_error.kind == UTF8GUARD_ERROR_NONE) {
    first_error_handler h{v->priv_error};
    stream_finish(cursor(*v), h);
  }
  return v->priv_error;
}

void utf8guard_sanitizer_init(utf8guard_sanitizer* s) { *s = utf8guard_sanitizer{}; }

utf8guard_status utf8guard_sanitizer_feed(utf8guard_sanitizer* s, const char* data, size_t len,
                                          utf8guard_sink sink, void* ctx) {
  const std::string_view chunk = c_bytes(data, len);
  auto h = sink_handler(sink, ctx, s->priv_replacements);
  return status_of(stream_feed(cursor(*s), bytes(chunk.data()), chunk.size(), h));
}

utf8guard_status utf8guard_sanitizer_finish(utf8guard_sanitizer* s, utf8guard_sink sink,
                                            void* ctx) {
  auto h = sink_handler(sink, ctx, s->priv_replacements);
  return status_of(stream_finish(cursor(*s), h));
}

size_t utf8guard_sanitizer_replacements(const utf8guard_sanitizer* s) {
  return s->priv_replacements;
}

void utf8guard_scanner_init(utf8guard_scanner* s) { *s = utf8guard_scanner{}; }

utf8guard_status utf8guard_scanner_feed(utf8guard_scanner* s, const char* data, size_t len,
                                        utf8guard_error_callback on_error, void* ctx) {
  one_at_a_time c{on_error, ctx};
  return status_of(scanner_feed(s, c_bytes(data, len), &one_at_a_time::deliver, &c));
}

utf8guard_status utf8guard_scanner_finish(utf8guard_scanner* s, utf8guard_error_callback on_error,
                                          void* ctx) {
  one_at_a_time c{on_error, ctx};
  return status_of(scanner_finish(s, &one_at_a_time::deliver, &c));
}

size_t utf8guard_scanner_errors(const utf8guard_scanner* s) { return s->priv_errors; }

}  // extern "C"

namespace utf8guard {

validator::validator() noexcept { utf8guard_validator_init(&state_); }

result validator::feed(std::string_view chunk) noexcept {
  return from_c(detail::validator_feed(&state_, chunk));
}

result validator::finish() noexcept { return from_c(utf8guard_validator_finish(&state_)); }

void validator::reset() noexcept { utf8guard_validator_init(&state_); }

std::size_t validator::bytes_fed() const noexcept { return state_.priv_position; }

sanitizer::sanitizer() noexcept { utf8guard_sanitizer_init(&state_); }

bool sanitizer::feed_raw(std::string_view chunk, utf8guard_sink sink, void* ctx) {
  return utf8guard_sanitizer_feed(&state_, chunk.data(), chunk.size(), sink, ctx) == UTF8GUARD_OK;
}

bool sanitizer::finish_raw(utf8guard_sink sink, void* ctx) {
  return utf8guard_sanitizer_finish(&state_, sink, ctx) == UTF8GUARD_OK;
}

void sanitizer::reset() noexcept { utf8guard_sanitizer_init(&state_); }

std::size_t sanitizer::replacements() const noexcept { return state_.priv_replacements; }

error_scanner::error_scanner() noexcept { utf8guard_scanner_init(&state_); }

bool error_scanner::feed_raw(std::string_view chunk, batch_fn cb, void* ctx) {
  return detail::scanner_feed(&state_, chunk, cb, ctx);
}

bool error_scanner::finish_raw(batch_fn cb, void* ctx) {
  return detail::scanner_finish(&state_, cb, ctx);
}

void error_scanner::reset() noexcept { utf8guard_scanner_init(&state_); }

std::size_t error_scanner::errors() const noexcept { return state_.priv_errors; }

}  // namespace utf8guard
