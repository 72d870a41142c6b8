// stream.cpp - the entry points of the streaming objects: validator,
// sanitizer and error_scanner, and the C API's utf8guard_validator,
// utf8guard_sanitizer and utf8guard_error_scanner. What they do is in
// stream/objects.hpp.
//
// The direction between the APIs, as in every file with entry points: C++
// implements, C wraps. A C function converts its arguments (c_bytes), calls
// the C++ entry point of the same name or, where C has a form C++ lacks (a
// caller's buffer, a callback per error, a C struct as the object), the
// detail:: function that C++ entry point is built on, and converts the
// answer (to_c, to_status). No C++ entry point calls a C one.
#include "core/convert.hpp"
#include "stream/objects.hpp"

namespace utf8guard {

using detail::sanitizer_life;
using detail::scanner_life;
using detail::validator_life;

validator::validator() noexcept { validator_life::start(state_); }

validator::validator(policy p) noexcept { validator_life::start(state_, p.bits()); }

result validator::feed(std::string_view chunk) noexcept {
  return detail::validator_feed(&state_, chunk);
}

result validator::finish() noexcept { return detail::validator_finish(&state_); }

void validator::reset() noexcept { validator_life::reset(state_); }

std::size_t validator::bytes_fed() const noexcept { return state_.priv_position; }

sanitizer::sanitizer() noexcept { sanitizer_life::start(state_); }

sanitizer::sanitizer(policy p) noexcept { sanitizer_life::start(state_, p.bits()); }

bool sanitizer::feed_raw(std::string_view chunk, detail::sink_fn sink, void* ctx) {
  return detail::sanitizer_feed(&state_, chunk, sink, ctx);
}

bool sanitizer::finish_raw(detail::sink_fn sink, void* ctx) {
  return detail::sanitizer_finish(&state_, sink, ctx);
}

void sanitizer::reset() noexcept { sanitizer_life::reset(state_); }

std::size_t sanitizer::replacements() const noexcept { return state_.priv_replacements; }

error_scanner::error_scanner() noexcept { scanner_life::start(state_); }

error_scanner::error_scanner(policy p) noexcept { scanner_life::start(state_, p.bits()); }

bool error_scanner::feed_raw(std::string_view chunk, detail::batch_fn cb, void* ctx) {
  return detail::scanner_feed(&state_, chunk, cb, ctx);
}

bool error_scanner::finish_raw(detail::batch_fn cb, void* ctx) {
  return detail::scanner_finish(&state_, cb, ctx);
}

void error_scanner::reset() noexcept { scanner_life::reset(state_); }

std::size_t error_scanner::errors() const noexcept { return state_.priv_errors; }

}  // namespace utf8guard

namespace {

using utf8guard::detail::c_bytes;
using utf8guard::detail::sanitizer_life;
using utf8guard::detail::scanner_life;
using utf8guard::detail::to_c;
using utf8guard::detail::to_status;
using utf8guard::detail::validator_life;

// The C API's callback takes one error at a time; the C++ one, errors in
// batches (error_scanner::call).
using error_callback = utf8guard::detail::c_callback<utf8guard_error_callback>;

}  // namespace

extern "C" {

void utf8guard_validator_init(utf8guard_validator* v) {
  if (v != nullptr) validator_life::start(*v);
}

void utf8guard_validator_init_policy(utf8guard_validator* v, utf8guard_policy policy) {
  if (v != nullptr) validator_life::start(*v, policy);
}

utf8guard_result utf8guard_validator_feed(utf8guard_validator* v, const char* data, size_t len) {
  return to_c(utf8guard::detail::validator_feed(v, c_bytes(data, len)));
}

utf8guard_result utf8guard_validator_finish(utf8guard_validator* v) {
  return to_c(utf8guard::detail::validator_finish(v));
}

void utf8guard_sanitizer_init(utf8guard_sanitizer* s) {
  if (s != nullptr) sanitizer_life::start(*s);
}

void utf8guard_sanitizer_init_policy(utf8guard_sanitizer* s, utf8guard_policy policy) {
  if (s != nullptr) sanitizer_life::start(*s, policy);
}

utf8guard_status utf8guard_sanitizer_feed(utf8guard_sanitizer* s, const char* data, size_t len,
                                          utf8guard_sink sink, void* ctx) {
  const bool went_on = utf8guard::detail::sanitizer_feed(s, c_bytes(data, len), sink, ctx);
  return to_status<sanitizer_life>(went_on, s);
}

utf8guard_status utf8guard_sanitizer_finish(utf8guard_sanitizer* s, utf8guard_sink sink,
                                            void* ctx) {
  const bool went_on = utf8guard::detail::sanitizer_finish(s, sink, ctx);
  return to_status<sanitizer_life>(went_on, s);
}

size_t utf8guard_sanitizer_replacements(const utf8guard_sanitizer* s) {
  return sanitizer_life::count(s, &utf8guard_sanitizer::priv_replacements);
}

void utf8guard_error_scanner_init(utf8guard_error_scanner* s) {
  if (s != nullptr) scanner_life::start(*s);
}

void utf8guard_error_scanner_init_policy(utf8guard_error_scanner* s, utf8guard_policy policy) {
  if (s != nullptr) scanner_life::start(*s, policy);
}

utf8guard_status utf8guard_error_scanner_feed(utf8guard_error_scanner* s, const char* data,
                                              size_t len, utf8guard_error_callback on_error,
                                              void* ctx) {
  error_callback c{on_error, ctx};
  const bool went_on = utf8guard::detail::scanner_feed(s, c_bytes(data, len), c.batched(), &c);
  return to_status<scanner_life>(went_on, s);
}

utf8guard_status utf8guard_error_scanner_finish(utf8guard_error_scanner* s,
                                                utf8guard_error_callback on_error, void* ctx) {
  error_callback c{on_error, ctx};
  const bool went_on = utf8guard::detail::scanner_finish(s, c.batched(), &c);
  return to_status<scanner_life>(went_on, s);
}

size_t utf8guard_error_scanner_errors(const utf8guard_error_scanner* s) {
  return scanner_life::count(s, &utf8guard_error_scanner::priv_errors);
}

}  // extern "C"
