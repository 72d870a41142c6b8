// message_reference.hpp - the oracle for the library's messages and
// truncation (docs/design.md, "Messages" and "Truncation"), written from the
// contract's words over the other oracles' answers: the kind and offset from
// reference.hpp, the category and hint from policy_reference.hpp, the decoded
// bytes from percent_reference.hpp, the units from sequence_at. It formats
// with printf, and shares nothing with the library.
#ifndef UTF8GUARD_TESTS_MESSAGE_REFERENCE_HPP
#define UTF8GUARD_TESTS_MESSAGE_REFERENCE_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "percent_reference.hpp"
#include "policy_reference.hpp"

namespace reference {

// message is the text the CLI prints after "PATH:LINE:COLUMN: " for error e
// of the input: "KIND at byte OFFSET (HEX BYTES)", a denied character's
// category and code point after its kind, and with hints the hint of an
// ill-formed subpart as " [NAME U+XXXX]" or " [NAME]".
std::string message(std::string_view bytes, const error& e, bool hints);

// The same for an error of percent-encoded input: OFFSET is encoded, HEX
// BYTES and the hint are those of the decoded bytes.
std::string message(std::string_view encoded, const percent::error& e, bool hints);

// The same over the input's decoding (percent::decode), for a caller that
// asks for every error of one input: it decodes once, not once an error.
std::string message(const percent::decoded& d, const percent::error& e, bool hints);

// truncate: the longest prefix of at most max bytes that is well-formed
// (keep_ill_formed false), or that ends where a character or a maximal
// subpart ends (true).
std::size_t truncate(std::string_view bytes, std::size_t max, bool keep_ill_formed);

// truncations is truncate at every max from 0 to the input's size, from one
// walk over the input: element max is truncate(bytes, max, keep_ill_formed),
// and the last one is the answer for every larger max as well.
std::vector<std::size_t> truncations(std::string_view bytes, bool keep_ill_formed);

}  // namespace reference

#endif  // UTF8GUARD_TESTS_MESSAGE_REFERENCE_HPP
