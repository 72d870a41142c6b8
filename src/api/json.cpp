// json.cpp - the entry points for JSON text: one-shot and streaming, C++ and
// C (C++ implements, C wraps: see stream.cpp). What they do is in
// stream/json_engine.hpp over stream/encoded_engine.hpp; the streaming
// objects' life is every stream's, stream_life (stream/encoded_objects.hpp).
#include <cstring>

#include "core/convert.hpp"
#include "stream/encoded_objects.hpp"

namespace utf8guard {
namespace detail {
namespace {

// The one-shot check is the first of these that answers. just_verdict: only
// whether the input is valid matters (is_valid); the kind of an invalid
// answer is then meaningless.
//   1. Text without a backslash decodes to itself: validate's answer.
//   2. A short text is decoded whole and validated in one call
//      (encoded_short_valid), when no event comes up.
//   3. Anything else, or an error to place, takes the validator's engine.
encoded_result validate_json(std::string_view in, utf8guard_policy bits, bool just_verdict) {
  if (bad_span(in)) return encoded_kind<json_form, 0>::refused();
  if (in.empty()) return {};  // also keeps a (nullptr, 0) view away from memchr
  const std::uint8_t* p = bytes(in.data());
  const std::size_t n = in.size();
  if (std::memchr(p, '\\', n) == nullptr) {
    encoded_result r;
    if (just_verdict) {
      if (!utf8guard::is_valid(in, policy::from_bits(bits))) r.kind = error::disallowed;
      return r;
    }
    static_cast<result&>(r) =
        bits == 0 ? utf8guard::validate(in) : utf8guard::validate(in, policy::from_bits(bits));
    r.decoded_offset = r.offset;
    r.decoded_length = r.length;
    return r;
  }
  if (n <= kEncodedWindow) {
    if (encoded_short_valid<json_form>(p, n, bits, just_verdict)) return {};
    if (just_verdict) return encoded_kind<json_form, 0>::refused();  // any non-none kind: not valid
  }
  return encoded_by_stream<json_form>(p, n, bits);
}

}  // namespace
}  // namespace detail

namespace json {

bool is_valid(std::string_view bytes, policy p) noexcept {
  return detail::validate_json(bytes, p.bits(), true).ok();
}

encoded_result validate(std::string_view bytes, policy p) noexcept {
  return detail::validate_json(bytes, p.bits(), false);
}

using detail::json_form;
using detail::json_scanner_life;
using detail::json_validator_life;

validator::validator(policy p) noexcept { json_validator_life::start(state_, p.bits()); }

encoded_result validator::feed(std::string_view chunk) noexcept {
  return detail::encoded_validator_feed<json_form>(&state_, chunk);
}

encoded_result validator::finish() noexcept {
  return detail::encoded_validator_finish<json_form>(&state_);
}

void validator::reset() noexcept { json_validator_life::reset(state_); }

std::size_t validator::bytes_fed() const noexcept { return state_.priv_position; }

scanner::scanner(policy p) noexcept { json_scanner_life::start(state_, p.bits()); }

bool scanner::feed_raw(std::string_view chunk, detail::encoded_fn cb, void* ctx) {
  return detail::encoded_scanner_feed<json_form>(&state_, chunk, cb, ctx);
}

bool scanner::finish_raw(detail::encoded_fn cb, void* ctx) {
  return detail::encoded_scanner_finish<json_form>(&state_, cb, ctx);
}

void scanner::reset() noexcept { json_scanner_life::reset(state_); }

std::size_t scanner::errors() const noexcept { return state_.priv_errors; }

}  // namespace json
}  // namespace utf8guard

namespace {

using utf8guard::detail::c_bytes;
using utf8guard::detail::json_form;
using utf8guard::detail::json_scanner_life;
using utf8guard::detail::json_validator_life;
using utf8guard::detail::to_c;
using utf8guard::detail::to_status;
using encoded_callback = utf8guard::detail::c_callback<utf8guard_encoded_callback>;

}  // namespace

extern "C" {

bool utf8guard_json_is_valid(const char* data, size_t len, utf8guard_policy policy) {
  return utf8guard::json::is_valid(c_bytes(data, len), utf8guard::policy::from_bits(policy));
}

utf8guard_encoded_result utf8guard_json_validate(const char* data, size_t len,
                                                 utf8guard_policy policy) {
  return to_c(utf8guard::json::validate(c_bytes(data, len), utf8guard::policy::from_bits(policy)));
}

void utf8guard_json_validator_init(utf8guard_json_stream* s, utf8guard_policy policy) {
  if (s != nullptr) json_validator_life::start(*s, policy);
}

utf8guard_encoded_result utf8guard_json_validator_feed(utf8guard_json_stream* s, const char* data,
                                                       size_t len) {
  return to_c(utf8guard::detail::encoded_validator_feed<json_form>(s, c_bytes(data, len)));
}

utf8guard_encoded_result utf8guard_json_validator_finish(utf8guard_json_stream* s) {
  return to_c(utf8guard::detail::encoded_validator_finish<json_form>(s));
}

void utf8guard_json_scanner_init(utf8guard_json_stream* s, utf8guard_policy policy) {
  if (s != nullptr) json_scanner_life::start(*s, policy);
}

utf8guard_status utf8guard_json_scanner_feed(utf8guard_json_stream* s, const char* data, size_t len,
                                             utf8guard_encoded_callback on_error, void* ctx) {
  encoded_callback c{on_error, ctx};
  const bool went_on =
      utf8guard::detail::encoded_scanner_feed<json_form>(s, c_bytes(data, len), c.each(), &c);
  return to_status<json_scanner_life>(went_on, s);
}

utf8guard_status utf8guard_json_scanner_finish(utf8guard_json_stream* s,
                                               utf8guard_encoded_callback on_error, void* ctx) {
  encoded_callback c{on_error, ctx};
  const bool went_on = utf8guard::detail::encoded_scanner_finish<json_form>(s, c.each(), &c);
  return to_status<json_scanner_life>(went_on, s);
}

size_t utf8guard_json_scanner_errors(const utf8guard_json_stream* s) {
  return json_scanner_life::count(s, &utf8guard_json_stream::priv_errors);
}

}  // extern "C"
