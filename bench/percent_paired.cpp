// percent_paired.cpp - the cost of validating percent-encoded input
// (docs/design.md 2.3) against the alternatives, each timed side by side
// (pair_timer.hpp) on every kernel:
//   - pair_percent_curl, pair_percent_uriparser: percent::validate
//     over the request lines (requests_input(), one call for the whole
//     input, no policy) against the two passes a WAF runs today: a maintained
//     decoder, then utf8guard::validate over its output. curl:
//     curl_easy_unescape, which allocates its output, and curl_free.
//     uriparser: a copy into a buffer allocated before timing (it decodes a
//     NUL-terminated string in place), then uriUnescapeInPlaceExA with '+'
//     kept and line breaks untouched.
//   - pair_percent_url_lines_curl, pair_percent_url_lines_uriparser: the same
//     a request line per call (without its LF), under the url profile; the
//     pipeline validates the decoded line under it too (it cannot see bad
//     escapes or double encoding).
//   op_ns and base_ns are per call: the whole input, or one line.
//   - pair_percent_is_valid: on text without '%' (each input the other pairs
//     time but those from memory, every '%' made a space),
//     percent::validate against is_valid. Not from memory: there both
//     sides wait for DRAM, and copying 64 MiB per kernel would cost the CI
//     smoke seconds for a ratio that says nothing about the decoder.
// Before timing, each pair checks its answers: both decoders' bytes equal
// percent_decode's, and the pipeline's verdict equals ours on every piece.
#include <benchmark/benchmark.h>
#include <curl/curl.h>
#include <uriparser/Uri.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <utf8guard/utf8guard.hpp>

#include "pair_timer.hpp"
#include "suite.hpp"

namespace bench {
namespace {

using in_ptr = std::shared_ptr<input>;

CURL* curl_handle() {
  static CURL* const handle = [] {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    return curl_easy_init();
  }();
  return handle;
}

// with_curl decodes b with curl and hands the decoded bytes to f; a failed
// allocation is an invalid_argument result.
template <class F>
auto with_curl(std::string_view b, F f) -> decltype(f(b)) {
  if (b.empty()) return f(b);  // a length of 0 would make curl call strlen
  int n = 0;
  char* out = curl_easy_unescape(curl_handle(), b.data(), static_cast<int>(b.size()), &n);
  if (out == nullptr) return f(std::string_view("\xFF", 1));  // not valid: the check fails
  auto answer = f(std::string_view(out, static_cast<std::size_t>(n)));
  curl_free(out);
  return answer;
}

// with_uriparser copies b into scratch (room for b and a NUL), decodes it
// there and hands the decoded bytes to f.
template <class F>
auto with_uriparser(std::string_view b, char* scratch, F f) {
  if (!b.empty()) std::memcpy(scratch, b.data(), b.size());
  scratch[b.size()] = '\0';
  const char* end = uriUnescapeInPlaceExA(scratch, URI_FALSE, URI_BR_DONT_TOUCH);
  return f(std::string_view(scratch, static_cast<std::size_t>(end - scratch)));
}

enum class decoder { curl, uriparser };

// pieces_of is the input whole, or its lines without their LF.
std::vector<std::string_view> pieces_of(std::string_view b, bool per_line) {
  if (!per_line) return {b};
  return lines_of(b);
}

// pipeline_agrees: on every piece, both decoders give percent_decode's bytes,
// and validating them gives our verdict at the same decoded offset, unless
// ours is one the pipeline cannot see.
bool pipeline_agrees(const std::vector<std::string_view>& pieces, utf8guard::policy p,
                     char* scratch) {
  const auto copy = [](std::string_view d) { return std::string(d); };
  for (const std::string_view piece : pieces) {
    const std::string ours = utf8guard::percent::decode(piece);
    if (with_curl(piece, copy) != ours || with_uriparser(piece, scratch, copy) != ours) {
      return false;
    }
    const utf8guard::encoded_result r = utf8guard::percent::validate(piece, p);
    if (r.category == utf8guard::category::bad_escape ||
        r.category == utf8guard::category::double_encoding) {
      continue;
    }
    const utf8guard::result base = utf8guard::validate(ours, p);
    if (r.kind != base.kind || r.decoded_offset != base.offset || r.decoded_length != base.length) {
      return false;
    }
  }
  return true;
}

// request_pair registers NAME/K/INPUT: percent::validate against a
// decoder and validate, over the pieces of the request lines.
void request_pair(const char* name, const in_ptr& in, const std::string& k, decoder d,
                  bool per_line, utf8guard::policy p) {
  benchmark::RegisterBenchmark(
      bench_name(name, k, in->name()).c_str(), [in, k, d, per_line, p](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        const std::vector<std::string_view> pieces = pieces_of(in->bytes(), per_line);
        std::size_t longest = 0;
        for (const std::string_view piece : pieces) longest = std::max(longest, piece.size());
        const std::unique_ptr<char[]> scratch(new char[longest + 1]);
        if (!pipeline_agrees(pieces, p, scratch.get())) {
          return state.SkipWithError("a decoder or the pipeline's verdict differs from ours");
        }
        const auto validate = [p](std::string_view decoded) {
          return utf8guard::validate(decoded, p);
        };
        const auto ours = [&] {
          for (const std::string_view piece : pieces) {
            benchmark::DoNotOptimize(utf8guard::percent::validate(piece, p));
          }
        };
        const auto by_curl = [&] {
          for (const std::string_view piece : pieces) {
            benchmark::DoNotOptimize(with_curl(piece, validate));
          }
        };
        const auto by_uriparser = [&] {
          for (const std::string_view piece : pieces) {
            benchmark::DoNotOptimize(with_uriparser(piece, scratch.get(), validate));
          }
        };
        const std::size_t units = pieces.size();
        if (d == decoder::curl) return bm_pair(state, ours, by_curl, units);
        bm_pair(state, ours, by_uriparser, units);
      });
}

// text_pair registers pair_percent_is_valid/K/INPUT on the input with every
// '%' made a space (the input itself when it has none, so that its placement
// stays as the other benchmarks time it).
void text_pair(const in_ptr& in, const std::string& k) {
  benchmark::RegisterBenchmark(
      bench_name("pair_percent_is_valid", k, in->name()).c_str(), [in, k](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        std::string copy;
        std::string_view text = in->bytes();
        if (text.find('%') != std::string_view::npos) {
          copy.assign(text);
          std::replace(copy.begin(), copy.end(), '%', ' ');
          text = copy;
        }
        const utf8guard::encoded_result r = utf8guard::percent::validate(text);
        const utf8guard::result plain = utf8guard::validate(text);
        if (static_cast<const utf8guard::result&>(r) != plain || r.decoded_offset != plain.offset ||
            r.decoded_length != plain.length || utf8guard::is_valid(text) != plain.ok()) {
          return state.SkipWithError("percent::validate differs from validate");
        }
        bm_pair(
            state, [text] { benchmark::DoNotOptimize(utf8guard::percent::validate(text)); },
            [text] { benchmark::DoNotOptimize(utf8guard::is_valid(text)); });
      });
}

}  // namespace

void register_percent_pairs(const input_list& inputs) {
  const in_ptr requests = requests_input();
  const utf8guard::policy url = utf8guard::policy::url();
  for (const std::string& k : usable_kernels()) {
    request_pair("pair_percent_curl", requests, k, decoder::curl, false, {});
    request_pair("pair_percent_uriparser", requests, k, decoder::uriparser, false, {});
    request_pair("pair_percent_url_lines_curl", requests, k, decoder::curl, true, url);
    request_pair("pair_percent_url_lines_uriparser", requests, k, decoder::uriparser, true, url);
  }
  for (const in_ptr& in : inputs) {
    if (in->kind() != input_kind::cached || !in->times_validation()) continue;
    for (const std::string& k : usable_kernels()) text_pair(in, k);
  }
}

}  // namespace bench
