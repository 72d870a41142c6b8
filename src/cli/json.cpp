// json.cpp - JSON string escaping (RFC 8259 section 7).
#include "json.hpp"

#include <utf8guard/utf8guard.hpp>

namespace utf8guard::cli {

std::string json_quote(std::string_view raw) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::string text = utf8guard::sanitize(raw);
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (b < 0x20) {
      out.append("\\u00");
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xF]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace utf8guard::cli
