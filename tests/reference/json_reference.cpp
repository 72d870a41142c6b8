// json_reference.cpp - see json_reference.hpp.
#include "json_reference.hpp"

#include <stdexcept>

namespace reference::json {
namespace {

// hex_value is the value of the 4 hex digits at in[at], or -1 when they are
// not 4 hex digits (cut by the end included).
long hex_value(std::string_view in, std::size_t at) {
  if (at + 4 > in.size()) return -1;
  long v = 0;
  for (std::size_t k = at; k < at + 4; ++k) {
    const char c = in[k];
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

bool is_high(long u) { return u >= 0xD800 && u <= 0xDBFF; }
bool is_low(long u) { return u >= 0xDC00 && u <= 0xDFFF; }

// The one-character escapes and what they stand for.
char short_escape(char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return 0;
  }
}

// generalized_utf8 is the 3-byte form of a surrogate code unit, which no
// UTF-8 encoder writes (reference::encode refuses it).
std::string generalized_utf8(long u) {
  return {static_cast<char>(0xE0 | (u >> 12)), static_cast<char>(0x80 | ((u >> 6) & 0x3F)),
          static_cast<char>(0x80 | (u & 0x3F))};
}

// unit_at reads the unit that starts at in[i].
unit unit_at(std::string_view in, std::size_t i) {
  unit u;
  u.offset = i;
  if (in[i] != '\\') {
    u.width = 1;
    u.bytes = std::string(1, in[i]);
    return u;
  }
  const char next = i + 1 < in.size() ? in[i + 1] : '\0';
  if (i + 1 < in.size() && short_escape(next) != 0) {
    u.kind = unit_kind::escape;
    u.width = 2;
    u.bytes = std::string(1, short_escape(next));
    return u;
  }
  const long v = next == 'u' ? hex_value(in, i + 2) : -1;
  if (v < 0) {
    u.kind = unit_kind::bad_escape;
    u.width = 1;
    u.bytes = "\\";
    return u;
  }
  const long second = in.substr(i + 6, 2) == "\\u" ? hex_value(in, i + 8) : -1;
  if (is_high(v) && is_low(second)) {
    u.kind = unit_kind::pair;
    u.width = 12;
    u.bytes = encode(static_cast<char32_t>(0x10000 + ((v - 0xD800) << 10) + (second - 0xDC00)));
    return u;
  }
  u.width = 6;
  if (is_high(v) || is_low(v)) {
    u.kind = unit_kind::lone_surrogate;
    u.bytes = generalized_utf8(v);
  } else {
    u.kind = unit_kind::escape;
    u.bytes = encode(static_cast<char32_t>(v));
  }
  return u;
}

// policy_part is deny without bad_escape, which only the decoding pass
// finds.
denied policy_part(const denied& deny) {
  denied out = deny;
  out.erase("bad_escape");
  return out;
}

}  // namespace

decoded decode(std::string_view in) {
  decoded d;
  d.units.reserve(in.size());
  d.bytes.reserve(in.size());
  d.unit_of.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    unit u = unit_at(in, i);
    if (u.kind != unit_kind::raw && (static_cast<unsigned char>(u.bytes[0]) >> 6) == 2) {
      throw std::logic_error("an escape decoded to a continuation byte");
    }
    u.decoded_offset = d.bytes.size();
    d.bytes += u.bytes;
    d.unit_of.insert(d.unit_of.end(), u.bytes.size(), d.units.size());
    i += u.width;
    d.units.push_back(std::move(u));
  }
  return d;
}

std::vector<error> all_errors(std::string_view encoded, const denied& deny) {
  const decoded d = decode(encoded);
  const std::vector<reference::error> found = percent::decoded_errors(d.bytes, policy_part(deny));
  // A finding over decoded bytes [first, first + count) covers the units
  // that carry them, which follow one another in the input.
  auto mapped = [&d](reference::error e, std::size_t first, std::size_t count) {
    error m;
    static_cast<reference::error&>(m) = e;
    const unit& a = d.units[d.unit_of[first]];
    const unit& b = d.units[d.unit_of[first + count - 1]];
    m.offset = a.offset;
    m.length = b.offset + b.width - a.offset;
    m.decoded_offset = first;
    m.decoded_length = count;
    return m;
  };
  std::vector<error> out;
  for (const reference::error& e : found) {
    if (d.units[d.unit_of[e.offset]].kind != unit_kind::lone_surrogate) {
      out.push_back(mapped(e, e.offset, e.length));
    }
  }
  for (const unit& u : d.units) {
    if (u.kind == unit_kind::lone_surrogate) {
      out.push_back(mapped({"surrogate", 0, 0}, u.decoded_offset, u.bytes.size()));
    }
    if (u.kind == unit_kind::bad_escape && deny.count("bad_escape") != 0) {
      out.push_back(mapped({"disallowed", 0, 0, "bad_escape", U'\\'}, u.decoded_offset, 1));
    }
  }
  // No two findings start at the same unit: a lone surrogate's bytes hold
  // no other finding, and a malformed escape's backslash has no category.
  percent::in_input_order(out);
  return out;
}

error first_error(std::string_view encoded, const denied& deny) {
  return percent::first_or_none(all_errors(encoded, deny));
}

std::string sanitize(std::string_view encoded, const denied& deny) {
  return sanitize(encoded, all_errors(encoded, deny));
}

std::string sanitize(std::string_view encoded, const std::vector<error>& found) {
  std::string out;
  std::size_t i = 0;
  for (const error& e : found) {
    out.append(encoded.substr(i, e.offset - i));
    out.append(encoded[e.offset] == '\\' ? "\\ufffd" : "\xEF\xBF\xBD");
    i = e.offset + e.length;
  }
  out.append(encoded.substr(i));
  return out;
}

std::u32string scalars(std::string_view encoded) {
  return reference::decode(decode(encoded).bytes);
}

}  // namespace reference::json
