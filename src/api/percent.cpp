// percent.cpp - the entry points for percent-encoded input: one-shot and
// streaming, C++ and C (C++ implements, C wraps: see stream.cpp). What they
// do is in stream/percent_engine.hpp over stream/encoded_engine.hpp; the
// streaming objects' life (refusals, sticky errors) is every stream's,
// stream_life (stream/encoded_objects.hpp).
#include <cstring>
#include <stdexcept>

#include "api/one_shot.hpp"
#include "api/validate.hpp"
#include "core/convert.hpp"
#include "kernels/dispatch.hpp"
#include "stream/encoded_objects.hpp"

namespace utf8guard {
namespace detail {
namespace {

// The one-shot check is the first of these that answers. just_verdict: only
// whether the input is valid matters (is_valid); the kind of an invalid
// answer is then meaningless.

// without_escapes answers input in which the kernel's scan, which stops at
// the first '%', met none before the end or a certain error (the bytes that
// reveal it are raw): the decoded bytes are the input up to there, so the
// answer is validate's, and the policy's before it (one_shot.hpp). pos is
// the scan's answer.
encoded_result without_escapes(const std::uint8_t* p, std::size_t n, std::size_t pos,
                               utf8guard_policy bits) noexcept {
  encoded_result r;
  if (pos != n) static_cast<result&>(r) = classify_scan(p, n, pos).unpacked();
  if (bits != 0) static_cast<result&>(r) = policy_first(p, n, r, 0, bits, false);
  r.decoded_offset = r.offset;
  r.decoded_length = r.length;
  return r;
}

encoded_result validate_percent(std::string_view in, utf8guard_policy bits,
                                bool just_verdict = false) {
  if (bad_span(in)) return encoded_kind<percent_form, 0>::refused();
  if (in.empty()) return {};  // also keeps a (nullptr, 0) view away from memchr
  const std::uint8_t* p = bytes(in.data());
  const std::size_t n = in.size();
  const kernel& k = active_kernel_ref();
  const std::size_t pos = k.scan_no_percent(p, n);
  if (pos != kSawStop) return without_escapes(p, n, pos, bits);
  if (n <= kEncodedWindow) {
    if (encoded_short_valid<percent_form>(p, n, bits, just_verdict)) return {};
    if (just_verdict)
      return encoded_kind<percent_form, 0>::refused();  // any non-none kind: not valid
  }
  return encoded_by_stream<percent_form>(p, n, bits);
}

// decode_percent writes the decoded bytes of in to out (room for in.size()
// bytes) and returns how many.
std::size_t decode_percent(std::string_view in, char* out) {
  utf8guard_percent_stream s;
  percent_scanner_life::start(s, 0);
  no_sink sink;
  return encoded_run<percent_form, no_sink>(s, sink).decode_all(bytes(in.data()), in.size(), out);
}

// decoded_size is the size of in percent-decoded: each escape decodes 3
// bytes to 1.
std::size_t decoded_size(std::string_view in) noexcept {
  const auto* p = bytes(in.data());
  std::size_t size = in.size();
  for (std::size_t i = 0; i + 3 <= in.size(); ++i) {
    if (escape_at(p, i)) {
      size -= 2;
      i += 2;
    }
  }
  return size;
}

// decode_percent_to is decode_percent into out[0..cap), cap < in.size() but
// at least decoded_size(in): the decoders want room for in.size() bytes, so
// pieces that end at unit boundaries go through a buffer on the stack.
void decode_percent_to(std::string_view in, char* out) noexcept {
  char piece[1024];
  std::size_t written = 0;
  while (!in.empty()) {
    std::size_t n = in.size() < sizeof piece ? in.size() : sizeof piece;
    // An escape cut by the piece's end has its '%' in the last two bytes (a
    // '%' always starts a unit); the piece ends before it.
    if (n < in.size()) {
      if (in[n - 1] == '%') {
        n -= 1;
      } else if (in[n - 2] == '%') {
        n -= 2;
      }
    }
    const std::size_t got = decode_percent(in.substr(0, n), piece);
    std::memcpy(out + written, piece, got);  // SAFETY: the caller's cap >= decoded_size(in)
    written += got;
    in.remove_prefix(n);
  }
}

}  // namespace
}  // namespace detail

namespace percent {

bool is_valid(std::string_view bytes, policy p) noexcept {
  return detail::validate_percent(bytes, p.bits(), true).ok();
}

encoded_result validate(std::string_view bytes, policy p) noexcept {
  return detail::validate_percent(bytes, p.bits());
}

std::string decode(std::string_view bytes) {
  if (detail::bad_span(bytes)) throw std::invalid_argument("utf8guard::percent::decode: null data");
  std::string out(bytes.size(), '\0');
  out.resize(detail::decode_percent(bytes, out.data()));
  return out;
}

using detail::percent_scanner_life;
using detail::percent_validator_life;

validator::validator(policy p) noexcept { percent_validator_life::start(state_, p.bits()); }

encoded_result validator::feed(std::string_view chunk) noexcept {
  return detail::encoded_validator_feed<detail::percent_form>(&state_, chunk);
}

encoded_result validator::finish() noexcept {
  return detail::encoded_validator_finish<detail::percent_form>(&state_);
}

void validator::reset() noexcept { percent_validator_life::reset(state_); }

std::size_t validator::bytes_fed() const noexcept { return state_.priv_position; }

scanner::scanner(policy p) noexcept { percent_scanner_life::start(state_, p.bits()); }

bool scanner::feed_raw(std::string_view chunk, detail::encoded_fn cb, void* ctx) {
  return detail::encoded_scanner_feed<detail::percent_form>(&state_, chunk, cb, ctx);
}

bool scanner::finish_raw(detail::encoded_fn cb, void* ctx) {
  return detail::encoded_scanner_finish<detail::percent_form>(&state_, cb, ctx);
}

void scanner::reset() noexcept { percent_scanner_life::reset(state_); }

std::size_t scanner::errors() const noexcept { return state_.priv_errors; }

}  // namespace percent

// The older names.
bool is_valid_percent_encoded(std::string_view bytes, policy p) noexcept {
  return percent::is_valid(bytes, p);
}

encoded_result validate_percent_encoded(std::string_view bytes, policy p) noexcept {
  return percent::validate(bytes, p);
}

std::string percent_decode(std::string_view bytes) { return percent::decode(bytes); }

}  // namespace utf8guard

namespace {

using utf8guard::detail::c_bytes;
using utf8guard::detail::percent_form;
using utf8guard::detail::percent_scanner_life;
using utf8guard::detail::percent_validator_life;
using utf8guard::detail::to_c;
using utf8guard::detail::to_status;
using encoded_callback = utf8guard::detail::c_callback<utf8guard_encoded_callback>;

}  // namespace

extern "C" {

bool utf8guard_percent_is_valid(const char* data, size_t len, utf8guard_policy policy) {
  return utf8guard::percent::is_valid(c_bytes(data, len), utf8guard::policy::from_bits(policy));
}

utf8guard_encoded_result utf8guard_percent_validate(const char* data, size_t len,
                                                    utf8guard_policy policy) {
  return to_c(
      utf8guard::percent::validate(c_bytes(data, len), utf8guard::policy::from_bits(policy)));
}

bool utf8guard_is_valid_percent_encoded(const char* data, size_t len, utf8guard_policy policy) {
  return utf8guard_percent_is_valid(data, len, policy);
}

utf8guard_encoded_result utf8guard_validate_percent_encoded(const char* data, size_t len,
                                                            utf8guard_policy policy) {
  return utf8guard_percent_validate(data, len, policy);
}

utf8guard_status utf8guard_percent_decode(const char* data, size_t len, char* out, size_t cap,
                                          size_t* written) {
  using namespace utf8guard::detail;
  if (written == nullptr) return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  if (bad_span(data, len) || bad_span(out, cap)) {
    *written = 0;  // a refused call reports no bytes (utf8guard.h, conventions)
    return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  }
  if (cap >= len) {
    *written = decode_percent(c_bytes(data, len), out);
    return UTF8GUARD_STATUS_OK;
  }
  *written = decoded_size(c_bytes(data, len));
  if (*written > cap) return UTF8GUARD_STATUS_BUFFER_TOO_SMALL;
  decode_percent_to(c_bytes(data, len), out);
  return UTF8GUARD_STATUS_OK;
}

void utf8guard_percent_validator_init(utf8guard_percent_stream* s, utf8guard_policy policy) {
  if (s != nullptr) percent_validator_life::start(*s, policy);
}

utf8guard_encoded_result utf8guard_percent_validator_feed(utf8guard_percent_stream* s,
                                                          const char* data, size_t len) {
  return to_c(utf8guard::detail::encoded_validator_feed<percent_form>(s, c_bytes(data, len)));
}

utf8guard_encoded_result utf8guard_percent_validator_finish(utf8guard_percent_stream* s) {
  return to_c(utf8guard::detail::encoded_validator_finish<percent_form>(s));
}

void utf8guard_percent_scanner_init(utf8guard_percent_stream* s, utf8guard_policy policy) {
  if (s != nullptr) percent_scanner_life::start(*s, policy);
}

utf8guard_status utf8guard_percent_scanner_feed(utf8guard_percent_stream* s, const char* data,
                                                size_t len, utf8guard_encoded_callback on_error,
                                                void* ctx) {
  encoded_callback c{on_error, ctx};
  const bool went_on =
      utf8guard::detail::encoded_scanner_feed<percent_form>(s, c_bytes(data, len), c.each(), &c);
  return to_status<percent_scanner_life>(went_on, s);
}

utf8guard_status utf8guard_percent_scanner_finish(utf8guard_percent_stream* s,
                                                  utf8guard_encoded_callback on_error, void* ctx) {
  encoded_callback c{on_error, ctx};
  const bool went_on = utf8guard::detail::encoded_scanner_finish<percent_form>(s, c.each(), &c);
  return to_status<percent_scanner_life>(went_on, s);
}

size_t utf8guard_percent_scanner_errors(const utf8guard_percent_stream* s) {
  return percent_scanner_life::count(s, &utf8guard_percent_stream::priv_errors);
}

}  // extern "C"
