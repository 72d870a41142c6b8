// describe.cpp - the message for one result, as the CLI prints it after
// "PATH:LINE:COLUMN: " (docs/design.md, "Messages"), and the hint of an
// encoded_result. One formatter: the CLI, the C API and the C++ API all call
// describe_window.
#include <cstring>
#include <stdexcept>

#include "core/convert.hpp"
#include "core/hints.hpp"
#include "core/json.hpp"
#include "core/percent_window.hpp"

namespace utf8guard::detail {
namespace {

// kShown is how many bytes a message shows from the error's offset.
constexpr unsigned kShown = 4;
constexpr unsigned kBehind = UTF8GUARD_DESCRIBE_BEHIND;
constexpr unsigned kAhead = UTF8GUARD_DESCRIBE_AHEAD;

// checked_window holds the checked bytes around an error (the input's own
// bytes, or the decoded ones of percent-encoded input): the error's first
// byte is bytes[at], and at_input_start says whether it is the first byte of
// the whole checked input (the utf16_bom hint exists only there).
// For a finding at an escape of JSON text, escape is the escape as written
// and unit the code point (or UTF-16 unit) it stands for.
struct checked_window {
  std::uint8_t bytes[kBehind + kAhead];
  unsigned at = 0;
  unsigned size = 0;
  bool at_input_start = false;
  char escape[kJsonMaxUnit];
  unsigned escape_len = 0;
  char32_t unit = 0;
};

// line is a message being built; it never outgrows describe_max.
class line {
 public:
  void text(std::string_view s) noexcept {
    std::memcpy(buf_ + n_, s.data(), s.size());
    n_ += s.size();
  }
  void number(std::uint64_t v) noexcept {
    char digits[20];
    unsigned k = 0;
    do {
      digits[k++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (k != 0) buf_[n_++] = digits[--k];
  }
  void hex_digits(std::uint32_t v, int digits) noexcept {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    for (int k = digits - 1; k >= 0; --k) buf_[n_++] = kDigits[(v >> (4 * k)) & 0xF];
  }
  // code_point appends "U+" and 4 to 8 uppercase hex digits, as many as the
  // value needs (docs/design.md: values print as U+002F, U+1F600, U+110000).
  void code_point(std::uint32_t v) noexcept {
    text("U+");
    int digits = 4;
    while (digits < 8 && (v >> (4 * digits)) != 0) ++digits;
    hex_digits(v, digits);
  }
  void bytes(const std::uint8_t* p, unsigned n) noexcept {
    for (unsigned k = 0; k < n; ++k) {
      if (k != 0) buf_[n_++] = ' ';
      hex_digits(p[k], 2);
    }
  }
  // copy_to is snprintf's ending: as much as fits, NUL-terminated.
  std::size_t copy_to(char* out, std::size_t cap) const noexcept {
    if (cap != 0) {
      const std::size_t n = n_ < cap ? n_ : cap - 1;
      std::memcpy(out, buf_, n);
      out[n] = '\0';
    }
    return n_;
  }

 private:
  char buf_[UTF8GUARD_DESCRIBE_MAX];
  std::size_t n_ = 0;
};

hint window_hint(const checked_window& w) noexcept {
  if (w.size == 0) return {};
  const hint h = explain_at(w.bytes, w.size, w.at);
  if (h.kind == hint_kind::utf16_bom && !w.at_input_start) return {};
  return h;
}

std::size_t describe_window(const result& r, const checked_window& w, unsigned flags, char* out,
                            std::size_t cap) noexcept {
  line l;
  l.text(to_string(r.kind));
  if (r.kind == error::none) return l.copy_to(out, cap);
  if (r.kind == error::disallowed) {
    l.text(" ");
    l.text(to_string(r.category));
  }
  if (w.escape_len != 0) {
    l.text(" ");
    l.text(std::string_view(w.escape, w.escape_len));
    l.text(" ");
    l.code_point(w.unit);
  } else if (r.kind == error::disallowed) {
    l.text(" ");
    l.code_point(r.code_point);
  }
  l.text(" at byte ");
  l.number(r.offset);
  if (r.kind == error::invalid_argument) return l.copy_to(out, cap);
  const unsigned ahead = w.size - w.at;
  l.text(" (");
  l.bytes(w.bytes + w.at, ahead < kShown ? ahead : kShown);
  l.text(")");
  if ((flags & UTF8GUARD_DESCRIBE_HINT) != 0 && r.kind != error::disallowed) {
    const hint h = window_hint(w);
    if (h.kind != hint_kind::none) {
      l.text(" [");
      l.text(to_string(h.kind));
      if (h.has_value) {
        l.text(" ");
        l.code_point(h.value);
      }
      l.text("]");
    }
  }
  return l.copy_to(out, cap);
}

// window_of copies the bytes of data[0..len) (the input from offset base
// on) around the error of r.
checked_window window_of(std::string_view data, std::size_t base, const result& r) noexcept {
  const std::size_t offset = r.offset;
  checked_window w;
  w.at_input_start = offset == 0;
  if (offset < base || offset - base > data.size()) return w;
  const std::size_t at = offset - base;
  const std::size_t from = at < kBehind ? 0 : at - kBehind;
  const std::size_t left = data.size() - at;
  const std::size_t to = at + (left < kAhead ? left : kAhead);
  std::memcpy(w.bytes, data.data() + from, to - from);
  w.at = static_cast<unsigned>(at - from);
  w.size = static_cast<unsigned>(to - from);
  return w;
}

// The forms of input a message is about: a result of raw bytes, or an
// encoded_result of percent-encoded input or of JSON text.
struct raw_form {};
struct percent_form {};
struct json_form {};

checked_window window_of(std::string_view data, std::size_t base, const result& r,
                         raw_form) noexcept {
  return window_of(data, base, r);
}

// window_of for percent-encoded input decodes the encoded bytes of
// data[0..len) (the input from encoded offset base on) around the error of r.
checked_window window_of(std::string_view data, std::size_t base, const encoded_result& r,
                         percent_form) noexcept {
  checked_window w;
  w.at_input_start = r.decoded_offset == 0;
  if (r.offset < base || r.offset - base > data.size()) return w;
  const std::size_t at = r.offset - base;
  const auto* enc = bytes(data.data());
  w.at = decode_behind(enc, at, base == 0, w.bytes, kBehind);
  w.size = w.at + decode_ahead(enc + at, data.size() - at, w.bytes + w.at, kAhead);
  return w;
}

// json_ahead writes to out the bytes that the first units of JSON text
// enc[0..n) decode to (a lone surrogate as its generalized UTF-8), at most
// max of them, and returns how many. The window's end is taken as the
// input's.
unsigned json_ahead(const std::uint8_t* enc, std::size_t n, std::uint8_t* out,
                    unsigned max) noexcept {
  unsigned got = 0;
  for (std::size_t i = 0; i < n && got < max;) {
    if (enc[i] != '\\') {
      out[got++] = enc[i++];
      continue;
    }
    const json_unit u = json_escape_at(enc + i, n - i, true);
    std::uint8_t decoded[4] = {'\\'};
    const std::size_t len = u.kind == json_unit_kind::bad ? 1 : json_utf8(u.value, decoded);
    for (std::size_t k = 0; k < len && got < max; ++k) out[got++] = decoded[k];
    i += u.width;
  }
  return got;
}

// window_of for JSON text decodes the encoded bytes of data[0..len) (the
// input from encoded offset base on) from the error of r on. Behind it, it
// takes only the raw bytes above 7F right before it: an escape is ASCII, so
// they are raw, while walking back over ASCII is ambiguous (\\).
checked_window window_of(std::string_view data, std::size_t base, const encoded_result& r,
                         json_form) noexcept {
  checked_window w;
  w.at_input_start = r.decoded_offset == 0;
  if (r.offset < base || r.offset - base > data.size()) return w;
  const std::size_t at = r.offset - base;
  const auto* enc = bytes(data.data());
  unsigned behind = 0;
  while (behind < kBehind && behind < at && enc[at - 1 - behind] >= 0x80) ++behind;
  std::memcpy(w.bytes, enc + at - behind, behind);
  w.at = behind;
  const std::size_t left = data.size() - at;
  w.size = w.at + json_ahead(enc + at, left, w.bytes + w.at, kAhead);
  if (left != 0 && enc[at] == '\\') {
    const json_unit u = json_escape_at(enc + at, left, true);
    if (u.kind != json_unit_kind::bad && u.width == r.length) {
      std::memcpy(w.escape, enc + at, u.width);
      w.escape_len = u.width;
      w.unit = u.value;
    }
  }
  return w;
}

// as_string is describe into a std::string; a lost view would drop the
// bytes without a word, so it throws.
template <class Form, class Result>
std::string as_string(std::string_view data, const Result& r, unsigned flags, std::size_t base) {
  if (bad_span(data)) {
    throw std::invalid_argument("utf8guard::describe: a null view of non-zero size");
  }
  char buf[UTF8GUARD_DESCRIBE_MAX];
  const std::size_t n =
      describe_window(r, window_of(data, base, r, Form{}), flags, buf, sizeof buf);
  return std::string(buf, n);
}

// describe_to is describe into a caller's buffer, refused on a caller bug.
template <class Form, class Result>
std::size_t describe_to(std::string_view data, const Result& r, char* out, std::size_t cap,
                        unsigned flags, std::size_t base) noexcept {
  if (bad_span(data) || bad_span(out, cap)) return 0;
  return describe_window(r, window_of(data, base, r, Form{}), flags, out, cap);
}

template <class Form>
hint explain_of(std::string_view data, const encoded_result& r, std::size_t base) noexcept {
  if (bad_span(data)) return {};
  return window_hint(window_of(data, base, r, Form{}));
}

}  // namespace
}  // namespace utf8guard::detail

namespace utf8guard {

using detail::raw_form;

std::string describe(std::string_view bytes, const result& r, unsigned flags, std::size_t base) {
  return detail::as_string<raw_form>(bytes, r, flags, base);
}

std::size_t describe(std::string_view bytes, const result& r, char* out, std::size_t cap,
                     unsigned flags, std::size_t base) noexcept {
  return detail::describe_to<raw_form>(bytes, r, out, cap, flags, base);
}

namespace percent {

using detail::percent_form;

std::string describe(std::string_view bytes, const encoded_result& r, unsigned flags,
                     std::size_t base) {
  return detail::as_string<percent_form>(bytes, r, flags, base);
}

std::size_t describe(std::string_view bytes, const encoded_result& r, char* out, std::size_t cap,
                     unsigned flags, std::size_t base) noexcept {
  return detail::describe_to<percent_form>(bytes, r, out, cap, flags, base);
}

hint explain(std::string_view bytes, const encoded_result& r, std::size_t base) noexcept {
  return detail::explain_of<percent_form>(bytes, r, base);
}

}  // namespace percent

namespace json {

using detail::json_form;

std::string describe(std::string_view bytes, const encoded_result& r, unsigned flags,
                     std::size_t base) {
  return detail::as_string<json_form>(bytes, r, flags, base);
}

std::size_t describe(std::string_view bytes, const encoded_result& r, char* out, std::size_t cap,
                     unsigned flags, std::size_t base) noexcept {
  return detail::describe_to<json_form>(bytes, r, out, cap, flags, base);
}

hint explain(std::string_view bytes, const encoded_result& r, std::size_t base) noexcept {
  return detail::explain_of<json_form>(bytes, r, base);
}

}  // namespace json

// The older names.
std::string describe(std::string_view bytes, const encoded_result& r, unsigned flags,
                     std::size_t base) {
  return percent::describe(bytes, r, flags, base);
}

std::size_t describe(std::string_view bytes, const encoded_result& r, char* out, std::size_t cap,
                     unsigned flags, std::size_t base) noexcept {
  return percent::describe(bytes, r, out, cap, flags, base);
}

hint explain(std::string_view bytes, const encoded_result& r, std::size_t base) noexcept {
  return percent::explain(bytes, r, base);
}

}  // namespace utf8guard

extern "C" {

size_t utf8guard_describe(const char* data, size_t len, size_t base, utf8guard_result result,
                          unsigned flags, char* out, size_t cap) {
  return utf8guard::describe(utf8guard::detail::c_bytes(data, len),
                             utf8guard::detail::from_caller(result), out, cap, flags, base);
}

size_t utf8guard_percent_describe(const char* data, size_t len, size_t base,
                                  utf8guard_encoded_result result, unsigned flags, char* out,
                                  size_t cap) {
  return utf8guard::percent::describe(utf8guard::detail::c_bytes(data, len),
                                      utf8guard::detail::from_caller(result), out, cap, flags,
                                      base);
}

utf8guard_hint utf8guard_percent_explain(const char* data, size_t len, size_t base,
                                         utf8guard_encoded_result result) {
  const utf8guard::hint h = utf8guard::percent::explain(
      utf8guard::detail::c_bytes(data, len), utf8guard::detail::from_caller(result), base);
  return utf8guard::detail::to_c(h);
}

size_t utf8guard_json_describe(const char* data, size_t len, size_t base,
                               utf8guard_encoded_result result, unsigned flags, char* out,
                               size_t cap) {
  return utf8guard::json::describe(utf8guard::detail::c_bytes(data, len),
                                   utf8guard::detail::from_caller(result), out, cap, flags, base);
}

utf8guard_hint utf8guard_json_explain(const char* data, size_t len, size_t base,
                                      utf8guard_encoded_result result) {
  const utf8guard::hint h = utf8guard::json::explain(utf8guard::detail::c_bytes(data, len),
                                                     utf8guard::detail::from_caller(result), base);
  return utf8guard::detail::to_c(h);
}

size_t utf8guard_describe_percent(const char* data, size_t len, size_t base,
                                  utf8guard_encoded_result result, unsigned flags, char* out,
                                  size_t cap) {
  return utf8guard_percent_describe(data, len, base, result, flags, out, cap);
}

utf8guard_hint utf8guard_explain_percent(const char* data, size_t len, size_t base,
                                         utf8guard_encoded_result result) {
  return utf8guard_percent_explain(data, len, base, result);
}

}  // extern "C"
