// describe.cpp - the message for one result, as the CLI prints it after
// "PATH:LINE:COLUMN: " (docs/design.md, "Messages"), and the hint of a
// percent_result. One formatter: the CLI, the C API and the C++ API all call
// describe_window.
#include <cstring>
#include <stdexcept>

#include "core/convert.hpp"
#include "core/hints.hpp"
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
struct checked_window {
  std::uint8_t bytes[kBehind + kAhead];
  unsigned at = 0;
  unsigned size = 0;
  bool at_input_start = false;
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

// window_of for a percent_result decodes the encoded bytes of data[0..len) (the input from
// encoded offset base on) around the error of r.
checked_window window_of(std::string_view data, std::size_t base,
                         const percent_result& r) noexcept {
  checked_window w;
  w.at_input_start = r.decoded_offset == 0;
  if (r.offset < base || r.offset - base > data.size()) return w;
  const std::size_t at = r.offset - base;
  const auto* enc = bytes(data.data());
  w.at = decode_behind(enc, at, base == 0, w.bytes, kBehind);
  w.size = w.at + decode_ahead(enc + at, data.size() - at, w.bytes + w.at, kAhead);
  return w;
}

// as_string is describe into a std::string; a lost view would drop the
// bytes without a word, so it throws.
template <class Result>
std::string as_string(std::string_view data, const Result& r, unsigned flags, std::size_t base) {
  if (bad_span(data)) {
    throw std::invalid_argument("utf8guard::describe: a null view of non-zero size");
  }
  char buf[UTF8GUARD_DESCRIBE_MAX];
  const std::size_t n = describe_window(r, window_of(data, base, r), flags, buf, sizeof buf);
  return std::string(buf, n);
}

// describe_to is describe into a caller's buffer, refused on a caller bug.
template <class Result>
std::size_t describe_to(std::string_view data, const Result& r, char* out, std::size_t cap,
                        unsigned flags, std::size_t base) noexcept {
  if (bad_span(data) || bad_span(out, cap)) return 0;
  return describe_window(r, window_of(data, base, r), flags, out, cap);
}

}  // namespace
}  // namespace utf8guard::detail

namespace utf8guard {

std::string describe(std::string_view bytes, const result& r, unsigned flags, std::size_t base) {
  return detail::as_string(bytes, r, flags, base);
}

std::size_t describe(std::string_view bytes, const result& r, char* out, std::size_t cap,
                     unsigned flags, std::size_t base) noexcept {
  return detail::describe_to(bytes, r, out, cap, flags, base);
}

std::string describe(std::string_view bytes, const percent_result& r, unsigned flags,
                     std::size_t base) {
  return detail::as_string(bytes, r, flags, base);
}

std::size_t describe(std::string_view bytes, const percent_result& r, char* out, std::size_t cap,
                     unsigned flags, std::size_t base) noexcept {
  return detail::describe_to(bytes, r, out, cap, flags, base);
}

hint explain(std::string_view bytes, const percent_result& r, std::size_t base) noexcept {
  if (detail::bad_span(bytes)) return {};
  return detail::window_hint(detail::window_of(bytes, base, r));
}

}  // namespace utf8guard

extern "C" {

size_t utf8guard_describe(const char* data, size_t len, size_t base, utf8guard_result result,
                          unsigned flags, char* out, size_t cap) {
  return utf8guard::describe(utf8guard::detail::c_bytes(data, len),
                             utf8guard::detail::from_caller(result), out, cap, flags, base);
}

size_t utf8guard_describe_percent(const char* data, size_t len, size_t base,
                                  utf8guard_percent_result result, unsigned flags, char* out,
                                  size_t cap) {
  return utf8guard::describe(utf8guard::detail::c_bytes(data, len),
                             utf8guard::detail::from_caller(result), out, cap, flags, base);
}

utf8guard_hint utf8guard_explain_percent(const char* data, size_t len, size_t base,
                                         utf8guard_percent_result result) {
  const utf8guard::hint h = utf8guard::explain(utf8guard::detail::c_bytes(data, len),
                                               utf8guard::detail::from_caller(result), base);
  return utf8guard::detail::to_c(h);
}

}  // extern "C"
