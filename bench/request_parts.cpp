// request_parts.cpp - what ngx_http_utf8guard_module asks of the library for
// each request and each form body (nginx/README.md, "Speed"), timed side by
// side (pair_timer.hpp) on every kernel:
//   - pair_request_targets_is_valid: percent::is_valid under the url
//     profile, one request target of requests_input() per call (path and
//     query as one, as the module checks a clean target) | is_valid of the
//     same target percent-decoded before timing: what decoding and the
//     policy add to validation, on short input. op_ns, base_ns: per target.
//   - pair_request_headers_is_valid: is_valid under the field profile, each
//     of the twelve header values bench/nginx/requests.lua sends | is_valid
//     of each: the policy on short values. op_ns, base_ns: per value.
//   - pair_form_body_memcpy: a percent::validator under url,-newline (the
//     module's form rule) fed a 10 MiB form body in 64 KiB chunks | a memcpy
//     of each chunk into a 64 KiB buffer, the least that nginx does with a
//     byte it receives and passes on. op_ns, base_ns: per body. Two bodies:
//     form-requests, the queries of the request lines joined by '&' as
//     requests.lua builds it (most bytes in escapes), and form-latin, the
//     first text whose name starts with "Latin" among the files given (the
//     Latin lipsum, or its stand-in) form-encoded as requests.lua does with
//     UTF8GUARD_BENCH_FORM_TEXT: mostly ASCII, as most forms are.
//   - pair_form_body_is_valid: the same percent::validator | is_valid under
//     url,-newline of the same bodies percent-decoded before timing, in one
//     call: what decoding costs over validating its output. op_ns, base_ns:
//     per body.
// Before timing, each pair checks that every target, value and body is
// valid, as the module's benchmark needs it to be.
#include <benchmark/benchmark.h>

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

// The header values of bench/nginx/requests.lua.
const std::vector<std::string_view> kHeaderValues = {
    "bench.example",
    "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "de-CH,fr;q=0.8,ja;q=0.6,en;q=0.4",
    "gzip, deflate, br",
    "https://bench.example/%E6%A4%9C%E7%B4%A2?q=caf%C3%A9",
    "session=4f2a9c1e7b; lang=ja; theme=dark; cart=3",
    "no-cache",
    "no-cache",
    "1",
    "b7e2c1d4-5a6f-4e3b-9c8d-7f1e2a3b4c5d",
    "203.0.113.7"};

constexpr std::size_t kChunk = std::size_t{64} << 10;

utf8guard::policy form_policy() { return utf8guard::policy_parse("url,-newline").policy; }

void targets_pair(const in_ptr& requests, const std::string& k) {
  benchmark::RegisterBenchmark(
      bench_name("pair_request_targets_is_valid", k, requests->name()).c_str(),
      [requests, k](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        const std::vector<std::string_view> targets = targets_of(requests->bytes());
        std::vector<std::string> decoded;
        for (const std::string_view t : targets) {
          if (!utf8guard::percent::is_valid(t, utf8guard::policy::url())) {
            return state.SkipWithError("a target is not valid under url");
          }
          decoded.push_back(utf8guard::percent::decode(t));
        }
        bm_pair(
            state,
            [&targets] {
              for (const std::string_view t : targets) {
                benchmark::DoNotOptimize(utf8guard::percent::is_valid(t, utf8guard::policy::url()));
              }
            },
            [&decoded] {
              for (const std::string& d : decoded) benchmark::DoNotOptimize(utf8guard::is_valid(d));
            },
            targets.size());
      });
}

void headers_pair(const std::string& k) {
  benchmark::RegisterBenchmark(
      bench_name("pair_request_headers_is_valid", k, "requests.lua").c_str(),
      [k](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        for (const std::string_view v : kHeaderValues) {
          if (!utf8guard::is_valid(v, utf8guard::policy::field())) {
            return state.SkipWithError("a header value is not valid under field");
          }
        }
        bm_pair(
            state,
            [] {
              for (const std::string_view v : kHeaderValues) {
                benchmark::DoNotOptimize(utf8guard::is_valid(v, utf8guard::policy::field()));
              }
            },
            [] {
              for (const std::string_view v : kHeaderValues) {
                benchmark::DoNotOptimize(utf8guard::is_valid(v));
              }
            },
            kHeaderValues.size());
      });
}

void form_pair(const std::string& name, std::shared_ptr<const std::string> body,
               const std::string& k) {
  benchmark::RegisterBenchmark(
      bench_name("pair_form_body_memcpy", k, name).c_str(), [body, k](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        const std::string_view b = *body;
        const auto check = [b] {
          utf8guard::percent::validator v(form_policy());
          for (std::size_t at = 0; at < b.size(); at += kChunk) {
            const utf8guard::encoded_result r = v.feed(b.substr(at, kChunk));
            if (!r.ok()) return r;
          }
          return v.finish();
        };
        if (!check().ok()) return state.SkipWithError("the form body is not valid");
        const std::unique_ptr<char[]> copy(new char[kChunk]);
        bm_pair(
            state, [&check] { benchmark::DoNotOptimize(check()); },
            [b, &copy] {
              for (std::size_t at = 0; at < b.size(); at += kChunk) {
                const std::size_t n = std::min(kChunk, b.size() - at);
                std::memcpy(copy.get(), b.data() + at, n);
                benchmark::DoNotOptimize(copy.get());
                benchmark::ClobberMemory();
              }
            },
            1);
      });
}

// form_check_pair: the same percent::validator | is_valid under the same
// policy of the body percent-decoded before timing, in one call: what
// decoding adds to validating the decoded bytes.
void form_check_pair(const std::string& name, std::shared_ptr<const std::string> body,
                     const std::string& k) {
  benchmark::RegisterBenchmark(
      bench_name("pair_form_body_is_valid", k, name).c_str(), [body, k](benchmark::State& state) {
        if (!force_kernel(state, k)) return;
        const std::string_view b = *body;
        const std::string decoded = utf8guard::percent::decode(b);
        const utf8guard::policy policy = form_policy();
        const auto check = [b, &policy] {
          utf8guard::percent::validator v(policy);
          for (std::size_t at = 0; at < b.size(); at += kChunk) {
            const utf8guard::encoded_result r = v.feed(b.substr(at, kChunk));
            if (!r.ok()) return r;
          }
          return v.finish();
        };
        if (!check().ok() || !utf8guard::is_valid(decoded, policy)) {
          return state.SkipWithError("the form body is not valid");
        }
        bm_pair(
            state, [&check] { benchmark::DoNotOptimize(check()); },
            [&decoded, &policy] { benchmark::DoNotOptimize(utf8guard::is_valid(decoded, policy)); },
            1);
      });
}

}  // namespace

void register_request_parts(const input_list& inputs) {
  const in_ptr requests = requests_input();
  const auto requests_form =
      std::make_shared<const std::string>(form_of_requests(requests->bytes()));
  std::shared_ptr<const std::string> latin_form;
  for (const in_ptr& in : inputs) {
    if (in->name().rfind("Latin", 0) == 0) {
      latin_form = std::make_shared<const std::string>(form_of_text(in->bytes()));
      break;
    }
  }
  for (const std::string& k : usable_kernels()) {
    targets_pair(requests, k);
    headers_pair(k);
    form_pair("form-requests_10MiB", requests_form, k);
    form_check_pair("form-requests_10MiB", requests_form, k);
    if (latin_form) {
      form_pair("form-latin_10MiB", latin_form, k);
      form_check_pair("form-latin_10MiB", latin_form, k);
    }
  }
}

}  // namespace bench
