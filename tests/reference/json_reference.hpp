// json_reference.hpp - the oracle for JSON text (docs/design.md, the JSON
// form), kept apart from the library like reference.hpp.
//
// It decodes the whole input first, unit by unit, as the rules are written:
//
//   a raw byte                     itself
//   \" \\ \/ \b \f \n \r \t        one ASCII character (2 encoded bytes)
//   \uXXXX (high) \uXXXX (low)     one supplementary character (12 bytes)
//   \uXXXX, any other              one BMP character (6 bytes); a surrogate
//                                  here is a lone one, decoded to its
//                                  generalized UTF-8 (ED A0 80 for \ud800)
//   \ followed by anything else    a malformed escape: the backslash is a
//                                  literal byte, the bytes after it are read
//                                  as themselves
//
// recording for every decoded byte the encoded offset and width of its unit.
// Then it runs the policy oracle (policy_reference.hpp) over the decoded
// bytes and maps each finding back through that record. Escapes decode to
// whole characters, whose first byte is never a continuation byte, so the
// raw rules never join an escape to raw bytes: a raw prefix before an escape
// is truncated, as the contract says. The raw rules call a lone surrogate's
// bytes three ill-formed subparts; the JSON rule makes them one finding, kind
// surrogate, over the whole escape. A malformed escape is a finding of its
// own (category bad_escape, U+005C) when the policy denies bad_escape. The
// library never builds the decoded bytes when it validates.
#ifndef UTF8GUARD_TESTS_JSON_REFERENCE_HPP
#define UTF8GUARD_TESTS_JSON_REFERENCE_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "percent_reference.hpp"
#include "policy_reference.hpp"

namespace reference::json {

// A unit of JSON text, as the table above reads it.
enum class unit_kind { raw, escape, pair, lone_surrogate, bad_escape };

struct unit {
  unit_kind kind = unit_kind::raw;
  std::size_t offset = 0;          // its first encoded byte
  std::size_t width = 0;           // encoded bytes: 1, 2, 6 or 12
  std::size_t decoded_offset = 0;  // its first byte in the decoded stream
  std::string bytes;               // what it decodes to
};

// decoded is an input decoded: its units, their bytes one after the other,
// and for bytes[i] the index of the unit that carries it.
struct decoded {
  std::vector<unit> units;
  std::string bytes;
  std::vector<std::size_t> unit_of;
};

decoded decode(std::string_view encoded);

// error is the percent oracle's: reference::error with offset and length in
// encoded bytes, and the same bytes placed in the decoded stream.
using error = reference::percent::error;

// all_errors: every raw maximal subpart, every lone surrogate escape, every
// character (raw or escaped) whose category deny holds, and every malformed
// escape when deny holds "bad_escape", in input order.
std::vector<error> all_errors(std::string_view encoded, const denied& deny);
error first_error(std::string_view encoded, const denied& deny);

// sanitize: every finding of all_errors replaced, a raw one by U+FFFD (EF BF
// BD), one that starts with a backslash (an escape, a lone surrogate escape,
// a malformed escape's backslash) by the six bytes \ufffd; the rest copied.
std::string sanitize(std::string_view encoded, const denied& deny);
// The same from the findings all_errors gave (a caller that has them).
std::string sanitize(std::string_view encoded, const std::vector<error>& found);

// scalars: the characters the input spells, for input without findings.
std::u32string scalars(std::string_view encoded);

}  // namespace reference::json

#endif  // UTF8GUARD_TESTS_JSON_REFERENCE_HPP
