// hex.hpp - bytes as text and back, in the one spelling the tests, the fuzz
// targets and the attack-vector manifest (security/vectors/vectors.tsv)
// share: uppercase pairs separated by single spaces, "C0 AF 2E".
#ifndef UTF8GUARD_TESTS_SUPPORT_HEX_HPP
#define UTF8GUARD_TESTS_SUPPORT_HEX_HPP

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace utf8guard::testing {

// hex renders bytes as "C0 AF", for failure messages and reproducers.
inline std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size() * 3);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    if (i != 0) out += ' ';
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

// parse_hex reads what hex writes, and nothing else ("" is the empty
// string); any other spelling throws std::runtime_error, so a malformed
// manifest fails its test instead of shrinking it.
inline std::string parse_hex(std::string_view text) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("not an uppercase hex digit");
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 3) {
    if (i + 2 > text.size() || (i + 2 < text.size() && text[i + 2] != ' '))
      throw std::runtime_error("hex bytes must be pairs separated by one space");
    out.push_back(static_cast<char>(digit(text[i]) * 16 + digit(text[i + 1])));
  }
  return out;
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_HEX_HPP
