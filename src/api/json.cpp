// json.cpp - the entry points for JSON text: one-shot and streaming, C++ and
// C (C++ implements, C wraps: see stream.cpp). What they do is in
// stream/json_engine.hpp over stream/encoded_engine.hpp; the streaming
// objects' life is every stream's, stream_life (stream/encoded_objects.hpp).
#include <cstring>

#include "api/one_shot.hpp"
#include "api/validate.hpp"
#include "core/convert.hpp"
#include "kernels/dispatch.hpp"
#include "stream/encoded_objects.hpp"

namespace utf8guard {
namespace detail {
namespace {

// raw_run is where a run of raw bytes ends (at a backslash, or the input's
// end) and what json_raw_run found in it. to_end: r holds for all of the
// raw bytes to the input's end, not just the run's (see json_raw_run).
struct raw_run {
  std::size_t end;
  result r;
  bool to_end;
};

// json_raw_run checks the raw bytes of p[0..n) up to the first backslash
// (p[0], at absolute offset base, starts a character) as validate checks raw
// text under deny, in its passes (api/one_shot.hpp), each of which also
// stops at a backslash: the quiet ASCII prefix (unless quiet_done: the
// caller's stopped at p[0]), the kernel's scan
// (scan_no_backslash), the policy. end is the backslash's offset in p, or n;
// r is validate's answer for p[0..n) when end is n, else ok, or some error
// before end, which the engine places. A raw run ends every sequence before
// the escape after it (an escape decodes to a whole character, whose first
// byte is no continuation byte), so it is checked on its own.
// When the kernel's scan meets a backslash, the raw bytes are checked to the
// input's end at once instead (to_end), escapes and all, in one scan and one
// policy pass: an escape's bytes are printable ASCII, which no category
// holds and no sequence spans, so the whole is valid exactly when each raw
// run in it is. The runs after the first are then not checked again.
raw_run json_raw_run(const kernel& k, const std::uint8_t* p, std::size_t n, std::size_t base,
                     utf8guard_policy deny, bool quiet_done = false) noexcept {
  std::size_t q = 0;
  if (deny != 0 && !quiet_done) {
    q = quiet_ascii_prefix(p, n, deny, kBackslash);
    if (q == n) return {n, {}, false};
    if (p[q] == kBackslash) return {q, {}, false};
  }
  const std::uint8_t* rest = p + q;
  const std::size_t len = n - q;
  std::size_t pos = k.scan_no_backslash(rest, len);
  std::size_t end = len;
  const bool to_end = pos == kSawStop;
  if (to_end) {
    pos = k.scan(rest, len);
    if (pos != len) return {q, kRefused, true};
    // SAFETY: the scan met a backslash in rest[0..len).
    const void* bs = std::memchr(rest, kBackslash, len);
    end = static_cast<std::size_t>(static_cast<const std::uint8_t*>(bs) - rest);
  }
  result r;
  if (pos != len) {  // no backslash: validate's error, and the policy's before it
    r = classify_scan(rest, len, pos).unpacked();
    r.offset += base + q;
    if (deny == 0 || r.offset == base + q) return {n, r, false};
  }
  if (deny != 0) r = policy_first(rest, len, r, base + q, deny, true);
  return {q + end, r, to_end};
}

// What json_by_runs found: the input is valid, or not, or its escapes come
// too densely for runs to pay.
enum class by_runs { valid, invalid, dense };

// json_by_runs checks p[0..n) from the escape at p[i] on, where p[0..i) is
// valid: each raw run by json_raw_run, each escape decoded by json_unit_at
// (the engine's decoder's) and its character held to deny, as the engine
// holds it (stream/json_engine.hpp). Exact: the decoded text is valid exactly
// when every run and every escape is. Once a run was checked to_end (as the
// one before p[i] was, with raw_checked), the next escape is found by memchr.
// Runs of escapes denser than one per kEncodedMinRun bytes, after the first
// few, are left to the engine, which decodes them into a window that the
// kernel reads in one call.
by_runs json_by_runs(const kernel& k, const std::uint8_t* p, std::size_t n, std::size_t i,
                     utf8guard_policy deny, bool raw_checked) noexcept {
  constexpr std::size_t kFewUnits = 8;
  const bool deny_bad = (deny & UTF8GUARD_CATEGORY_BAD_ESCAPE) != 0;
  std::size_t units = 0;
  for (;;) {
    do {  // the escapes from the backslash p[i]
      if (++units > kFewUnits && units * kEncodedMinRun > i) return by_runs::dense;
      const json_unit u = json_unit_at(p + i, n - i, true);
      if (u.kind == json_unit_kind::lone) return by_runs::invalid;
      if (u.kind == json_unit_kind::bad) {
        // The literal backslash, in no category; the byte after it is raw,
        // and never a backslash (a bad escape's second byte is none).
        if (deny_bad) return by_runs::invalid;
        i += 1;
        break;
      }
      if ((category_of(u.value, i == 0) & deny) != 0) return by_runs::invalid;
      i += u.width;
    } while (i < n && p[i] == kBackslash);
    if (i == n) return by_runs::valid;
    if (raw_checked) {
      const void* bs = std::memchr(p + i, kBackslash, n - i);
      if (bs == nullptr) return by_runs::valid;
      i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(bs) - p);
      continue;
    }
    const raw_run run = json_raw_run(k, p + i, n - i, i, deny);
    if (!run.r.ok()) return by_runs::invalid;
    raw_checked = run.to_end;
    i += run.end;
    if (i == n) return by_runs::valid;
  }
}

// The one-shot check is the first of these that answers. just_verdict: only
// whether the input is valid matters (is_valid); the kind of an invalid
// answer is then meaningless.
//   1. Quiet ASCII with the escapes in it, to the end (quiet_json_prefix).
//   2. Text without a backslash decodes to itself: validate's answer, found
//      in validate's passes (json_raw_run).
//   3. Raw runs between escapes (json_by_runs), unless escapes are dense.
//   4. A short text is decoded whole and validated in one call
//      (encoded_short_valid), when no event comes up.
//   5. Anything else, or an error to place, takes the validator's engine.
// Steps 2 and 3 go on from where step 1 stopped; an error after an escape
// step 1 passed is placed by the engine.
encoded_result validate_json(std::string_view in, utf8guard_policy bits, bool just_verdict) {
  using kind = encoded_kind<json_form, 0>;
  if (bad_span(in)) return kind::refused();
  if (in.empty()) return {};
  const std::uint8_t* p = bytes(in.data());
  const std::size_t n = in.size();
  const kernel& k = active_kernel_ref();
  const quiet_json quiet = bits != 0 ? quiet_json_prefix(p, n, bits) : quiet_json{0, false};
  if (quiet.end == n) return {};
  // From where step 1 stopped: a raw byte, or an escape (dense, or one to
  // place); p[0..q) is valid.
  const std::size_t q = quiet.end;
  by_runs runs = by_runs::invalid;
  if (p[q] == kBackslash) {
    runs = json_by_runs(k, p, n, q, bits, false);
  } else {
    const raw_run first = json_raw_run(k, p + q, n - q, q, bits, true);
    const std::size_t end = q + first.end;
    if (end == n && !quiet.escaped) {
      encoded_result r;
      static_cast<result&>(r) = first.r;
      r.decoded_offset = r.offset;
      r.decoded_length = r.length;
      return r;
    }
    if (first.r.ok()) {
      runs = end == n ? by_runs::valid : json_by_runs(k, p, n, end, bits, first.to_end);
    }
  }
  if (runs == by_runs::valid) return {};
  if (just_verdict && runs == by_runs::invalid) return kind::refused();  // any non-none kind
  if (runs == by_runs::dense && n <= kEncodedWindow) {
    if (encoded_short_valid<json_form>(p, n, bits, just_verdict)) return {};
    if (just_verdict) return kind::refused();
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
