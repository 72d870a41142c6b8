// format.hpp - appending numbers and bytes to output lines without locale or
// stream state (millions of error lines go through here).
#ifndef UTF8GUARD_CLI_FORMAT_HPP
#define UTF8GUARD_CLI_FORMAT_HPP

#include <charconv>
#include <cstdint>
#include <string>

namespace utf8guard::cli {

inline void append_number(std::string& out, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

// append_hex appends the bytes as uppercase hex pairs separated by spaces.
inline void append_hex(std::string& out, const unsigned char* bytes, unsigned n) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  for (unsigned i = 0; i < n; ++i) {
    if (i != 0) out.push_back(' ');
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 0xF]);
  }
}

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_FORMAT_HPP
