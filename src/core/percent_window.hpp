// percent_window.hpp - the decoded bytes around an offset of percent-encoded
// input, from a window of the encoded bytes (what describe and explain show
// for a percent_result).
//
// The offset starts a unit (core/percent.hpp): an escape %XX or a byte that
// stands for itself. Forward, decoding from there is exact; the window's end
// is taken as the input's, so a '%' too close to it is a bad escape.
// Backward, the unit that ends at byte j is an escape exactly when bytes j-2,
// j-1, j are '%' and two hex digits (a hex digit is never '%'), so walking
// back unit by unit is exact while those bytes are in the window.
#ifndef UTF8GUARD_CORE_PERCENT_WINDOW_HPP
#define UTF8GUARD_CORE_PERCENT_WINDOW_HPP

#include <cstddef>
#include <cstdint>

namespace utf8guard::detail {

// decode_ahead writes to out the bytes that the first units of enc[0..n)
// decode to, at most max of them, and returns how many.
unsigned decode_ahead(const std::uint8_t* enc, std::size_t n, std::uint8_t* out,
                      unsigned max) noexcept;

// decode_behind writes to out the bytes that the last units of enc[0..n)
// decode to, at most max of them, in input order, and returns how many. enc
// + n starts a unit. Unless starts_input (enc is the input's first byte), a
// unit whose first byte may lie before enc is not taken.
unsigned decode_behind(const std::uint8_t* enc, std::size_t n, bool starts_input, std::uint8_t* out,
                       unsigned max) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_PERCENT_WINDOW_HPP
