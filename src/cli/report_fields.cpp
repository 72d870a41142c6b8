// report_fields.cpp - what the text and JSON reports print alike: code
// points as U+XXXX, and an error's hint.
#include "report.hpp"

namespace utf8guard::cli {

hint found_error::the_hint() const noexcept {
  // The kept bytes, before then from the offset, as one small input; the
  // offset inside it is before_len. Whether the error is at byte 0 of the
  // whole input matters to one rule (utf16_bom), so the window starts there
  // only when the input does.
  unsigned char window[kHintBehind + kHintAhead];
  for (unsigned k = 0; k < before_len; ++k) window[k] = before[k];
  for (unsigned k = 0; k < context_len; ++k) window[before_len + k] = context[k];
  const std::string_view bytes(reinterpret_cast<const char*>(window), before_len + context_len);
  const hint h = explain(bytes, before_len);
  if (h.kind == hint_kind::utf16_bom && input_offset != 0) return {};
  return h;
}

void append_code_point(std::string& out, char32_t value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  out.append("U+");
  int digits = 4;
  while (digits < 8 && (value >> (4 * digits)) != 0) ++digits;
  for (int k = digits - 1; k >= 0; --k) out.push_back(kDigits[(value >> (4 * k)) & 0xF]);
}

}  // namespace utf8guard::cli
