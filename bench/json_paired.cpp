// json_paired.cpp - the cost of checking JSON text (docs/design.md, the JSON
// form) against the alternatives, each timed side by side (pair_timer.hpp) on
// every kernel, under the json profile (I-JSON's strings: no surrogates, no
// noncharacters):
//   - pair_json_plain_validate: json::validate of a JSON array of the text's
//     lines written raw, with no backslash in it (the lines' quotes,
//     backslashes and controls left out) | validate of the same bytes: what
//     the JSON form costs where there is no escape to decode.
//   - pair_json_escaped_simdjson: json::validate of the text's lines as a
//     JSON array with every non-ASCII character escaped, as Python's
//     json.dumps(..., ensure_ascii=True) writes them (a surrogate pair for a
//     supplementary character) | simdjson (Debian's libsimdjson-dev, its DOM
//     parser) parsing the document and walking every string it decoded for
//     surrogates and noncharacters: the check a server could run instead.
//   - pair_json_escaped_simdjson_parse: the same document | simdjson's parse
//     alone, which checks less (no policy).
//   - pair_json_body_is_valid: json::is_valid of one 2 KiB JSON request body
//     per call (an object of a few fields whose values are the text's words,
//     written raw, a newline escaped here and there) | is_valid of the same
//     body: what the JSON form adds to the raw check, per request. op_ns,
//     base_ns: per body.
// The simdjson pairs exist when the build found simdjson
// (UTF8GUARD_BENCH_SIMDJSON). Before timing, each pair checks that both
// sides call every document valid.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <utf8guard/utf8guard.hpp>

#include "pair_timer.hpp"
#include "suite.hpp"

#ifdef UTF8GUARD_BENCH_SIMDJSON
#include <simdjson.h>
#endif

namespace bench {
namespace {

using in_ptr = std::shared_ptr<input>;

// next_scalar decodes the well-formed character at s[i] and moves i past it.
char32_t next_scalar(std::string_view s, std::size_t& i) {
  const auto b = [&s](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned lead = b(i);
  if (lead < 0x80) return s[i++];
  if (lead < 0xE0) {
    const char32_t cp = ((lead & 0x1Fu) << 6) | (b(i + 1) & 0x3Fu);
    i += 2;
    return cp;
  }
  if (lead < 0xF0) {
    const char32_t cp = ((lead & 0x0Fu) << 12) | ((b(i + 1) & 0x3Fu) << 6) | (b(i + 2) & 0x3Fu);
    i += 3;
    return cp;
  }
  const char32_t cp = ((lead & 0x07u) << 18) | ((b(i + 1) & 0x3Fu) << 12) |
                      ((b(i + 2) & 0x3Fu) << 6) | (b(i + 3) & 0x3Fu);
  i += 4;
  return cp;
}

void append_unit(std::string& out, unsigned u) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", u);
  out += buf;
}

// escaped_string is s as a JSON string in the style of Python's json.dumps:
// '"' and '\\' and the controls escaped; with ascii_only every non-ASCII
// character as \uXXXX, a surrogate pair above U+FFFF.
std::string escaped_string(std::string_view s, bool ascii_only) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t cp = next_scalar(s, i);
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp < 0x20) {
      append_unit(out, cp);
    } else if (cp < 0x80 || !ascii_only) {
      out.append(s.substr(start, i - start));
    } else if (cp < 0x10000) {
      append_unit(out, cp);
    } else {
      append_unit(out, 0xD800 + ((cp - 0x10000) >> 10));
      append_unit(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    }
  }
  return out + "\"";
}

// plain_document is a JSON array of the lines, raw, less every byte that
// JSON would escape: no backslash anywhere.
std::string plain_document(std::string_view text) {
  std::string out = "[";
  for (const std::string_view line : lines_of(text)) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (const char c : line) {
      if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    out += '"';
  }
  return out + "]";
}

// escaped_document is a JSON array of the lines, every non-ASCII character
// escaped (json.dumps(lines, ensure_ascii=True)).
std::string escaped_document(std::string_view text) {
  std::string out = "[";
  for (const std::string_view line : lines_of(text)) {
    if (out.size() > 1) out += ", ";
    out += escaped_string(line, true);
  }
  return out + "]";
}

// request_bodies cuts the text's words into JSON objects of about 2 KiB:
// {"id": N, "user": "...", "title": "...", "comment": "...\n...", "tags":
// [...]}, written raw (a JavaScript client's JSON.stringify), one newline in
// the comment escaped.
std::vector<std::string> request_bodies(std::string_view text, std::size_t count) {
  std::vector<std::string> words;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find_first_of(" \n", at);
    if (end == std::string_view::npos) end = text.size();
    if (end > at) words.emplace_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::vector<std::string> bodies;
  if (words.empty()) return bodies;
  std::size_t w = 0;
  const auto some = [&](std::size_t n) {
    std::string s;
    for (std::size_t k = 0; k < n; ++k, w = (w + 1) % words.size()) {
      s += (k == 0 ? "" : " ") + words[w];
    }
    return s;
  };
  for (std::size_t id = 0; id < count; ++id) {
    std::string body = "{\"id\": " + std::to_string(id) +
                       ", \"user\": " + escaped_string(some(2), false) +
                       ", \"title\": " + escaped_string(some(6), false) + ", \"comment\": ";
    std::string comment;
    while (body.size() + comment.size() < 1900) comment += some(8) + (comment.empty() ? "\n" : " ");
    body += escaped_string(comment, false) + ", \"tags\": [" + escaped_string(some(1), false) +
            ", " + escaped_string(some(1), false) + "]}";
    bodies.push_back(std::move(body));
  }
  return bodies;
}

const utf8guard::policy kProfile = utf8guard::policy::json();

void plain_pair(const in_ptr& in, const std::string& k) {
  benchmark::RegisterBenchmark(
      bench_name("pair_json_plain_validate", k, in->name()).c_str(),
      [in, k](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        const std::string doc = plain_document(in->bytes());
        if (!utf8guard::json::validate(doc, kProfile).ok() ||
            !utf8guard::validate(doc, kProfile).ok()) {
          return state.SkipWithError("the document is not valid under the json profile");
        }
        bm_pair(
            state, [&doc] { benchmark::DoNotOptimize(utf8guard::json::validate(doc, kProfile)); },
            [&doc] { benchmark::DoNotOptimize(utf8guard::validate(doc, kProfile)); });
      });
}

void body_pair(const in_ptr& in, const std::string& k) {
  benchmark::RegisterBenchmark(
      bench_name("pair_json_body_is_valid", k, in->name() + "-body_2KiB").c_str(),
      [in, k](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        const std::vector<std::string> bodies = request_bodies(in->bytes(), 64);
        for (const std::string& b : bodies) {
          if (!utf8guard::json::is_valid(b, kProfile) || !utf8guard::is_valid(b, kProfile)) {
            return state.SkipWithError("a body is not valid under the json profile");
          }
        }
        bm_pair(
            state,
            [&bodies] {
              for (const std::string& b : bodies) {
                benchmark::DoNotOptimize(utf8guard::json::is_valid(b, kProfile));
              }
            },
            [&bodies] {
              for (const std::string& b : bodies) {
                benchmark::DoNotOptimize(utf8guard::is_valid(b, kProfile));
              }
            },
            bodies.size());
      });
}

#ifdef UTF8GUARD_BENCH_SIMDJSON
// clean_string walks one decoded string as the json profile asks: no
// surrogate (simdjson's output is UTF-8, which cannot hold one, unless its
// decoder lets one through) and no noncharacter.
bool clean_string(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const char32_t cp = next_scalar(s, i);
    if ((cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0xFDD0 && cp <= 0xFDEF) ||
        (cp & 0xFFFE) == 0xFFFE) {
      return false;
    }
  }
  return true;
}

// simdjson_check parses the document and, with walk, walks every string of
// its top-level array; true when simdjson accepts it and every string is
// clean.
bool simdjson_check(simdjson::dom::parser& parser, const simdjson::padded_string& doc, bool walk) {
  simdjson::dom::element root;
  if (parser.parse(doc).get(root) != simdjson::SUCCESS) return false;
  if (!walk) return true;
  simdjson::dom::array items;
  if (root.get_array().get(items) != simdjson::SUCCESS) return false;
  for (const simdjson::dom::element item : items) {
    std::string_view s;
    if (item.get_string().get(s) != simdjson::SUCCESS || !clean_string(s)) return false;
  }
  return true;
}

void simdjson_pair(const in_ptr& in, const std::string& k, bool walk) {
  const char* name = walk ? "pair_json_escaped_simdjson" : "pair_json_escaped_simdjson_parse";
  benchmark::RegisterBenchmark(
      bench_name(name, k, in->name()).c_str(), [in, k, walk](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        const std::string doc = escaped_document(in->bytes());
        const simdjson::padded_string padded(doc);
        simdjson::dom::parser parser;
        if (!utf8guard::json::validate(doc, kProfile).ok() ||
            !simdjson_check(parser, padded, true)) {
          return state.SkipWithError("the escaped document is not valid on both sides");
        }
        bm_pair(
            state, [&doc] { benchmark::DoNotOptimize(utf8guard::json::validate(doc, kProfile)); },
            [&parser, &padded, walk] {
              benchmark::DoNotOptimize(simdjson_check(parser, padded, walk));
            });
      });
}
#endif

}  // namespace

void register_json_pairs(const input_list& inputs) {
  for (const in_ptr& in : inputs) {
    // Text the json profile refuses (the synthetic inputs' random noncharacters)
    // makes no JSON document to time.
    if (in->kind() != input_kind::cached || !in->times_validation() ||
        !utf8guard::is_valid(in->bytes(), kProfile)) {
      continue;
    }
    for (const std::string& k : usable_kernels()) {
      plain_pair(in, k);
#ifdef UTF8GUARD_BENCH_SIMDJSON
      simdjson_pair(in, k, true);
      simdjson_pair(in, k, false);
#endif
      body_pair(in, k);
    }
  }
}

}  // namespace bench
