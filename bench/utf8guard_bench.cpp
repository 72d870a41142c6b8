// utf8guard_bench.cpp - utf8guard's own benchmarks, each kernel forced in
// turn: is_valid, validate, the streaming validator at 4 KiB and 64 KiB
// chunks, sanitize_to into a preallocated buffer, and the error_scanner.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

#include <utf8guard/utf8guard.hpp>

#include "suite.hpp"

namespace bench {
namespace {

using in_ptr = std::shared_ptr<input>;

void bm_is_valid(benchmark::State& state, const in_ptr& in, const std::string& k) {
  const std::string_view b = in->bytes();
  const bool expected = in->first_error() == b.size();
  if (!force_kernel(state, k)) return;
  if (utf8guard::is_valid(b) != expected) return state.SkipWithError("is_valid: wrong answer");
  for (auto _ : state) {
    bool ok = utf8guard::is_valid(b);
    benchmark::DoNotOptimize(ok);
  }
  count_bytes(state, *in);
}

void bm_validate(benchmark::State& state, const in_ptr& in, const std::string& k) {
  const std::string_view b = in->bytes();
  if (!force_kernel(state, k)) return;
  const utf8guard::result first = utf8guard::validate(b);
  if (first.ok() ? in->first_error() != b.size() : first.offset != in->first_error()) {
    return state.SkipWithError("validate: wrong offset");
  }
  for (auto _ : state) {
    utf8guard::result r = utf8guard::validate(b);
    benchmark::DoNotOptimize(r);
  }
  count_bytes(state, *in);
}

void bm_stream(benchmark::State& state, const in_ptr& in, const std::string& k, std::size_t chunk) {
  const std::string_view b = in->bytes();
  if (!force_kernel(state, k)) return;
  utf8guard::validator v;
  if (stream(v, b, chunk) != utf8guard::validate(b)) {
    return state.SkipWithError("validator: differs from validate");
  }
  for (auto _ : state) {
    utf8guard::result r = stream(v, b, chunk);
    benchmark::DoNotOptimize(r);
  }
  count_bytes(state, *in);
}

void bm_sanitize(benchmark::State& state, const in_ptr& in, const std::string& k) {
  const std::string_view b = in->bytes();
  const std::string& expected = expected_sanitized(*in);
  if (!force_kernel(state, k)) return;
  out_buffer out(b.size());
  const std::size_t n = utf8guard::sanitize_to(b, out.data.get(), out.capacity);
  if (std::string_view(out.data.get(), n) != expected) {
    return state.SkipWithError("sanitize_to: differs from the scalar kernel");
  }
  for (auto _ : state) {
    std::size_t written = utf8guard::sanitize_to(b, out.data.get(), out.capacity);
    benchmark::DoNotOptimize(written);
    benchmark::ClobberMemory();
  }
  count_bytes(state, *in);
  state.counters["out_bytes"] = static_cast<double>(n);
}

void bm_errors(benchmark::State& state, const in_ptr& in, const std::string& k) {
  const std::string_view b = in->bytes();
  const std::size_t expected = expected_errors(*in);
  if (!force_kernel(state, k)) return;
  if (count_errors(b) != expected) return state.SkipWithError("error_scanner: wrong count");
  for (auto _ : state) {
    std::size_t n = count_errors(b);
    benchmark::DoNotOptimize(n);
  }
  count_bytes(state, *in);
  state.counters["errors"] = static_cast<double>(expected);
}

// Small inputs: one call per iteration, cycling through the pool; the
// report reads the time per iteration as ns per call.
template <class Call>
void bm_small(benchmark::State& state, const small_pool& pool, const std::string& k, Call call) {
  if (!force_kernel(state, k)) return;
  std::size_t i = 0;
  const std::size_t mask = pool.strings.size() - 1;  // a power of two
  for (auto _ : state) {
    auto r = call(std::string_view(pool.strings[i]));
    benchmark::DoNotOptimize(r);
    i = (i + 1) & mask;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(pool.size));
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

void register_utf8guard(const input_list& inputs, const std::vector<small_pool>& pools) {
  const std::vector<std::string> ks = usable_kernels();
  for (const in_ptr& in : inputs) {
    const std::string& name = in->name();
    for (const std::string& k : ks) {
      // Validating an input with an early error times only its first bytes;
      // such inputs are for sanitize and the error scanner.
      if (in->times_validation()) {
        benchmark::RegisterBenchmark(bench_name("is_valid", k, name).c_str(), bm_is_valid, in, k);
        benchmark::RegisterBenchmark(bench_name("validate", k, name).c_str(), bm_validate, in, k);
        benchmark::RegisterBenchmark(bench_name("stream4k", k, name).c_str(), bm_stream, in, k,
                                     std::size_t{4096});
        benchmark::RegisterBenchmark(bench_name("stream64k", k, name).c_str(), bm_stream, in, k,
                                     std::size_t{65536});
      }
      benchmark::RegisterBenchmark(bench_name("sanitize", k, name).c_str(), bm_sanitize, in, k);
      benchmark::RegisterBenchmark(bench_name("errors", k, name).c_str(), bm_errors, in, k);
    }
  }
  for (const small_pool& pool : pools) {
    for (const std::string& k : ks) {
      benchmark::RegisterBenchmark(
          bench_name("is_valid", k, pool.name).c_str(), [&pool, k](benchmark::State& s) {
            bm_small(s, pool, k, [](std::string_view v) { return utf8guard::is_valid(v); });
          });
      benchmark::RegisterBenchmark(
          bench_name("validate", k, pool.name).c_str(), [&pool, k](benchmark::State& s) {
            bm_small(s, pool, k, [](std::string_view v) { return utf8guard::validate(v); });
          });
    }
  }
}

}  // namespace bench
