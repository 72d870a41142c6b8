// oracle.cpp - the differential oracle (fuzz.h, utf8guard::fuzz::oracle).
//
// The oracle walks the input as a decoder with the tolerated differences
// would: well-formed characters pass (a refused one, such as NUL for a decoder
// that rejects NUL, is a place where it *may* stop), a tolerated ill-formed
// form is skipped whole (another may-stop place), and the first ill-formed
// sequence that is not tolerated is where it *must* stop. A verdict agrees
// when "valid" means there is no must-stop place, and "invalid" stops at a
// may-stop place before the must-stop one, or at the must-stop one.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "forms.hpp"
#include "utf8guard/fuzz.hpp"

namespace utf8guard::fuzzing {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

using fuzz::hex;

std::string_view rest(std::string_view in, std::size_t pos) noexcept { return in.substr(pos); }

bool is_noncharacter(char32_t v) noexcept {
  return (v >= 0xFDD0 && v <= 0xFDEF) || (v & 0xFFFE) == 0xFFFE;
}

bool refused(char32_t v, unsigned tol) noexcept {
  return ((tol & UTF8GUARD_FUZZ_REJECTS_NUL) != 0 && v == 0) ||
         ((tol & UTF8GUARD_FUZZ_REJECTS_NONCHARACTERS) != 0 && is_noncharacter(v));
}

bool tolerated(lax_kind kind, unsigned tol) noexcept {
  switch (kind) {
    case lax_kind::overlong: return (tol & UTF8GUARD_FUZZ_ACCEPTS_OVERLONG) != 0;
    case lax_kind::modified_utf8_nul:
      return (tol & (UTF8GUARD_FUZZ_ACCEPTS_OVERLONG | UTF8GUARD_FUZZ_ACCEPTS_MODIFIED_UTF8_NUL)) !=
             0;
    case lax_kind::surrogate: return (tol & UTF8GUARD_FUZZ_ACCEPTS_SURROGATES) != 0;
    case lax_kind::cesu8_pair:
      return (tol & (UTF8GUARD_FUZZ_ACCEPTS_SURROGATES | UTF8GUARD_FUZZ_ACCEPTS_CESU8_PAIRS)) != 0;
    case lax_kind::above_10ffff: return (tol & UTF8GUARD_FUZZ_ACCEPTS_ABOVE_10FFFF) != 0;
    case lax_kind::five_six_byte: return (tol & UTF8GUARD_FUZZ_ACCEPTS_5_6_BYTE) != 0;
    case lax_kind::none: return false;
  }
  return false;
}

// lax_reading is read_lax, except that a CESU-8 pair is two lone surrogates
// for a decoder that accepts every surrogate (each half is then its own
// may-stop place).
lax_form lax_reading(std::string_view at, unsigned tol) noexcept {
  lax_form f = read_lax(at);
  if (f.kind == lax_kind::cesu8_pair && (tol & UTF8GUARD_FUZZ_ACCEPTS_SURROGATES) != 0) {
    f = read_lax(at.substr(0, 3));
  }
  return f;
}

// expectation is the walk's outcome for one verdict.
struct expectation {
  std::size_t must = kNone;  // the first non-tolerated error, or kNone
  bool any_may = false;      // a may-stop place exists before it
  bool offset_allowed = false;
};

expectation walk(std::string_view in, unsigned tol, std::size_t offset) noexcept {
  expectation e;
  std::size_t p = 0;
  while (p < in.size()) {
    const decoded d = decode_one(rest(in, p));
    std::size_t step = d.length;
    if (d.kind == error::none) {
      if (!refused(d.value, tol)) {
        p += step;
        continue;
      }
    } else {
      const lax_form f = lax_reading(rest(in, p), tol);
      if (!tolerated(f.kind, tol)) break;
      step = f.length;
    }
    e.any_may = true;
    e.offset_allowed = e.offset_allowed || offset == p;
    p += step;
  }
  if (p < in.size()) {
    e.must = p;
    e.offset_allowed = e.offset_allowed || offset == p;
  }
  return e;
}

bool agrees(std::string_view in, bool valid, std::size_t offset, unsigned tol) noexcept {
  if (tol == 0) {  // strict: utf8guard's verdict is the only right one
    const result r = validate(in);
    if (valid || r.ok()) return valid == r.ok();
    return offset == kNone || offset == r.offset;
  }
  const expectation e = walk(in, tol, offset);
  if (valid) return e.must == kNone;
  if (e.must == kNone && !e.any_may) return false;
  return offset == kNone || e.offset_allowed;
}

// ---- The report ------------------------------------------------------------

std::string code_point(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(v));
  return buf;
}

// context is the bytes at pos as the CLI shows them: the sequence, then
// context up to 4 bytes in all (more when the sequence itself is longer).
std::string context(std::string_view in, std::size_t pos, std::size_t len) {
  return hex(in.substr(pos, len > 4 ? len : 4));
}

// describe_at says what is at byte pos: a character, the middle of one (a
// decoder that reports the byte where it noticed, not where the sequence
// starts), an ill-formed subpart (with the lax reading a decoder may give
// it), or the end.
std::string describe_at(std::string_view in, std::size_t pos) {
  if (pos >= in.size()) return "the end of the input (" + std::to_string(in.size()) + " bytes)";
  std::string out = "byte " + std::to_string(pos) + ": ";
  for (std::size_t back = 1; back <= 3 && back <= pos; ++back) {
    const decoded around = decode_one(rest(in, pos - back));
    if (around.kind == error::none && around.length > back) {
      return out + "inside the character " + code_point(around.value) + " that starts at byte " +
             std::to_string(pos - back) + " (" + context(in, pos - back, around.length) + ")";
    }
  }
  const decoded d = decode_one(rest(in, pos));
  if (d.kind == error::none) {
    return out + "the character " + code_point(d.value) + " (" + context(in, pos, d.length) + ")" +
           (is_noncharacter(d.value) ? ", a noncharacter" : "");
  }
  out += std::string(to_string(d.kind)) + ", length " + std::to_string(d.length) + " (" +
         context(in, pos, d.length) + ")";
  const lax_form f = read_lax(rest(in, pos));
  if (f.kind != lax_kind::none) {
    out += "; a lax decoder reads " + hex(in.substr(pos, f.length)) + " as " +
           std::string(to_string(f.kind)) + " " + code_point(f.value);
  }
  return out;
}

std::string tolerance_names(unsigned tol) {
  static constexpr struct {
    unsigned flag;
    const char* name;
  } kNames[] = {
      {UTF8GUARD_FUZZ_ACCEPTS_OVERLONG, "accepts_overlong"},
      {UTF8GUARD_FUZZ_ACCEPTS_MODIFIED_UTF8_NUL, "accepts_modified_utf8_nul"},
      {UTF8GUARD_FUZZ_ACCEPTS_SURROGATES, "accepts_surrogates"},
      {UTF8GUARD_FUZZ_ACCEPTS_CESU8_PAIRS, "accepts_cesu8_pairs"},
      {UTF8GUARD_FUZZ_ACCEPTS_ABOVE_10FFFF, "accepts_above_10ffff"},
      {UTF8GUARD_FUZZ_ACCEPTS_5_6_BYTE, "accepts_5_6_byte"},
      {UTF8GUARD_FUZZ_REJECTS_NUL, "rejects_nul"},
      {UTF8GUARD_FUZZ_REJECTS_NONCHARACTERS, "rejects_noncharacters"},
  };
  std::string out;
  for (const auto& n : kNames) {
    if ((tol & n.flag) == 0) continue;
    if (!out.empty()) out += ", ";
    out += n.name;
  }
  return out.empty() ? "nothing (strict)" : out;
}

// shell_bytes writes the input as a printf(1) format, so the report's last
// line reproduces the case with the utf8guard CLI.
std::string shell_bytes(std::string_view in) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : in) {
    const auto b = static_cast<unsigned char>(c);
    out += "\\x";
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

std::string report(std::string_view decoder, std::string_view in, bool valid, std::size_t offset,
                   unsigned tol) {
  if (agrees(in, valid, offset, tol)) return {};
  const result strict = validate(in);
  const expectation e = walk(in, tol, offset);
  const std::string name(decoder.empty() ? std::string_view("decoder") : decoder);

  // One row per line, label and value, all built here.
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("input", std::to_string(in.size()) + " bytes: " + hex(in));
  rows.emplace_back(name, valid ? "accepts"
                          : offset == kNone
                              ? "rejects (gives no offset)"
                              : "rejects, first error at byte " + std::to_string(offset));
  rows.emplace_back("utf8guard", strict.ok() ? "accepts"
                                             : "rejects: " + std::string(to_string(strict.kind)) +
                                                   " at byte " + std::to_string(strict.offset) +
                                                   ", length " + std::to_string(strict.length));
  // What wrote the bytes utf8guard rejects (CESU-8, an overlong form, ...).
  if (!strict.ok()) {
    const hint h = explain(in, strict.offset);
    if (h.kind != hint_kind::none) {
      rows.emplace_back("hint", std::string(to_string(h.kind)) +
                                    (h.has_value ? " " + code_point(h.value) : std::string()));
    }
  }
  rows.emplace_back("tolerated", tolerance_names(tol));

  std::string why;
  if (valid) {
    why = name + " accepts an ill-formed sequence that no tolerance covers";
    rows.emplace_back("disputed", describe_at(in, e.must));
  } else if (e.must == kNone && !e.any_may) {
    why = name + " rejects well-formed input";
    if (offset != kNone) rows.emplace_back("disputed", describe_at(in, offset));
  } else {
    why = name + " rejects at a byte where no decoder may stop first";
    rows.emplace_back("disputed", describe_at(in, offset));
    rows.emplace_back("expected", e.must == kNone
                                      ? "no error, or a stop at a tolerated form only"
                                      : "a stop at " + describe_at(in, e.must) +
                                            (tol != 0 ? ", or earlier at a tolerated form" : ""));
  }
  rows.emplace_back("why", why);
  rows.emplace_back("reproduce", "printf '" + shell_bytes(in) + "' | utf8guard check --all -");

  std::size_t width = 0;
  for (const auto& row : rows) width = row.first.size() > width ? row.first.size() : width;
  std::string out = "==== utf8guard fuzz oracle: " + name + " disagrees with utf8guard\n";
  for (const auto& [label, value] : rows) {
    out += label + ':' + std::string(width + 1 - label.size(), ' ') + value + '\n';
  }
  return out;
}

}  // namespace
}  // namespace utf8guard::fuzzing

namespace utf8guard::fuzz {

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size() * 3);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    if (i != 0) out += ' ';
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

bool oracle::agrees(std::string_view input, verdict other) const noexcept {
  return fuzzing::agrees(input, other.valid, other.offset.value_or(fuzzing::kNone), tolerated_);
}

std::string oracle::report(std::string_view input, verdict other) const {
  return fuzzing::report(decoder_, input, other.valid, other.offset.value_or(fuzzing::kNone),
                         tolerated_);
}

void oracle::check(std::string_view input, verdict other) const {
  if (agrees(input, other)) return;
  const std::string text = report(input, other);
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace utf8guard::fuzz
