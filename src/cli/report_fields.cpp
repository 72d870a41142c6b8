// report_fields.cpp - what every report format prints alike: code points as
// U+XXXX, an error's message and hint, which the library writes from the
// bytes kept around the error, the rules and the fingerprints.
#include "report.hpp"

namespace utf8guard::cli {
namespace {

// The result that the window's bytes belong to. With --percent and
// --json-text the decoded offset matters only as "is it 0" (the utf16_bom
// hint), and the decoded stream starts where the encoded one does.
encoded_result as_result(const found_error& e) noexcept {
  encoded_result r;
  r.kind = e.kind;
  r.offset = e.offset;
  r.length = e.length;
  r.category = e.category;
  r.code_point = e.code_point;
  r.decoded_offset = e.offset;
  return r;
}

}  // namespace

hint found_error::the_hint() const noexcept {
  const encoded_result r = as_result(*this);
  const std::uint64_t base = window_origin + window.base();
  if (form == input_form::percent) return percent::explain(window.bytes(), r, base);
  if (form == input_form::json) return json::explain(window.bytes(), r, base);
  const hint h = offset >= base ? explain(window.bytes(), offset - base) : hint{};
  if (h.kind == hint_kind::utf16_bom && offset != 0) return {};
  return h;
}

void found_error::describe(std::string& out) const {
  const encoded_result r = as_result(*this);
  const unsigned flags = want_hint ? describe_hint : 0;
  const std::uint64_t base = window_origin + window.base();
  char text[describe_max];
  const std::string_view kept = window.bytes();
  const std::size_t n =
      form == input_form::percent ? percent::describe(kept, r, text, sizeof text, flags, base)
      : form == input_form::json  ? json::describe(kept, r, text, sizeof text, flags, base)
                                  : utf8guard::describe(kept, static_cast<const result&>(r), text,
                                                        sizeof text, flags, base);
  out.append(text, n < sizeof text ? n : sizeof text - 1);
}

void append_code_point(std::string& out, char32_t value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  out.append("U+");
  int digits = 4;
  while (digits < 8 && (value >> (4 * digits)) != 0) ++digits;
  for (int k = digits - 1; k >= 0; --k) out.push_back(kDigits[(value >> (4 * k)) & 0xF]);
}

void append_hint_members(std::string& out, const hint& h, std::string_view value_key) {
  out.append(",\"hint\":\"");
  out.append(to_string(h.kind));
  out.push_back('"');
  if (h.has_value) {
    out.append(",\"");
    out.append(value_key);
    out.append("\":\"");
    append_code_point(out, h.value);
    out.push_back('"');
  }
}

namespace {

// The kinds in the enum's order, the categories in bit order, then unreadable.
constexpr rule_info kRules[kRuleCount] = {
    {"unexpected_continuation", "Unexpected continuation byte",
     "A byte 80..BF where a UTF-8 sequence must start: a stray continuation byte, often one "
     "byte of a character cut in two, or text in a legacy 8-bit encoding."},
    {"overlong", "Overlong UTF-8 encoding",
     "A character encoded with more bytes than it needs (C0 AF for '/'). Decoders that accept "
     "it let an attacker smuggle '/', '.' or NUL past filters (CVE-2000-0884)."},
    {"surrogate", "Encoded surrogate",
     "ED A0..BF: a UTF-16 surrogate encoded as UTF-8 (CESU-8, WTF-8, Java's modified UTF-8). "
     "It is not a character; convert the UTF-16 pair to one 4-byte sequence."},
    {"too_large", "Beyond U+10FFFF",
     "F4 90..BF: a value above U+10FFFF, the last code point. No encoder of valid text writes "
     "it."},
    {"invalid_byte", "Byte never in UTF-8",
     "A byte F5..FF, which no UTF-8 text holds: binary data, UTF-16 (FF FE), or an 8-bit "
     "encoding such as Latin-1."},
    {"truncated", "Truncated sequence",
     "A lead byte whose sequence is cut by a byte that cannot continue it: a character cut in "
     "two, or text in a legacy 8-bit encoding."},
    {"incomplete", "Incomplete sequence at the end",
     "The input ends inside a character: the file or stream was cut short."},
    {"disallowed-nul", "NUL character",
     "U+0000, which C strings, paths and database text end or break at. Denied by the source, "
     "field and url profiles."},
    {"disallowed-control", "Control character",
     "A C0 control character or DEL (ESC starts terminal escapes; log forging). Denied by the "
     "source, field and url profiles."},
    {"disallowed-newline", "Line break",
     "A line break (LF, VT, FF, CR, NEL, U+2028, U+2029) where one value must stay on one line "
     "(header and log injection, CWE-93, CWE-117). --lines exempts each line's own LF or CRLF."},
    {"disallowed-c1", "C1 control character",
     "U+0080..U+009F (CSI U+009B starts terminal escapes), or Windows-1252 text decoded as "
     "Latin-1."},
    {"disallowed-bidi", "Bidirectional control (Trojan Source)",
     "A bidi control (U+202A..U+202E, U+2066..U+2069, U+200E, U+200F, U+061C) that makes code "
     "display differently from how it compiles (Trojan Source, CVE-2021-42574). Remove it, or "
     "write it as an escape in a string literal."},
    {"disallowed-noncharacter", "Noncharacter",
     "U+FDD0..U+FDEF or U+nFFFE/U+nFFFF: not for interchange; I-JSON (RFC 7493) forbids them."},
    {"disallowed-private_use", "Private-use character",
     "A private-use code point, whose meaning is known only by private agreement."},
    {"disallowed-bom", "Byte order mark inside text",
     "U+FEFF past the first byte: a zero-width no-break space, often two files joined."},
    {"disallowed-replacement", "Replacement character",
     "U+FFFD: evidence that an earlier decode lost bytes."},
    {"disallowed-bad_escape", "Bad escape",
     "A '%' not followed by two hex digits in percent-encoded input, or a backslash that starts "
     "no escape in JSON text (not one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)."},
    {"disallowed-double_encoding", "Double percent encoding",
     "%25 followed by two hex digits: a second decode makes another byte (%255c becomes \\, "
     "CVE-2001-0333)."},
    {kUnreadableRule, "Unreadable input",
     "The input could not be opened or read (missing file, directory, permission, I/O error), "
     "so it was not checked."},
};

constexpr std::size_t kFirstCategoryRule = 7;
// One rule per kind and category: a category without its row would leave
// the last row empty.
static_assert(kRules[kRuleCount - 1].id == kUnreadableRule,
              "kRules needs one row per error kind and per category, then unreadable");

}  // namespace

const rule_info& rule(std::size_t index) noexcept { return kRules[index]; }

std::size_t rule_index(const found_error* e) noexcept {
  if (e == nullptr) return kRuleCount - 1;
  if (e->kind != error::disallowed) return static_cast<std::size_t>(e->kind) - 1;
  std::size_t bit = 0;
  while (bit + 1 < category_count && (static_cast<std::uint32_t>(e->category) >> bit) != 1) ++bit;
  return kFirstCategoryRule + bit;
}

std::string fingerprint_source::next(const found_error* e) {
  // FNV-1a, 64 bits: stable across runs, machines and versions.
  std::uint64_t h = 0xcbf29ce484222325u;
  const auto mix = [&h](const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t k = 0; k < n; ++k) h = (h ^ p[k]) * 0x100000001b3u;
  };
  const std::size_t index = rule_index(e);
  const std::uint64_t nth = seen_[index]++;
  mix(path_.data(), path_.size() + 1);  // with its NUL: the fields cannot run together
  const std::string_view id = rule(index).id;
  mix(id.data(), id.size());
  if (e != nullptr) {
    // The input's first bytes from the offset (encoded ones with --percent),
    // as many as every format keeps, hints or not.
    const std::string_view window = e->window.bytes();
    const std::uint64_t at = e->offset - (e->window_origin + e->window.base());
    const std::string_view kept = at < window.size() ? window.substr(at) : std::string_view();
    mix(kept.data(), kept.size() < kContextBytes ? kept.size() : kContextBytes);
  }
  unsigned char count[8];
  for (unsigned k = 0; k < 8; ++k) count[k] = static_cast<unsigned char>(nth >> (8 * k));
  mix(count, sizeof count);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (unsigned k = 0; k < 16; ++k) out[15 - k] = kHex[(h >> (4 * k)) & 0xF];
  return out;
}

}  // namespace utf8guard::cli
