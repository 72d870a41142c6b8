// percent_reference.cpp - see percent_reference.hpp.
#include "percent_reference.hpp"

#include <algorithm>

namespace reference::percent {
namespace {

// digit_value is the value of hex digit c in either case, or -1.
int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_hex_digit(char c) { return digit_value(c) >= 0; }

// policy_part is deny without the two percent-only categories.
denied policy_part(const denied& deny) {
  denied out = deny;
  out.erase("bad_escape");
  out.erase("double_encoding");
  return out;
}

}  // namespace

decoded decode(std::string_view in) {
  decoded d;
  // One unit a byte at most: reserved once, not grown a push at a time.
  d.bytes.reserve(in.size());
  d.offset.reserve(in.size());
  d.width.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    const bool escape =
        in[i] == '%' && i + 2 < in.size() && is_hex_digit(in[i + 1]) && is_hex_digit(in[i + 2]);
    if (in[i] == '%' && !escape) d.bad_escapes.push_back(d.bytes.size());
    const std::size_t width = escape ? 3 : 1;
    const char byte =
        escape ? static_cast<char>(digit_value(in[i + 1]) * 16 + digit_value(in[i + 2])) : in[i];
    d.bytes.push_back(byte);
    d.offset.push_back(i);
    d.width.push_back(width);
    i += width;
  }
  for (std::size_t k = 0; k + 2 < d.bytes.size(); ++k) {
    if (d.bytes[k] == '%' && d.width[k] == 3 && is_hex_digit(d.bytes[k + 1]) &&
        is_hex_digit(d.bytes[k + 2])) {
      d.double_encodings.push_back(k);
    }
  }
  return d;
}

std::vector<error> all_errors(std::string_view encoded, const denied& deny) {
  const decoded d = decode(encoded);
  const std::vector<reference::error> found = decoded_errors(d.bytes, policy_part(deny));
  std::vector<error> out;
  // An error covering decoded bytes [first, first + count) covers the units
  // that carry them, which follow one another in the input.
  auto mapped = [&d](reference::error e, std::size_t first, std::size_t count) {
    error m;
    static_cast<reference::error&>(m) = e;
    const std::size_t last = first + count - 1;
    m.offset = d.offset[first];
    m.length = d.offset[last] + d.width[last] - d.offset[first];
    m.decoded_offset = first;
    m.decoded_length = count;
    return m;
  };
  for (const reference::error& e : found) out.push_back(mapped(e, e.offset, e.length));
  const reference::error percent_sign{"disallowed", 0, 0, {}, U'%'};
  if (deny.count("bad_escape") != 0) {
    for (std::size_t k : d.bad_escapes) {
      reference::error e = percent_sign;
      e.category = "bad_escape";
      out.push_back(mapped(e, k, 1));
    }
  }
  if (deny.count("double_encoding") != 0) {
    for (std::size_t k : d.double_encodings) {
      reference::error e = percent_sign;
      e.category = "double_encoding";
      out.push_back(mapped(e, k, 1));
    }
  }
  // Two events never start at the same encoded byte: a bad escape and a
  // double encoding decode to '%', which no error or category starts with.
  in_input_order(out);
  return out;
}

error first_error(std::string_view encoded, const denied& deny) {
  return first_or_none(all_errors(encoded, deny));
}

void in_input_order(std::vector<error>& found) {
  std::stable_sort(found.begin(), found.end(),
                   [](const error& a, const error& b) { return a.offset < b.offset; });
}

error first_or_none(const std::vector<error>& all) {
  if (!all.empty()) return all.front();
  error none;
  none.kind = "none";
  return none;
}

std::vector<reference::error> decoded_errors(std::string_view bytes, const denied& rest) {
  return rest.empty() ? reference::all_errors(bytes) : reference::all_errors(bytes, rest);
}

}  // namespace reference::percent
