// stream.cpp - the streaming objects of the C API (validator, sanitizer,
// scanner) and their C++ wrappers. All three run the one engine in
// stream.hpp; they differ only in what they do with valid runs and errors.
#include "stream.hpp"
#include "convert.hpp"

namespace utf8guard::detail {
namespace {

template <class State>
stream_cursor cursor(State& s) noexcept {
  return {s.priv_position, s.priv_carry, s.priv_carry_len};
}

// Keeps the first error and stops there; valid runs need no work.
struct first_error_handler {
  utf8guard_result& first;
  bool valid(const std::uint8_t*, std::size_t) noexcept { return true; }
  bool error(const result& r) noexcept {
    first = to_c(r);
    return false;
  }
};

// Sanitized output goes to the caller's sink.
auto sink_handler(utf8guard_sink sink, void* ctx, std::size_t& replacements) {
  return replacing_handler{[sink, ctx](const char* p, std::size_t n) { return sink(ctx, p, n); },
                           replacements};
}

// Reports each maximal subpart to the callback.
struct scan_handler {
  utf8guard_error_callback on_error;
  void* ctx;
  std::size_t& errors;
  bool valid(const std::uint8_t*, std::size_t) noexcept { return true; }
  bool error(const result& r) {
    ++errors;
    return on_error(ctx, to_c(r));
  }
};

utf8guard_status status_of(bool continued) noexcept {
  return continued ? UTF8GUARD_OK : UTF8GUARD_SINK_FAILED;
}

}  // namespace
}  // namespace utf8guard::detail

using namespace utf8guard::detail;

extern "C" {

void utf8guard_validator_init(utf8guard_validator* v) { *v = utf8guard_validator{}; }

utf8guard_result utf8guard_validator_feed(utf8guard_validator* v, const char* data, size_t len) {
  const std::string_view chunk = c_bytes(data, len);
  if (v->priv_error.kind != UTF8GUARD_ERROR_NONE) {
    v->priv_position += chunk.size();  // keep bytes_fed() honest; the verdict stands
    return v->priv_error;
  }
  first_error_handler h{v->priv_error};
  stream_feed(cursor(*v), bytes(chunk.data()), chunk.size(), h);
  return v->priv_error;
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
  const std::string_view chunk = c_bytes(data, len);
  scan_handler h{on_error, ctx, s->priv_errors};
  return status_of(stream_feed(cursor(*s), bytes(chunk.data()), chunk.size(), h));
}

utf8guard_status utf8guard_scanner_finish(utf8guard_scanner* s, utf8guard_error_callback on_error,
                                          void* ctx) {
  scan_handler h{on_error, ctx, s->priv_errors};
  return status_of(stream_finish(cursor(*s), h));
}

size_t utf8guard_scanner_errors(const utf8guard_scanner* s) { return s->priv_errors; }

}  // extern "C"

namespace utf8guard {

validator::validator() noexcept { utf8guard_validator_init(&state_); }

result validator::feed(std::string_view chunk) noexcept {
  return from_c(utf8guard_validator_feed(&state_, chunk.data(), chunk.size()));
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

bool error_scanner::feed_raw(std::string_view chunk, utf8guard_error_callback cb, void* ctx) {
  return utf8guard_scanner_feed(&state_, chunk.data(), chunk.size(), cb, ctx) == UTF8GUARD_OK;
}

bool error_scanner::finish_raw(utf8guard_error_callback cb, void* ctx) {
  return utf8guard_scanner_finish(&state_, cb, ctx) == UTF8GUARD_OK;
}

void error_scanner::reset() noexcept { utf8guard_scanner_init(&state_); }

std::size_t error_scanner::errors() const noexcept { return state_.priv_errors; }

}  // namespace utf8guard
