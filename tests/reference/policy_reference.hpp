// policy_reference.hpp - the oracle for policies and hints, kept apart from
// the library like reference.hpp.
//
// Categories are not copied from the library: they are read, when a test
// first asks, from the Unicode Character Database that Debian's unicode-data
// package installs (/usr/share/unicode; or $UTF8GUARD_UCD, or ucd/ beside the
// executable):
//
//   nul, control, c1  general category Cc (UnicodeData.txt): U+0000 is nul;
//                     the other Cc values below U+0080 are control, those
//                     above are c1, each less TAB and the newlines
//   newline           Line_Break BK, CR, LF or NL (LineBreak.txt, UAX #14)
//   bidi              Bidi_Control (PropList.txt)
//   noncharacter      Noncharacter_Code_Point (PropList.txt)
//   private_use       general category Co (UnicodeData.txt, First/Last ranges)
//   bom, replacement  U+FEFF (not at byte 0) and U+FFFD, by definition
//
// Hints are written from the rule table's intent rather than its byte
// patterns: a form's length comes from the lead's leading one bits (2..6
// bytes, RFC 2279), its value from the payload bits, and a rule is a
// question about that value (below the form's minimum: overlong; a
// surrogate; above U+10FFFF). Windows-1252 comes from glibc's iconv.
#ifndef UTF8GUARD_TESTS_POLICY_REFERENCE_HPP
#define UTF8GUARD_TESTS_POLICY_REFERENCE_HPP

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference.hpp"

namespace reference {

// The category names, as the contract spells them.
extern const std::vector<std::string_view> kCategoryNames;

// ucd_available says whether the data files can be read; why_not says why not.
bool ucd_available(std::string* why_not = nullptr);

// category_of names the category of scalar value cp ("" for none).
// at_start: the character is at byte 0 of the whole input.
std::string_view category_of(char32_t cp, bool at_start);

using denied = std::set<std::string_view>;

// Under a policy: every maximal subpart, and every well-formed character
// whose category is denied (kind "disallowed", with category and code point).
std::vector<error> all_errors(std::string_view bytes, const denied& deny);
error first_error(std::string_view bytes, const denied& deny);
std::string sanitize(std::string_view bytes, const denied& deny);

struct hint {
  std::string_view name;  // "" for none
  char32_t value = 0;
  bool has_value = false;
  friend bool operator==(const hint&, const hint&) = default;
};

// explain applies the hint rules at offset of the input.
hint explain(std::string_view bytes, std::size_t offset);

}  // namespace reference

#endif  // UTF8GUARD_TESTS_POLICY_REFERENCE_HPP
