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
// answer (to_c, a status). No C++ entry point calls a C one.
#include "core/convert.hpp"
#include "stream/objects.hpp"

namespace utf8guard {

validator::validator() noexcept { detail::start(state_); }

validator::validator(policy p) noexcept { detail::start(state_, p.bits()); }

result validator::feed(std::string_view chunk) noexcept {
  return detail::from_c(detail::validator_feed(&state_, chunk));
}

result validator::finish() noexcept { return detail::from_c(detail::validator_finish(&state_)); }

void validator::reset() noexcept { detail::start(state_, state_.priv_policy); }

std::size_t validator::bytes_fed() const noexcept { return state_.priv_position; }

sanitizer::sanitizer() noexcept { detail::start(state_); }

sanitizer::sanitizer(policy p) noexcept { detail::start(state_, p.bits()); }

bool sanitizer::feed_raw(std::string_view chunk, utf8guard_sink sink, void* ctx) {
  return detail::sanitizer_feed(&state_, chunk, sink, ctx) == UTF8GUARD_STATUS_OK;
}

bool sanitizer::finish_raw(utf8guard_sink sink, void* ctx) {
  return detail::sanitizer_finish(&state_, sink, ctx) == UTF8GUARD_STATUS_OK;
}

void sanitizer::reset() noexcept { detail::start(state_, state_.priv_policy); }

std::size_t sanitizer::replacements() const noexcept { return state_.priv_replacements; }

error_scanner::error_scanner() noexcept { detail::start(state_); }

error_scanner::error_scanner(policy p) noexcept { detail::start(state_, p.bits()); }

bool error_scanner::feed_raw(std::string_view chunk, batch_fn cb, void* ctx) {
  return detail::scanner_feed(&state_, chunk, cb, ctx) == UTF8GUARD_STATUS_OK;
}

bool error_scanner::finish_raw(batch_fn cb, void* ctx) {
  return detail::scanner_finish(&state_, cb, ctx) == UTF8GUARD_STATUS_OK;
}

void error_scanner::reset() noexcept { detail::start(state_, state_.priv_policy); }

std::size_t error_scanner::errors() const noexcept { return state_.priv_errors; }

}  // namespace utf8guard

namespace {

using utf8guard::detail::c_bytes;
using utf8guard::detail::count_of;

// The C API's callback takes one error at a time; the C++ one, errors in
// batches (error_scanner::call).
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
  // batch_fn is the C++ scanner's form: none (a refused call) when there is
  // no callback to call.
  utf8guard::detail::batch_fn batch() const noexcept {
    return on_error == nullptr ? nullptr : &deliver;
  }
};

}  // namespace

extern "C" {

void utf8guard_validator_init(utf8guard_validator* v) {
  if (v != nullptr) utf8guard::detail::start(*v);
}

void utf8guard_validator_init_policy(utf8guard_validator* v, utf8guard_policy policy) {
  if (v != nullptr) utf8guard::detail::start(*v, policy);
}

utf8guard_result utf8guard_validator_feed(utf8guard_validator* v, const char* data, size_t len) {
  return utf8guard::detail::validator_feed(v, c_bytes(data, len));
}

utf8guard_result utf8guard_validator_finish(utf8guard_validator* v) {
  return utf8guard::detail::validator_finish(v);
}

void utf8guard_sanitizer_init(utf8guard_sanitizer* s) {
  if (s != nullptr) utf8guard::detail::start(*s);
}

void utf8guard_sanitizer_init_policy(utf8guard_sanitizer* s, utf8guard_policy policy) {
  if (s != nullptr) utf8guard::detail::start(*s, policy);
}

utf8guard_status utf8guard_sanitizer_feed(utf8guard_sanitizer* s, const char* data, size_t len,
                                          utf8guard_sink sink, void* ctx) {
  return utf8guard::detail::sanitizer_feed(s, c_bytes(data, len), sink, ctx);
}

utf8guard_status utf8guard_sanitizer_finish(utf8guard_sanitizer* s, utf8guard_sink sink,
                                            void* ctx) {
  return utf8guard::detail::sanitizer_finish(s, sink, ctx);
}

size_t utf8guard_sanitizer_replacements(const utf8guard_sanitizer* s) {
  return count_of(s, &utf8guard_sanitizer::priv_replacements);
}

void utf8guard_error_scanner_init(utf8guard_error_scanner* s) {
  if (s != nullptr) utf8guard::detail::start(*s);
}

void utf8guard_error_scanner_init_policy(utf8guard_error_scanner* s, utf8guard_policy policy) {
  if (s != nullptr) utf8guard::detail::start(*s, policy);
}

utf8guard_status utf8guard_error_scanner_feed(utf8guard_error_scanner* s, const char* data,
                                              size_t len, utf8guard_error_callback on_error,
                                              void* ctx) {
  one_at_a_time c{on_error, ctx};
  return utf8guard::detail::scanner_feed(s, c_bytes(data, len), c.batch(), &c);
}

utf8guard_status utf8guard_error_scanner_finish(utf8guard_error_scanner* s,
                                                utf8guard_error_callback on_error, void* ctx) {
  one_at_a_time c{on_error, ctx};
  return utf8guard::detail::scanner_finish(s, c.batch(), &c);
}

size_t utf8guard_error_scanner_errors(const utf8guard_error_scanner* s) {
  return count_of(s, &utf8guard_error_scanner::priv_errors);
}

}  // extern "C"
