// policy_reference.cpp - see policy_reference.hpp.
#include "policy_reference.hpp"

#include <iconv.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace reference {

const std::vector<std::string_view> kCategoryNames = {
    "nul",         "control", "newline",     "c1",         "bidi",           "noncharacter",
    "private_use", "bom",     "replacement", "bad_escape", "double_encoding"};

namespace {

constexpr char32_t kCodeSpace = 0x110000;

// ucd_dir: $UTF8GUARD_UCD, else Debian's /usr/share/unicode, else ucd/ beside
// the executable (where fuzz/build.sh puts the files for OSS-Fuzz's runners,
// which have no unicode-data package).
std::string ucd_dir() {
  const char* env = std::getenv("UTF8GUARD_UCD");
  if (env != nullptr && *env != '\0') return env;
  const std::string debian = "/usr/share/unicode";
  if (std::ifstream(debian + "/UnicodeData.txt")) return debian;
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return debian;
  const std::string path(exe, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/')) + "/ucd";
}

// A UCD line is "CODE[..CODE];FIELD;FIELD ... # comment"; fields are trimmed.
// Only the first two fields are kept: the tables below read no other (name
// and general category of UnicodeData.txt, the one of LineBreak.txt and
// PropList.txt), and every test and fuzz target builds them once at start.
struct ucd_line {
  char32_t first = 0, last = 0;
  std::vector<std::string> fields;  // the first fields after the code point(s)
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

std::vector<ucd_line> read_ucd(const std::string& name) {
  std::ifstream in(ucd_dir() + "/" + name);
  if (!in) throw std::runtime_error("cannot read " + ucd_dir() + "/" + name);
  std::vector<ucd_line> out;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    if (trim(line).empty()) continue;
    std::stringstream ss(line);
    std::string field;
    std::vector<std::string> fields;
    while (fields.size() < 3 && std::getline(ss, field, ';')) fields.push_back(trim(field));
    ucd_line u;
    const std::string code = fields.at(0);
    const auto dots = code.find("..");
    u.first = static_cast<char32_t>(std::stoul(code.substr(0, dots), nullptr, 16));
    u.last = dots == std::string::npos
                 ? u.first
                 : static_cast<char32_t>(std::stoul(code.substr(dots + 2), nullptr, 16));
    u.fields.assign(fields.begin() + 1, fields.end());
    out.push_back(std::move(u));
  }
  return out;
}

// The category of every code point, as an index into kCategoryNames plus 1
// (0: none), bom and at_start aside.
struct ucd_table {
  std::vector<std::uint8_t> cat = std::vector<std::uint8_t>(kCodeSpace, 0);
  std::string error;

  static std::uint8_t index(std::string_view name) {
    for (std::size_t k = 0; k < kCategoryNames.size(); ++k) {
      if (kCategoryNames[k] == name) return static_cast<std::uint8_t>(k + 1);
    }
    throw std::logic_error("no category " + std::string(name));
  }
  void set(char32_t first, char32_t last, std::string_view name) {
    for (char32_t c = first; c <= last; ++c) cat.at(c) = index(name);
  }

  // A missing or unreadable file is recorded in error (ucd_available says
  // why, and the tests skip): not a function-try-block, whose handler
  // cannot touch a member and rethrows.
  ucd_table() {
    try {
      std::vector<bool> newline(kCodeSpace, false);
      for (const ucd_line& u : read_ucd("LineBreak.txt")) {
        const std::string& cls = u.fields.at(0);
        if (cls == "BK" || cls == "CR" || cls == "LF" || cls == "NL") {
          for (char32_t c = u.first; c <= u.last; ++c) newline[c] = true;
        }
      }
      // UnicodeData.txt: one value per line, or a range as "<..., First>" and
      // "<..., Last>" lines.
      char32_t range_start = 0;
      for (const ucd_line& u : read_ucd("UnicodeData.txt")) {
        const std::string& name = u.fields.at(0);
        const std::string& gc = u.fields.at(1);
        if (name.find(", First>") != std::string::npos) {
          range_start = u.first;
          continue;
        }
        const char32_t first = name.find(", Last>") != std::string::npos ? range_start : u.first;
        if (gc == "Co") set(first, u.first, "private_use");
        if (gc == "Cc") {
          for (char32_t c = first; c <= u.first; ++c) {
            if (c == 0) {
              set(c, c, "nul");
            } else if (newline[c]) {
              set(c, c, "newline");
            } else if (c != U'\t') {
              set(c, c, c < 0x80 ? "control" : "c1");
            }
          }
        }
      }
      for (char32_t c = 0; c < kCodeSpace; ++c) {
        if (newline[c]) set(c, c, "newline");  // LS and PS are not Cc
      }
      for (const ucd_line& u : read_ucd("PropList.txt")) {
        const std::string& prop = u.fields.at(0);
        if (prop == "Bidi_Control") set(u.first, u.last, "bidi");
        if (prop == "Noncharacter_Code_Point") set(u.first, u.last, "noncharacter");
      }
      set(0xFFFD, 0xFFFD, "replacement");
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
};

const ucd_table& table() {
  static const ucd_table t;
  return t;
}

// --- hints -------------------------------------------------------------------

// A form: the RFC 2279 sequence at an offset, complete (len bytes, all
// present, the continuation bytes 10xxxxxx) or not a form (len 0).
struct form {
  int len = 0;
  std::uint32_t value = 0;
};

form form_at(std::string_view s, std::size_t i) {
  if (i >= s.size()) return {};
  const auto lead = static_cast<std::uint8_t>(s[i]);
  int ones = 0;
  while (ones < 8 && (lead & (0x80 >> ones)) != 0) ++ones;
  if (ones < 2 || ones > 6) return {};
  std::uint32_t v = lead & (0xFFu >> (ones + 1));
  for (int k = 1; k < ones; ++k) {
    if (i + k >= s.size()) return {};
    const auto c = static_cast<std::uint8_t>(s[i + k]);
    if ((c >> 6) != 2) return {};
    v = (v << 6) | (c & 0x3F);
  }
  return {ones, v};
}

// The smallest value a form of each length is for (shorter forms hold less).
constexpr std::uint32_t kFormMin[7] = {0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000};

bool high_surrogate(form f) { return f.len == 3 && f.value >= 0xD800 && f.value <= 0xDBFF; }
bool low_surrogate(form f) { return f.len == 3 && f.value >= 0xDC00 && f.value <= 0xDFFF; }

char32_t windows1252(std::uint8_t b) {
  static const std::vector<char32_t> table = [] {
    std::vector<char32_t> t(256, 0);
    iconv_t cd = iconv_open("UTF-32LE", "CP1252");
    if (cd == reinterpret_cast<iconv_t>(-1)) throw std::runtime_error("no CP1252 in iconv");
    for (int v = 0; v < 256; ++v) {
      char in = static_cast<char>(v);
      char32_t out = 0;
      char* inp = &in;
      char* outp = reinterpret_cast<char*>(&out);
      std::size_t inleft = 1, outleft = sizeof out;
      // WHATWG maps the five bytes CP1252 leaves undefined to the C1 control
      // of the same value; iconv refuses them.
      t[v] = iconv(cd, &inp, &inleft, &outp, &outleft) == static_cast<std::size_t>(-1)
                 ? static_cast<char32_t>(v)
                 : out;
      iconv(cd, nullptr, nullptr, nullptr, nullptr);
    }
    iconv_close(cd);
    return t;
  }();
  return table[b];
}

bool ascii_or_absent(std::string_view s, std::size_t i, bool exists) {
  return !exists || static_cast<std::uint8_t>(s[i]) < 0x80;
}

}  // namespace

bool ucd_available(std::string* why_not) {
  if (why_not != nullptr) *why_not = table().error;
  return table().error.empty();
}

std::string_view category_of(char32_t cp, bool at_start) {
  if (cp == 0xFEFF) return at_start ? "" : "bom";
  const std::uint8_t k = table().cat.at(cp);
  return k == 0 ? "" : kCategoryNames[k - 1];
}

std::vector<error> all_errors(std::string_view bytes, const denied& deny) {
  std::vector<error> out;
  for (std::size_t i = 0; i < bytes.size();) {
    error e = sequence_at(bytes, i);
    if (e.ok()) {
      const char32_t cp = decode(bytes.substr(i, e.length)).at(0);
      const std::string_view cat = category_of(cp, i == 0);
      if (!cat.empty() && deny.count(cat) != 0) out.push_back({"disallowed", i, e.length, cat, cp});
    } else {
      out.push_back(e);
    }
    i += e.length;
  }
  return out;
}

error first_error(std::string_view bytes, const denied& deny) {
  const std::vector<error> all = all_errors(bytes, deny);
  return all.empty() ? error{"none", 0, 0} : all.front();
}

std::string sanitize(std::string_view bytes, const denied& deny) {
  std::string out;
  std::size_t i = 0;
  for (const error& e : all_errors(bytes, deny)) {
    out.append(bytes.substr(i, e.offset - i));
    out.append("\xEF\xBF\xBD");
    i = e.offset + e.length;
  }
  out.append(bytes.substr(i));
  return out;
}

hint explain(std::string_view s, std::size_t i) {
  if (i >= s.size()) return {};
  const auto b0 = static_cast<std::uint8_t>(s[i]);
  if (i == 0 && s.size() >= 2 && ((s.substr(0, 2) == "\xFE\xFF") || s.substr(0, 2) == "\xFF\xFE")) {
    return {"utf16_bom", 0, false};
  }
  const form f = form_at(s, i);
  if (f.len == 2 && f.value == 0) return {"modified_utf8_nul", 0, true};
  if (f.len >= 2 && f.len <= 4 && f.value < kFormMin[f.len])
    return {"overlong_form", f.value, true};
  const form next = form_at(s, i + 3);
  if (high_surrogate(f) && low_surrogate(next)) {
    return {"cesu8_pair", 0x10000 + ((f.value - 0xD800) << 10) + (next.value - 0xDC00), true};
  }
  if (low_surrogate(f) && i >= 3) {
    const form before = form_at(s, i - 3);
    if (high_surrogate(before)) {
      return {"cesu8_pair", 0x10000 + ((before.value - 0xD800) << 10) + (f.value - 0xDC00), true};
    }
  }
  if (f.len == 3 && f.value >= 0xD800 && f.value <= 0xDFFF) {
    return {"surrogate_code_point", f.value, true};
  }
  // RFC 2279's 5- and 6-byte forms are all beyond Unicode, whatever their
  // value; a 4-byte form is when its value is.
  if ((f.len == 4 && f.value > 0x10FFFF) || f.len >= 5) return {"beyond_unicode", f.value, true};
  if (b0 >= 0x80 && ascii_or_absent(s, i - 1, i > 0) &&
      ascii_or_absent(s, i + 1, i + 1 < s.size())) {
    return {"windows1252", windows1252(b0), true};
  }
  return {};
}

}  // namespace reference
