// json_text.cpp - sanitize and truncate for JSON text (docs/design.md,
// "JSON text"): JSON text in, JSON text out. Sanitize writes what the JSON
// scanner finds (stream/encoded_objects.hpp) as replacements; truncate walks
// the units of core/json.hpp.
#include <cstring>
#include <stdexcept>

#include "core/convert.hpp"
#include "core/json.hpp"
#include "stream/encoded_objects.hpp"

namespace utf8guard {
namespace detail {
namespace {

// A finding at an escape (a lone surrogate, a denied escaped character, a
// denied bad escape) becomes \ufffd, so that the output stays JSON text; a
// raw one becomes U+FFFD, as raw sanitizing writes it.
constexpr std::string_view kEscapedReplacement = "\\ufffd";
constexpr std::string_view kRawReplacement = "\xEF\xBF\xBD";

// json_writer copies the input to out[0..cap) with each finding replaced,
// as far as out holds it, and counts the whole output's size.
class json_writer {
 public:
  json_writer(std::string_view in, char* out, std::size_t cap) noexcept
      : in_(in), out_(out), cap_(cap) {}

  bool operator()(const encoded_result& r) noexcept {
    put(in_.substr(copied_, r.offset - copied_));
    put(in_[r.offset] == '\\' ? kEscapedReplacement : kRawReplacement);
    copied_ = r.offset + r.length;
    return true;
  }

  std::size_t end() noexcept {
    put(in_.substr(copied_));
    return total_;
  }

 private:
  void put(std::string_view s) noexcept {
    if (total_ < cap_)
      std::memcpy(out_ + total_, s.data(), s.size() < cap_ - total_ ? s.size() : cap_ - total_);
    total_ += s.size();
  }

  std::string_view in_;
  char* out_;
  std::size_t cap_;
  std::size_t copied_ = 0;
  std::size_t total_ = 0;
};

// json_sanitize_to writes the sanitized text of in to out[0..cap), as far
// as it fits, and returns the size of the whole output. Text without a
// backslash is sanitized as raw bytes.
std::size_t json_sanitize_to(std::string_view in, utf8guard_policy bits, char* out,
                             std::size_t cap) {
  if (in.empty()) return 0;
  const std::uint8_t* p = bytes(in.data());
  if (std::memchr(p, '\\', in.size()) == nullptr) {
    return bits == 0 ? utf8guard::sanitize_to(in, out, cap)
                     : utf8guard::sanitize_to(in, out, cap, policy::from_bits(bits));
  }
  utf8guard_json_stream s;
  json_scanner_life::start(s, bits);
  json_writer w(in, out, cap);
  encoded_run<json_form, json_writer> run(s, w);
  (void)run.feed(p, in.size());
  (void)run.finish();
  return w.end();
}

// json_cut is the longest prefix of in of at most max bytes that ends at a
// unit of JSON text (an escape or an escaped pair whole) and, inside a raw
// run, where utf8guard::truncate keeps ill-formed subparts whole.
std::size_t json_cut(std::string_view in, std::size_t max) noexcept {
  const std::uint8_t* p = bytes(in.data());
  const std::size_t n = in.size();
  if (max >= n) return n;
  std::size_t i = 0;
  while (i < max) {
    if (p[i] == '\\') {
      const std::size_t w = json_escape_at(p + i, n - i, true).width;
      if (i + w > max) return i;
      i += w;
      continue;
    }
    const void* bs = std::memchr(p + i, '\\', n - i);
    const std::size_t j =
        bs == nullptr ? n : static_cast<std::size_t>(static_cast<const std::uint8_t*>(bs) - p);
    if (max < j) {
      return i + utf8guard::truncate(in.substr(i, j - i), max - i, truncate_mode::keep_ill_formed)
                     .size();
    }
    i = j;
  }
  return i;
}

}  // namespace
}  // namespace detail

namespace json {

std::string sanitize(std::string_view bytes, policy p) {
  if (detail::bad_span(bytes)) {
    throw std::invalid_argument("utf8guard::json::sanitize: a null view of non-zero size");
  }
  std::string out(bytes.size(), '\0');
  const std::size_t n = detail::json_sanitize_to(bytes, p.bits(), out.data(), out.size());
  if (n > out.size()) {
    out.resize(n);
    (void)detail::json_sanitize_to(bytes, p.bits(), out.data(), out.size());
  }
  out.resize(n);
  return out;
}

std::string_view truncate(std::string_view bytes, std::size_t max, truncate_mode mode) noexcept {
  if (detail::bad_span(bytes)) return {};
  if (mode != truncate_mode::well_formed && mode != truncate_mode::keep_ill_formed) return {};
  const std::size_t cut = detail::json_cut(bytes, max);
  if (mode == truncate_mode::keep_ill_formed) return bytes.substr(0, cut);
  const encoded_result r = validate(bytes.substr(0, cut));
  return bytes.substr(0, r.ok() ? cut : r.offset);
}

}  // namespace json
}  // namespace utf8guard

extern "C" {

utf8guard_status utf8guard_json_sanitize_bound(size_t len, size_t* bound) {
  if (bound == nullptr) return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  // The longest replacement, \ufffd, stands for one byte at least.
  if (len > SIZE_MAX / 6) {
    *bound = 0;
    return UTF8GUARD_STATUS_OVERFLOW;
  }
  *bound = 6 * len;
  return UTF8GUARD_STATUS_OK;
}

utf8guard_status utf8guard_json_sanitize(const char* data, size_t len, utf8guard_policy policy,
                                         char* out, size_t cap, size_t* written) {
  using utf8guard::detail::bad_span;
  if (bad_span(data, len) || bad_span(out, cap)) {
    if (written != nullptr) *written = 0;
    return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  }
  const size_t n =
      utf8guard::detail::json_sanitize_to(std::string_view(data, len), policy, out, cap);
  if (written != nullptr) *written = n;
  return n > cap ? UTF8GUARD_STATUS_BUFFER_TOO_SMALL : UTF8GUARD_STATUS_OK;
}

size_t utf8guard_json_truncate(const char* data, size_t len, size_t max,
                               utf8guard_truncate_mode mode) {
  const int m = utf8guard::detail::c_int(mode);
  if (m != UTF8GUARD_TRUNCATE_WELL_FORMED && m != UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED) return 0;
  return utf8guard::json::truncate(std::string_view(data, len), max,
                                   static_cast<utf8guard::truncate_mode>(m))
      .size();
}

}  // extern "C"
