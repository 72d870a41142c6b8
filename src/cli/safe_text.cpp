// safe_text.cpp - see safe_text.hpp. The characters to escape are found by
// the library itself: an error_scanner with the field profile over the
// sanitized text.
#include "safe_text.hpp"

#include <utf8guard/utf8guard.hpp>

namespace utf8guard::cli {
namespace {

constexpr char kUpperHex[] = "0123456789ABCDEF";

void append_percent(std::string& out, std::string_view bytes) {
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back('%');
    out.push_back(kUpperHex[b >> 4]);
    out.push_back(kUpperHex[b & 0xF]);
  }
}

void append_u_escape(std::string& out, unsigned unit) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.append("\\u");
  for (int k = 3; k >= 0; --k) out.push_back(kHex[(unit >> (4 * k)) & 0xF]);
}

void json_escape(std::string& out, char32_t cp, std::string_view) {
  if (cp >= 0x10000) {
    const char32_t v = cp - 0x10000;
    append_u_escape(out, 0xD800 + static_cast<unsigned>(v >> 10));
    append_u_escape(out, 0xDC00 + static_cast<unsigned>(v & 0x3FF));
  } else {
    append_u_escape(out, static_cast<unsigned>(cp));
  }
}

// json_plain escapes what JSON itself needs: the quote, the backslash, and
// TAB (the one control character no category holds).
void json_plain(std::string& out, std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20) {
      append_u_escape(out, static_cast<unsigned char>(c));
      continue;
    }
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
}

// github_escape writes a denied character as the visible text %XX per byte:
// its '%' escaped as %25, so that GitHub's unescaping shows "%0D", never CR.
void github_escape(std::string& out, char32_t, std::string_view bytes) {
  for (const char c : bytes) {
    out.append("%25");
    append_percent(out, std::string_view(&c, 1));
    out.erase(out.size() - 3, 1);  // the '%' append_percent wrote
  }
}

void github_data_plain(std::string& out, std::string_view text) {
  for (const char c : text) {
    if (c == '%') {
      append_percent(out, std::string_view(&c, 1));
    } else {
      out.push_back(c);
    }
  }
}

void github_property_plain(std::string& out, std::string_view text) {
  for (const char c : text) {
    if (c == '%' || c == ':' || c == ',') {
      append_percent(out, std::string_view(&c, 1));
    } else {
      out.push_back(c);
    }
  }
}

}  // namespace

std::string safe_text(std::string_view raw, plain_fn plain, escape_fn escape) {
  const std::string text = sanitize(raw);
  const std::string_view view(text);
  std::string out;
  out.reserve(text.size());
  std::size_t copied = 0;
  // A BOM at byte 0 is a signature to the policy; in a name it is escaped too.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (view.substr(0, kBom.size()) == kBom) {
    escape(out, 0xFEFF, kBom);
    copied = kBom.size();
  }
  const auto on_error = [&](const result& r) {
    plain(out, view.substr(copied, r.offset - copied));
    escape(out, r.code_point, view.substr(r.offset, r.length));
    copied = r.offset + r.length;
  };
  error_scanner scanner(policy::field());
  (void)scanner.feed(view, on_error);
  (void)scanner.finish(on_error);
  plain(out, view.substr(copied));
  return out;
}

std::string json_quote_ci(std::string_view raw) {
  return '"' + safe_text(raw, json_plain, json_escape) + '"';
}

std::string github_property(std::string_view raw) {
  return safe_text(raw, github_property_plain, github_escape);
}

std::string github_data(std::string_view raw) {
  return safe_text(raw, github_data_plain, github_escape);
}

std::string uri_reference(std::string_view path) {
  std::string out;
  out.reserve(path.size() + 7);
  if (!path.empty() && path.front() == '/') out.append("file://");  // an absolute path
  for (const char c : path) {
    const auto b = static_cast<unsigned char>(c);
    const bool unreserved = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
                            (b >= '0' && b <= '9') || c == '-' || c == '.' || c == '_' ||
                            c == '~' || c == '/';
    if (unreserved) {
      out.push_back(c);
    } else {
      append_percent(out, std::string_view(&c, 1));
    }
  }
  return out;
}

}  // namespace utf8guard::cli
