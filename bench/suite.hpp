// suite.hpp - how the benchmarks are named, checked and registered.
//
// Every benchmark is named OP/IMPL/INPUT, which bench/report.py parses:
//   OP    is_valid, validate, stream4k, stream64k, sanitize, errors, limit,
//         or pair_OP_BASE: a ratio timed side by side (paired.cpp)
//   IMPL  a utf8guard kernel (scalar, sse42, avx2, avx512bw, avx512, neon), a
//         competitor (icu_u8next, ...), or for OP=limit: read, memcpy
//   INPUT an input's name; small inputs end in "B" (e.g. mixed_64B)
// Before timing, each benchmark checks its answer once (against the scalar
// kernel, or the input's known validity) and fails loudly when it differs,
// so that no wrong implementation gets a speed.
#ifndef UTF8GUARD_BENCH_SUITE_HPP
#define UTF8GUARD_BENCH_SUITE_HPP

#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <utf8guard/utf8guard.hpp>

#include "inputs.hpp"
#include "support/usable_kernels.hpp"

namespace bench {

using input_list = std::vector<std::shared_ptr<input>>;

// usable_kernels lists the kernels this CPU runs, slowest first.
using utf8guard::testing::usable_kernels;

// force_kernel makes every later call use kernel k, or fails the benchmark.
bool force_kernel(benchmark::State& state, const std::string& k);

// expected_sanitized is utf8guard::sanitize of the input with the scalar
// kernel, computed once; it leaves the scalar kernel active.
const std::string& expected_sanitized(const input& in);

// expected_errors is the number of maximal subparts the scalar kernel's
// error_scanner reports, computed once; it leaves the scalar kernel active.
std::size_t expected_errors(const input& in);

// count_errors runs an error_scanner over the whole input (one feed, then
// finish) and returns how many errors it reported.
std::size_t count_errors(std::string_view bytes);

// lines_of is the input's lines without their LF, empty ones left out (the
// paired pipelines of percent_paired.cpp and json_paired.cpp go line by line).
std::vector<std::string_view> lines_of(std::string_view bytes);

// stream feeds the whole input to v in chunks of `chunk` bytes, then
// finishes: what a server does with a request body arriving in socket reads.
utf8guard::result stream(utf8guard::validator& v, std::string_view bytes, std::size_t chunk);

// count_bytes sets bytes/s to the input's size and items/s to its
// characters, per iteration.
void count_bytes(benchmark::State& state, const input& in);

// A buffer for sanitize output, sized by utf8guard::sanitize_bound and
// left uninitialised (the first, checking call touches what is used).
struct out_buffer {
  explicit out_buffer(std::size_t n);
  std::unique_ptr<char[]> data;
  std::size_t capacity;
};

std::string bench_name(const std::string& op, const std::string& impl, const std::string& in);

void register_utf8guard(const input_list& inputs, const std::vector<small_pool>& pools);
void register_competitors(const input_list& inputs, const std::vector<small_pool>& pools);
void register_limits(const input_list& inputs);
// register_pairs: ratios between two calls, timed side by side (paired.cpp).
void register_pairs(const input_list& inputs);
// register_percent_pairs: percent-encoded input against its alternatives, side by side
// (percent_paired.cpp), on the request lines and on the inputs without '%'.
void register_percent_pairs(const input_list& inputs);
// register_request_parts: what the nginx module asks of the library per
// request and per form body, side by side (request_parts.cpp).
void register_request_parts(const input_list& inputs);
// register_json_pairs: JSON text against the raw check and simdjson, side by
// side (json_paired.cpp).
void register_json_pairs(const input_list& inputs);

}  // namespace bench

#endif  // UTF8GUARD_BENCH_SUITE_HPP
