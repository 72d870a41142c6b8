// competitors.hpp - the validators and sanitizers installed from Debian, each
// wrapped to answer the same question as utf8guard on a whole buffer.
#ifndef UTF8GUARD_BENCH_COMPETITORS_HPP
#define UTF8GUARD_BENCH_COMPETITORS_HPP

#include <cstddef>
#include <string_view>

namespace bench {

// A yes/no validator over a whole buffer.
struct validator_impl {
  const char* name;  // column name in the report
  bool (*is_valid)(std::string_view) noexcept;
};

// A sanitizer writing into out[0..cap) (cap >= 3 * in.size()); returns the
// bytes written, or SIZE_MAX on failure. The benchmark compares its output
// with utf8guard::sanitize and reports the agreement as a counter.
struct sanitizer_impl {
  const char* name;
  std::size_t (*sanitize)(std::string_view in, char* out, std::size_t cap) noexcept;
};

// ICU 72: a U8_NEXT loop (strict since ICU 60), and u_strFromUTF8 in
// preflight mode (no output, counts UTF-16 units; fails on ill-formed input).
// utf8proc: a utf8proc_iterate loop. utfcpp: utf8::is_valid (a find_invalid
// scan). iconv: glibc UTF-8 to UTF-8 without //IGNORE, into a scratch buffer.
// The ICU calls take int32_t lengths: larger inputs report invalid.
const validator_impl* validators(std::size_t& count) noexcept;

// ICU: u_strFromUTF8WithSub (U+FFFD per maximal subpart) then u_strToUTF8.
// utfcpp: utf8::replace_invalid, which replaces differently (not docs/design.md's rule).
const sanitizer_impl* sanitizers(std::size_t& count) noexcept;

}  // namespace bench

#endif  // UTF8GUARD_BENCH_COMPETITORS_HPP
