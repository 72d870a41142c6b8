// percent_window.hpp - the decoded bytes around an error of percent-encoded
// input, from the encoded bytes kept around it (check --percent).
//
// An error's encoded offset starts a unit: an escape %XX (3 bytes) or a byte
// that stands for itself. Forward, decoding from there is exact for every
// unit the window holds whole. Backward, the unit that ends at byte j is an
// escape exactly when bytes j-2, j-1, j are '%' and two hex digits (a hex digit
// is never a '%'), so walking back unit by unit is exact too. Each unit is
// 1 to 3 bytes: n decoded bytes need at most 3n encoded ones either way.
#ifndef UTF8GUARD_CLI_PERCENT_WINDOW_HPP
#define UTF8GUARD_CLI_PERCENT_WINDOW_HPP

namespace utf8guard::cli {

// percent_ahead writes to out the first decoded bytes of enc[0..n), which
// starts a unit, at most max of them, and returns how many. Unless the window
// ends the input, an escape its end may cut ('%' in its last two bytes with
// only hex digits after it) is not decoded. With n >= 3 * max it writes max.
unsigned percent_ahead(const unsigned char* enc, unsigned n, bool ends_input, unsigned char* out,
                       unsigned max) noexcept;

// percent_behind writes to out the last decoded bytes of enc[0..n), at most
// max of them, and returns how many. enc + n must start a unit, and enc
// either start one too (the input's start) or hold n >= 3 * max bytes.
unsigned percent_behind(const unsigned char* enc, unsigned n, unsigned char* out,
                        unsigned max) noexcept;

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_PERCENT_WINDOW_HPP
