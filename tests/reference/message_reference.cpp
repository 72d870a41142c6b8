// message_reference.cpp - see message_reference.hpp.
#include "message_reference.hpp"

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
  return text(percent::decode(encoded).bytes, e.decoded_offset, e, e.offset, hints);
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

}  // namespace reference
