// json.hpp - JSON string literals for paths, which may hold any bytes.
#ifndef UTF8GUARD_CLI_JSON_HPP
#define UTF8GUARD_CLI_JSON_HPP

#include <string>
#include <string_view>

namespace utf8guard::cli {

// json_quote returns raw as a JSON string literal, quotes included. Bytes that
// are not well-formed UTF-8 become U+FFFD first (by the same rule as
// sanitize), so any JSON parser accepts the result; ", \ and the control
// characters U+0000..U+001F are escaped, the last as \u00XX.
std::string json_quote(std::string_view raw);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_JSON_HPP
