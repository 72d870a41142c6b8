// percent.cpp - the entry points for percent-encoded input: one-shot and
// streaming, C++ and C. What they do is in stream/percent_engine.hpp; the
// life of the streaming object (refusals, sticky errors) is that of the
// validator and the error_scanner (stream/objects.hpp).
#include <cstring>
#include <stdexcept>

#include "api/validate.hpp"
#include "core/convert.hpp"
#include "kernels/dispatch.hpp"
#include "stream/percent_engine.hpp"
#include "stream/policy_scan.hpp"

namespace utf8guard {
namespace detail {
namespace {

utf8guard_percent_result refused_at(std::size_t offset) noexcept {
  utf8guard_percent_result r{};
  r.error = kRefusedC;
  r.error.offset = offset;
  return r;
}

void start_percent(utf8guard_percent_stream& s, utf8guard_policy policy, bool scanner) noexcept {
  start(s, policy);
  start(s.priv_decoded, policy);
  s.priv_scanner = scanner ? 1 : 0;
}

// The validator's sink keeps the first error and stops.
struct first_error_sink {
  utf8guard_percent_result& kept;
  bool operator()(const utf8guard_percent_result& r) noexcept {
    kept = r;
    return false;
  }
};

// The scanner's sink counts and calls the caller's callback.
struct callback_sink {
  utf8guard_percent_callback on_error;
  void* ctx;
  std::size_t& count;
  bool operator()(const utf8guard_percent_result& r) {
    ++count;
    return on_error(ctx, r);
  }
};

bool is_validator(const utf8guard_percent_stream* s) noexcept {
  return s != nullptr && initialised(s->priv_state) && s->priv_scanner == 0;
}

// percent_validator_settled answers a validator call that does not run, as
// validator_settled does for the plain validator.
utf8guard_percent_result percent_validator_settled(utf8guard_percent_stream* s, std::size_t n,
                                                   bool feeding) noexcept {
  if (!is_validator(s)) return refused_at(0);
  switch (s->priv_state) {
    case kOpen:
      if (feeding && n == 0) return s->priv_error;  // (nullptr, 0): the empty chunk
      [[fallthrough]];
    case kFinished:
      if (!feeding) return s->priv_error;  // a second finish
      s->priv_error = refused_at(s->priv_position);
      s->priv_state = kMisused;
      break;
    default: break;  // stopped or misused: the verdict stands
  }
  s->priv_position += n;
  return s->priv_error;
}

utf8guard_percent_result percent_validator_feed(utf8guard_percent_stream* s,
                                                std::string_view chunk) {
  if (!is_validator(s) || s->priv_state != kOpen || chunk.data() == nullptr) {
    return percent_validator_settled(s, chunk.size(), true);
  }
  first_error_sink sink{s->priv_error};
  percent_run<first_error_sink> run(*s, sink);
  if (!run.feed(bytes(chunk.data()), chunk.size())) s->priv_state = kStopped;
  return s->priv_error;
}

utf8guard_percent_result percent_validator_finish(utf8guard_percent_stream* s) {
  if (!is_validator(s) || s->priv_state != kOpen) return percent_validator_settled(s, 0, false);
  first_error_sink sink{s->priv_error};
  percent_run<first_error_sink> run(*s, sink);
  s->priv_state = run.finish() ? kFinished : kStopped;
  return s->priv_error;
}

bool scanner_runs(const utf8guard_percent_stream* s, bool has_chunk, bool has_callback) noexcept {
  return runs(s, has_chunk, has_callback) && s->priv_scanner == 1;
}

utf8guard_status percent_scanner_feed(utf8guard_percent_stream* s, std::string_view chunk,
                                      utf8guard_percent_callback on_error, void* ctx) {
  if (!scanner_runs(s, chunk.data() != nullptr, on_error != nullptr)) {
    if (s != nullptr && s->priv_scanner != 1)
      return UTF8GUARD_STATUS_INVALID_ARGUMENT;  // not written
    return settled(s, bad_span(chunk) || on_error == nullptr, false);
  }
  callback_sink sink{on_error, ctx, s->priv_errors};
  percent_run<callback_sink> run(*s, sink);
  return settle(s, run.feed(bytes(chunk.data()), chunk.size()), false);
}

utf8guard_status percent_scanner_finish(utf8guard_percent_stream* s,
                                        utf8guard_percent_callback on_error, void* ctx) {
  if (!scanner_runs(s, true, on_error != nullptr)) {
    if (s != nullptr && s->priv_scanner != 1)
      return UTF8GUARD_STATUS_INVALID_ARGUMENT;  // not written
    return settled(s, on_error == nullptr, true);
  }
  callback_sink sink{on_error, ctx, s->priv_errors};
  percent_run<callback_sink> run(*s, sink);
  return settle(s, run.finish(), true);
}

// validate_percent is the one-shot check. just_verdict: only whether the
// input is valid matters (is_valid); the kind of an invalid answer is then
// meaningless.
utf8guard_percent_result validate_percent(std::string_view in, utf8guard_policy bits,
                                          bool just_verdict = false) {
  if (bad_span(in)) return refused_at(0);
  if (in.empty()) return {};  // also keeps a (nullptr, 0) view away from memchr
  const std::uint8_t* p = bytes(in.data());
  const std::size_t n = in.size();
  // Input without escapes is validated in one pass: the kernel's scan,
  // which stops at the first '%' (the scalar kernel looks for one first).
  const kernel& k = active_kernel_ref();
  const std::size_t pos = k.scan_no_percent != nullptr        ? k.scan_no_percent(p, n)
                          : std::memchr(p, '%', n) != nullptr ? kSawPercent
                                                              : k.scan(p, n);
  if (pos != kSawPercent) {
    // The decoded bytes are the input up to here, and an error at pos is
    // certain (the bytes that reveal it are raw): validate's answer.
    utf8guard_percent_result r{};
    if (pos != n) r.error = to_c(classify_scan(p, n, pos).unpacked());
    if (bits != 0) {
      const result v =
          find_violation(p, r.error.kind == UTF8GUARD_ERROR_NONE ? n : r.error.offset, 0, bits);
      if (!v.ok()) r.error = to_c(v);
    }
    r.decoded_offset = r.error.offset;
    r.decoded_length = r.error.length;
    return r;
  }
  utf8guard_percent_stream s;
  start_percent(s, bits, false);
  first_error_sink sink{s.priv_error};
  percent_run<first_error_sink> run(s, sink);
  if (in.size() <= kPercentWindow) {
    // A short input, the common call (a header, a URL): decode it whole and
    // validate the decoded bytes in one call; only an error needs the mapping
    // of the stream engine, which then runs from the start.
    alignas(64) std::uint8_t decoded[kPercentWindow + kPercentSlack];
    std::size_t len = 0;
    if (run.decode_short(bytes(in.data()), in.size(), decoded, len) &&
        (just_verdict
             ? utf8guard::is_valid(std::string_view(reinterpret_cast<const char*>(decoded), len),
                                   policy::from_bits(bits))
             : utf8guard::validate(std::string_view(reinterpret_cast<const char*>(decoded), len),
                                   policy::from_bits(bits))
                   .ok())) {
      return {};
    }
    if (just_verdict) return refused_at(0);  // any non-none kind: not valid
    start_percent(s, bits, false);
  }
  if (run.feed(bytes(in.data()), in.size())) (void)run.finish();
  return s.priv_error;
}

// decode_percent writes the decoded bytes of in to out (room for in.size()
// bytes) and returns how many.
std::size_t decode_percent(std::string_view in, char* out) {
  utf8guard_percent_stream s;
  start_percent(s, 0, true);
  no_sink sink;
  return percent_run<no_sink>(s, sink).decode_all(bytes(in.data()), in.size(), out);
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

bool is_valid_percent_encoded(std::string_view bytes, policy p) noexcept {
  return detail::validate_percent(bytes, p.bits(), true).error.kind == UTF8GUARD_ERROR_NONE;
}

percent_result validate_percent_encoded(std::string_view bytes, policy p) noexcept {
  return detail::from_c(detail::validate_percent(bytes, p.bits()));
}

std::string percent_decode(std::string_view bytes) {
  if (detail::bad_span(bytes)) throw std::invalid_argument("utf8guard::percent_decode: null data");
  std::string out(bytes.size(), '\0');
  out.resize(detail::decode_percent(bytes, out.data()));
  return out;
}

percent_validator::percent_validator(policy p) noexcept {
  detail::start_percent(state_, p.bits(), false);
}

percent_result percent_validator::feed(std::string_view chunk) noexcept {
  return detail::from_c(detail::percent_validator_feed(&state_, chunk));
}

percent_result percent_validator::finish() noexcept {
  return detail::from_c(detail::percent_validator_finish(&state_));
}

void percent_validator::reset() noexcept {
  detail::start_percent(state_, state_.priv_policy, false);
}

std::size_t percent_validator::bytes_fed() const noexcept { return state_.priv_position; }

percent_scanner::percent_scanner(policy p) noexcept {
  detail::start_percent(state_, p.bits(), true);
}

bool percent_scanner::feed_raw(std::string_view chunk, utf8guard_percent_callback cb, void* ctx) {
  return detail::percent_scanner_feed(&state_, chunk, cb, ctx) == UTF8GUARD_STATUS_OK;
}

bool percent_scanner::finish_raw(utf8guard_percent_callback cb, void* ctx) {
  return detail::percent_scanner_finish(&state_, cb, ctx) == UTF8GUARD_STATUS_OK;
}

void percent_scanner::reset() noexcept { detail::start_percent(state_, state_.priv_policy, true); }

std::size_t percent_scanner::errors() const noexcept { return state_.priv_errors; }

}  // namespace utf8guard

extern "C" {

bool utf8guard_is_valid_percent_encoded(const char* data, size_t len, utf8guard_policy policy) {
  return utf8guard::is_valid_percent_encoded(utf8guard::detail::c_bytes(data, len),
                                             utf8guard::policy::from_bits(policy));
}

utf8guard_percent_result utf8guard_validate_percent_encoded(const char* data, size_t len,
                                                            utf8guard_policy policy) {
  return utf8guard::detail::validate_percent(utf8guard::detail::c_bytes(data, len), policy);
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
  if (s != nullptr) utf8guard::detail::start_percent(*s, policy, false);
}

utf8guard_percent_result utf8guard_percent_validator_feed(utf8guard_percent_stream* s,
                                                          const char* data, size_t len) {
  return utf8guard::detail::percent_validator_feed(s, utf8guard::detail::c_bytes(data, len));
}

utf8guard_percent_result utf8guard_percent_validator_finish(utf8guard_percent_stream* s) {
  return utf8guard::detail::percent_validator_finish(s);
}

void utf8guard_percent_scanner_init(utf8guard_percent_stream* s, utf8guard_policy policy) {
  if (s != nullptr) utf8guard::detail::start_percent(*s, policy, true);
}

utf8guard_status utf8guard_percent_scanner_feed(utf8guard_percent_stream* s, const char* data,
                                                size_t len, utf8guard_percent_callback on_error,
                                                void* ctx) {
  return utf8guard::detail::percent_scanner_feed(s, utf8guard::detail::c_bytes(data, len), on_error,
                                                 ctx);
}

utf8guard_status utf8guard_percent_scanner_finish(utf8guard_percent_stream* s,
                                                  utf8guard_percent_callback on_error, void* ctx) {
  return utf8guard::detail::percent_scanner_finish(s, on_error, ctx);
}

size_t utf8guard_percent_scanner_errors(const utf8guard_percent_stream* s) {
  if (s == nullptr || s->priv_scanner != 1) return SIZE_MAX;
  return utf8guard::detail::count_of(s, &utf8guard_percent_stream::priv_errors);
}

}  // extern "C"
