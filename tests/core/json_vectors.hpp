// json_vectors.hpp - JSON text worked out by hand from docs/design.md's JSON
// form, before the library ran: every finding of each input under a policy,
// and what sanitize writes. The oracle (tests/reference/json_reference.hpp)
// is checked against them, and the library on every kernel against both.
#ifndef UTF8GUARD_TESTS_CORE_JSON_VECTORS_HPP
#define UTF8GUARD_TESTS_CORE_JSON_VECTORS_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "json_reference.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing::json_vectors {

using finding = reference::json::error;

// at is a finding: kind, encoded offset and length, decoded offset and
// length, and for kind "disallowed" the category and code point.
inline finding at(std::string_view kind, std::size_t offset, std::size_t length,
                  std::size_t decoded_offset, std::size_t decoded_length, std::string_view cat = {},
                  char32_t cp = 0) {
  finding f;
  f.kind = kind;
  f.offset = offset;
  f.length = length;
  f.category = cat;
  f.code_point = cp;
  f.decoded_offset = decoded_offset;
  f.decoded_length = decoded_length;
  return f;
}

inline finding lone(std::size_t offset, std::size_t decoded_offset) {
  return at("surrogate", offset, 6, decoded_offset, 3);
}

inline finding bad_escape(std::size_t offset, std::size_t decoded_offset) {
  return at("disallowed", offset, 1, decoded_offset, 1, "bad_escape", U'\\');
}

struct vec {
  std::string in;
  policy p;
  std::vector<finding> want;  // every finding, in order
  std::string sanitized;
};

inline const std::vector<vec>& hand_vectors() {
  static const std::vector<vec> v = {
      // The four bodies of the JSON form's motivation.
      {R"({"a":"x\ud800y"})", policy(), {lone(7, 7)}, R"({"a":"x\ufffdy"})"},
      {R"({"a":"x\u202ey"})",
       policy::field(),
       {at("disallowed", 7, 6, 7, 3, "bidi", 0x202E)},
       R"({"a":"x\ufffdy"})"},
      {R"({"a":"x\u202ey"})", policy(), {}, R"({"a":"x\u202ey"})"},
      {R"({"a":"x\u0000y"})",
       policy(category::nul),
       {at("disallowed", 7, 6, 7, 1, "nul", 0)},
       R"({"a":"x\ufffdy"})"},
      {R"({"a":"x\uffffy"})",
       policy::json(),
       {at("disallowed", 7, 6, 7, 3, "noncharacter", 0xFFFF)},
       R"({"a":"x\ufffdy"})"},
      // Pairs, in either case; swapped, lone and cut halves.
      {R"(\ud83d\ude00)", policy::field(), {}, R"(\ud83d\ude00)"},
      {R"(\uD83D\uDE00)", policy::field(), {}, R"(\uD83D\uDE00)"},
      {R"(\ude00\ud83d)", policy(), {lone(0, 0), lone(6, 3)}, R"(\ufffd\ufffd)"},
      {R"(\ud83d)", policy(), {lone(0, 0)}, R"(\ufffd)"},
      {R"(\ud83dx)", policy(), {lone(0, 0)}, R"(\ufffdx)"},
      {R"(\ud83d\u0041)", policy(), {lone(0, 0)}, R"(\ufffd\u0041)"},
      {R"(\ud83d\ud83d\ude00)", policy(), {lone(0, 0)}, R"(\ufffd\ud83d\ude00)"},
      {R"(\ud83d\\ude00)", policy(), {lone(0, 0)}, R"(\ufffd\\ude00)"},
      {R"(\ud800\u)",
       policy(category::bad_escape),
       {lone(0, 0), bad_escape(6, 3)},
       R"(\ufffd\ufffdu)"},
      {R"(\ud800\udc0)", policy(), {lone(0, 0)}, R"(\ufffd\udc0)"},
      {"\\ud800\x80",
       policy(),
       {lone(0, 0), at("unexpected_continuation", 6, 1, 3, 1)},
       "\\ufffd\xEF\xBF\xBD"},
      // Escapes never join raw sequences.
      {"\xE2\x82\\u00ac", policy(), {at("truncated", 0, 2, 0, 2)}, "\xEF\xBF\xBD\\u00ac"},
      {"\xE2\x82", policy(), {at("incomplete", 0, 2, 0, 2)}, "\xEF\xBF\xBD"},
      {"\\u00e9\xA9", policy(), {at("unexpected_continuation", 6, 1, 2, 1)}, "\\u00e9\xEF\xBF\xBD"},
      // Malformed escapes: denied or literal.
      {R"(\x)", policy(category::bad_escape), {bad_escape(0, 0)}, R"(\ufffdx)"},
      {R"(\x)", policy(), {}, R"(\x)"},
      {R"(a\u12G4)", policy::url(), {bad_escape(1, 1)}, R"(a\ufffdu12G4)"},
      {R"(a\u12)", policy::url(), {bad_escape(1, 1)}, R"(a\ufffdu12)"},
      {R"(\)", policy::url(), {bad_escape(0, 0)}, R"(\ufffd)"},
      {R"(\\x\/\")", policy::url(), {}, R"(\\x\/\")"},
      {"\\\xC3\xA9", policy::url(), {bad_escape(0, 0)}, "\\ufffd\xC3\xA9"},
      // Short escapes stand for the controls they name.
      {R"(a\nb)",
       policy(category::newline),
       {at("disallowed", 1, 2, 1, 1, "newline", 0x0A)},
       R"(a\ufffdb)"},
      {R"(\b\f\t\r)",
       policy::field(),
       {at("disallowed", 0, 2, 0, 1, "control", 0x08),
        at("disallowed", 2, 2, 1, 1, "newline", 0x0C),
        at("disallowed", 6, 2, 3, 1, "newline", 0x0D)},
       R"(\ufffd\ufffd\t\ufffd)"},
      // U+0085 (NEL) is a newline, U+0086 a C1 control.
      {R"(\u0085\u0086)",
       policy(category::c1),
       {at("disallowed", 6, 6, 2, 2, "c1", 0x86)},
       R"(\u0085\ufffd)"},
      {R"(\u0085)",
       policy(category::newline),
       {at("disallowed", 0, 6, 0, 2, "newline", 0x85)},
       R"(\ufffd)"},
      // The BOM exception is for decoded byte 0.
      {R"(\ufeffok)", policy(category::bom), {}, R"(\ufeffok)"},
      {R"(a\ufeff)",
       policy(category::bom),
       {at("disallowed", 1, 6, 1, 3, "bom", 0xFEFF)},
       R"(a\ufffd)"},
      // A pair is one character: its category, its 12 bytes.
      {R"(x\udbff\udfff)",
       policy::json(),
       {at("disallowed", 1, 12, 1, 4, "noncharacter", 0x10FFFF)},
       R"(x\ufffd)"},
      {R"(\udb80\udc00)",
       policy(category::private_use),
       {at("disallowed", 0, 12, 0, 4, "private_use", 0xF0000)},
       R"(\ufffd)"},
      // Raw bytes next to escapes keep the raw rules.
      {"\xC0\xAF\\u0041\xED\xA0\x80",
       policy(),
       {at("overlong", 0, 1, 0, 1), at("unexpected_continuation", 1, 1, 1, 1),
        at("surrogate", 8, 1, 3, 1), at("unexpected_continuation", 9, 1, 4, 1),
        at("unexpected_continuation", 10, 1, 5, 1)},
       "\xEF\xBF\xBD\xEF\xBF\xBD\\u0041\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},
      {"\xE2\x80\xAE\\u202e",
       policy(category::bidi),
       {at("disallowed", 0, 3, 0, 3, "bidi", 0x202E), at("disallowed", 3, 6, 3, 3, "bidi", 0x202E)},
       "\xEF\xBF\xBD\\ufffd"},
  };
  return v;
}

}  // namespace utf8guard::testing::json_vectors

#endif  // UTF8GUARD_TESTS_CORE_JSON_VECTORS_HPP
