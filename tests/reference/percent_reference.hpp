// percent_reference.hpp - the oracle for percent-encoded input (docs/design.md
// 2.3), kept apart from the library like reference.hpp.
//
// It decodes the whole input first, recording for every decoded byte where
// it came from (its unit's encoded offset and width, 1 or 3), then runs the
// policy oracle (policy_reference.hpp) over the decoded bytes and maps each
// error back through that record. The events that exist only in percent
// mode come from the decoding pass itself: a '%' without two hex digits
// (bad_escape) and a %25 whose next two decoded bytes are hex digits
// (double_encoding). The library, by contrast, never builds the decoded
// bytes when it validates.
#ifndef UTF8GUARD_TESTS_PERCENT_REFERENCE_HPP
#define UTF8GUARD_TESTS_PERCENT_REFERENCE_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "policy_reference.hpp"

namespace reference::percent {

// decoded is an input decoded: bytes, and for bytes[i] the encoded offset and
// width of the unit that carries it. bad_escapes lists the decoded index of
// every '%' that was not followed by two hex digits, double_encodings that
// of every %25 whose decoded '%' is followed by two decoded hex digits.
struct decoded {
  std::string bytes;
  std::vector<std::size_t> offset;
  std::vector<std::size_t> width;
  std::vector<std::size_t> bad_escapes;
  std::vector<std::size_t> double_encodings;
};

decoded decode(std::string_view encoded);

// error is reference::error with offset and length in encoded bytes, and
// the same bytes placed in the decoded stream.
struct error : reference::error {
  std::size_t decoded_offset = 0;
  std::size_t decoded_length = 0;
  friend bool operator==(const error&, const error&) = default;
};

// all_errors: every maximal subpart and every denied character of the
// decoded bytes, every bad escape and double encoding the policy denies
// ("bad_escape", "double_encoding" in deny), in input order.
std::vector<error> all_errors(std::string_view encoded, const denied& deny);
error first_error(std::string_view encoded, const denied& deny);

// What the JSON oracle shares: in_input_order sorts findings by encoded
// offset (stable: findings at one offset keep their order), first_or_none
// is the first of all or one of kind "none".
void in_input_order(std::vector<error>& found);
error first_or_none(const std::vector<error>& all);
// decoded_errors: every maximal subpart of the decoded bytes and every
// character whose category rest (deny less the form's own categories)
// holds; with rest empty the plain oracle answers, which needs no Unicode
// data files.
std::vector<reference::error> decoded_errors(std::string_view bytes, const denied& rest);

}  // namespace reference::percent

#endif  // UTF8GUARD_TESTS_PERCENT_REFERENCE_HPP
