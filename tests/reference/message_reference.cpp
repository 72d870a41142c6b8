// message_reference.cpp - see message_reference.hpp.
#include "message_reference.hpp"

#include <algorithm>
#include <cstdio>

namespace reference {
namespace {

std::string code_point(char32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04lX", static_cast<unsigned long>(v));
  return buf;
}

// text writes the message of e over the checked bytes (the input's, or the
// decoded ones), where the error starts at checked offset at; offset is the
// number printed.
std::string text(std::string_view checked, std::size_t at, const error& e, std::size_t offset,
                 bool hints) {
  std::string out(e.kind);
  if (e.kind == "disallowed") {
    out.append(" ").append(e.category).append(" ").append(code_point(e.code_point));
  }
  out.append(" at byte ").append(std::to_string(offset)).append(" (");
  for (std::size_t k = 0; k < 4 && at + k < checked.size(); ++k) {
    char pair[4];
    std::snprintf(pair, sizeof pair, k == 0 ? "%02X" : " %02X",
                  static_cast<unsigned>(static_cast<unsigned char>(checked[at + k])));
    out += pair;
  }
  out += ")";
  if (hints && e.kind != "disallowed") {
    const hint h = explain(checked, at);
    if (!h.name.empty()) {
      out.append(" [").append(h.name);
      if (h.has_value) out.append(" ").append(code_point(h.value));
      out += "]";
    }
  }
  return out;
}

}  // namespace

std::string message(std::string_view bytes, const error& e, bool hints) {
  return text(bytes, e.offset, e, e.offset, hints);
}

std::string message(std::string_view encoded, const percent::error& e, bool hints) {
  return message(percent::decode(encoded), e, hints);
}

std::string message(const percent::decoded& d, const percent::error& e, bool hints) {
  return text(d.bytes, e.decoded_offset, e, e.offset, hints);
}

std::size_t truncate(std::string_view bytes, std::size_t max, bool keep_ill_formed) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    const error unit = sequence_at(bytes, i);
    if (!keep_ill_formed && !unit.ok()) break;
    if (i + unit.length > max) break;
    i += unit.length;
    best = i;
  }
  return best;
}

std::vector<std::size_t> truncations(std::string_view bytes, bool keep_ill_formed) {
  // Each unit that may be kept ends a prefix that is the answer from its end
  // on, up to the next such end; the walk stops where truncate stops for
  // every max (an ill-formed unit, when only well-formed prefixes count).
  std::vector<std::size_t> out(bytes.size() + 1, 0);
  for (std::size_t i = 0; i < bytes.size();) {
    const error unit = sequence_at(bytes, i);
    if (!keep_ill_formed && !unit.ok()) break;
    i += unit.length;
    out[i] = i;
  }
  for (std::size_t max = 1; max < out.size(); ++max) out[max] = std::max(out[max], out[max - 1]);
  return out;
}

}  // namespace reference
