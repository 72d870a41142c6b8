// baseline_bench.cpp - what utf8guard is measured against, in the same
// process on the same bytes: the Debian-packaged validators and sanitizers,
// and the limits (one read pass over the bytes, and memcpy of them).
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "competitors.hpp"
#include "limits.hpp"
#include "suite.hpp"

namespace bench {
namespace {

using in_ptr = std::shared_ptr<input>;

void bm_validator(benchmark::State& state, const in_ptr& in, validator_impl impl) {
  const std::string_view b = in->bytes();
  if (impl.is_valid(b) != (in->first_error() == b.size())) {
    return state.SkipWithError("disagrees with utf8guard about validity");
  }
  for (auto _ : state) {
    bool ok = impl.is_valid(b);
    benchmark::DoNotOptimize(ok);
  }
  count_bytes(state, *in);
}

void bm_sanitizer(benchmark::State& state, const in_ptr& in, sanitizer_impl impl) {
  const std::string_view b = in->bytes();
  out_buffer out(b.size());
  const std::size_t n = impl.sanitize(b, out.data.get(), out.capacity);
  if (n == SIZE_MAX) return state.SkipWithError("sanitizer failed");
  // Replacing by another rule is still timed, but flagged: conformant = 0.
  const bool same = std::string_view(out.data.get(), n) == expected_sanitized(*in);
  for (auto _ : state) {
    std::size_t written = impl.sanitize(b, out.data.get(), out.capacity);
    benchmark::DoNotOptimize(written);
    benchmark::ClobberMemory();
  }
  count_bytes(state, *in);
  state.counters["conformant"] = same ? 1 : 0;
}

template <class Call>
void bm_small(benchmark::State& state, const small_pool& pool, Call call) {
  for (const std::string& s : pool.strings) {
    if (!call(std::string_view(s))) return state.SkipWithError("rejects a valid string");
  }
  std::size_t i = 0;
  const std::size_t mask = pool.strings.size() - 1;  // a power of two
  for (auto _ : state) {
    bool ok = call(std::string_view(pool.strings[i]));
    benchmark::DoNotOptimize(ok);
    i = (i + 1) & mask;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(pool.size));
  state.SetItemsProcessed(state.iterations());
}

void bm_read(benchmark::State& state, const in_ptr& in) {
  const std::string_view b = in->bytes();
  const auto* p = reinterpret_cast<const std::uint8_t*>(b.data());
  for (auto _ : state) {
    std::uint64_t acc = read_pass(p, b.size());
    benchmark::DoNotOptimize(acc);
  }
  count_bytes(state, *in);
  state.SetLabel(std::string(read_pass_isa()));
}

void bm_memcpy(benchmark::State& state, const in_ptr& in) {
  const std::string_view b = in->bytes();
  std::unique_ptr<char[]> dst(new char[b.size()]);
  std::memcpy(dst.get(), b.data(), b.size());  // fault the pages in before timing
  for (auto _ : state) {
    std::memcpy(dst.get(), b.data(), b.size());
    benchmark::DoNotOptimize(dst.get());
    benchmark::ClobberMemory();
  }
  count_bytes(state, *in);
}

}  // namespace

void register_competitors(const input_list& inputs, const std::vector<small_pool>& pools) {
  std::size_t nv = 0, ns = 0;
  const validator_impl* vs = validators(nv);
  const sanitizer_impl* ss = sanitizers(ns);
  for (const in_ptr& in : inputs) {
    for (std::size_t i = 0; in->times_validation() && i < nv; ++i) {
      benchmark::RegisterBenchmark(bench_name("is_valid", vs[i].name, in->name()).c_str(),
                                   bm_validator, in, vs[i]);
    }
    for (std::size_t i = 0; i < ns; ++i) {
      benchmark::RegisterBenchmark(bench_name("sanitize", ss[i].name, in->name()).c_str(),
                                   bm_sanitizer, in, ss[i]);
    }
  }
  for (const small_pool& pool : pools) {
    for (std::size_t i = 0; i < nv; ++i) {
      const validator_impl v = vs[i];
      benchmark::RegisterBenchmark(
          bench_name("is_valid", v.name, pool.name).c_str(),
          [&pool, v](benchmark::State& s) { bm_small(s, pool, v.is_valid); });
    }
  }
}

void register_limits(const input_list& inputs) {
  for (const in_ptr& in : inputs) {
    benchmark::RegisterBenchmark(bench_name("limit", "read", in->name()).c_str(), bm_read, in);
    benchmark::RegisterBenchmark(bench_name("limit", "memcpy", in->name()).c_str(), bm_memcpy, in);
  }
}

}  // namespace bench
