// report_fields.cpp - what the text and JSON reports print alike: code
// points as U+XXXX, and an error's message and hint, which the library
// writes from the bytes kept around the error.
#include "report.hpp"

namespace utf8guard::cli {
namespace {

// The result that the window's bytes belong to. With --percent the decoded
// offset matters only as "is it 0" (the utf16_bom hint), and the decoded
// stream starts where the encoded one does.
percent_result as_result(const found_error& e) noexcept {
  percent_result r;
  r.kind = e.kind;
  r.offset = e.offset;
  r.length = e.length;
  r.category = e.category;
  r.code_point = e.code_point;
  r.decoded_offset = e.offset;
  return r;
}

std::string_view window_of(const found_error& e) noexcept {
  return {reinterpret_cast<const char*>(e.window), e.window_len};
}

}  // namespace

hint found_error::the_hint() const noexcept {
  const percent_result r = as_result(*this);
  const std::uint64_t base = offset - window_at;
  if (percent) return explain(window_of(*this), r, base);
  const hint h = explain(window_of(*this), window_at);
  if (h.kind == hint_kind::utf16_bom && offset != 0) return {};
  return h;
}

void found_error::describe(std::string& out) const {
  const percent_result r = as_result(*this);
  const unsigned flags = want_hint ? describe_hint : 0;
  const std::uint64_t base = offset - window_at;
  char text[describe_max];
  const std::size_t n =
      percent ? utf8guard::describe(window_of(*this), r, text, sizeof text, flags, base)
              : utf8guard::describe(window_of(*this), static_cast<const result&>(r), text,
                                    sizeof text, flags, base);
  out.append(text, n < sizeof text ? n : sizeof text - 1);
}

void append_code_point(std::string& out, char32_t value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  out.append("U+");
  int digits = 4;
  while (digits < 8 && (value >> (4 * digits)) != 0) ++digits;
  for (int k = digits - 1; k >= 0; --k) out.push_back(kDigits[(value >> (4 * k)) & 0xF]);
}

}  // namespace utf8guard::cli
