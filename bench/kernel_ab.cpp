// kernel_ab.cpp - the x86 SIMD kernel bodies' one-shot scan and percent
// decoder as the working tree has them and as a base commit had them, side by
// side in one process.
//
// Built by bench/kernel_ab.sh, which points base/ at the base commit's src/
// (bench/CMakeLists.txt; work/ is the working tree's). Every body is
// compiled twice, base and work (kernel_ab_sides.hpp), as src/kernels/<isa>.cpp
// compiles it (in the same target region, as the working tree has it);
// everything else comes from the working tree and the library.
//
// On a shared machine two processes run minutes apart can differ by more
// than a change does; with both versions in one process and the
// repetitions interleaved at random (--benchmark_enable_random_interleaving)
// a drift hits both alike. Benchmarks are named SIDE/BODY/FILE, SIDE base or
// work; kernel_ab.sh splits them into the files bench/compare.py reads.
//
// The decoder is timed on 10 MiB form bodies (bench/inputs.hpp): form-
// requests (with UTF8GUARD_BENCH_DATA, or its stand-in) and form-FILE for
// each FILE without a '%', decoded as the percent engine does (src/stream/
// percent_engine.hpp): 16 KiB windows into a buffer, stopping at bad escapes
// and %25. decode/BODY/FORM is the decoder alone; decode+check/BODY/FORM
// then validates each decoded window with the same side's scan_open, the
// second pass the engine makes over it, so that the difference is what that
// pass costs.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/carry.hpp"
#include "core/convert.hpp"
#include "core/percent.hpp"
#include "core/short_input.hpp"
#include "core/table37.hpp"
#include "inputs.hpp"
#include "kernels/dispatch.hpp"
#include "simd/compact_table.hpp"
#include "simd/target.hpp"

// A base that still has the per-thread run counters calls
// count_run<kKernelId>() in every scan: a no-op here, so that both sides
// time the scan alone.
namespace utf8guard::detail::ab {
enum kernel_id : unsigned { kSse42, kAvx2, kAvx512bw, kAvx512, kAvx512vbmi2 };
template <kernel_id>
inline void count_run() noexcept {}
}  // namespace utf8guard::detail::ab

UTF8GUARD_TARGET_REGION("ssse3,sse4.1,sse4.2,popcnt")
namespace utf8guard::detail::ab::sse42 {
constexpr kernel_id kKernelId = kSse42;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/sse.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/sse.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::sse42
UTF8GUARD_TARGET_REGION_END

UTF8GUARD_TARGET_REGION("avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::ab::avx2 {
constexpr kernel_id kKernelId = kAvx2;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/avx2.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/avx2.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::avx2
UTF8GUARD_TARGET_REGION_END

// GCC 12's AVX-512 intrinsics: see src/kernels/avx512vbmi.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::ab::avx512bw {
constexpr bool kVbmi = false;
constexpr bool kVbmi2 = false;
constexpr kernel_id kKernelId = kAvx512bw;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/avx512.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/avx512.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::avx512bw
UTF8GUARD_TARGET_REGION_END
UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx512vbmi,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::ab::avx512vbmi {
constexpr bool kVbmi = true;
constexpr bool kVbmi2 = false;
constexpr kernel_id kKernelId = kAvx512;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/avx512.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/avx512.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::avx512vbmi
UTF8GUARD_TARGET_REGION_END
UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::ab::avx512vbmi2 {
constexpr bool kVbmi = true;
constexpr bool kVbmi2 = true;
constexpr kernel_id kKernelId = kAvx512vbmi2;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/avx512.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/avx512.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::avx512vbmi2
UTF8GUARD_TARGET_REGION_END
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace {

using namespace utf8guard::detail;
using scan_fn = std::size_t (*)(const std::uint8_t*, std::size_t) noexcept;

using decode_fn = decode_progress (*)(const std::uint8_t*, std::size_t, std::size_t, std::uint8_t*,
                                      unsigned) noexcept;

// One side of a body.
struct side {
  scan_fn scan;
  open_scan_fn scan_open;
  decode_fn decode;
};

struct body {
  const char* name;  // the library's kernel of the same source
  side base;
  side work;
};

#define UTF8GUARD_AB_SIDE(ns) \
  side { ns::lookup::scan, ns::lookup::scan_open, ns::percent_vector::decode }

// The bodies this binary holds, each usable when the library's body of that
// name says so (the same cpuid and xgetbv checks).
std::vector<body> usable_bodies() {
  const body all[] = {
      {"sse42", UTF8GUARD_AB_SIDE(ab::sse42::base), UTF8GUARD_AB_SIDE(ab::sse42::work)},
      {"avx2", UTF8GUARD_AB_SIDE(ab::avx2::base), UTF8GUARD_AB_SIDE(ab::avx2::work)},
      {"avx512bw", UTF8GUARD_AB_SIDE(ab::avx512bw::base), UTF8GUARD_AB_SIDE(ab::avx512bw::work)},
      {"avx512", UTF8GUARD_AB_SIDE(ab::avx512vbmi::base), UTF8GUARD_AB_SIDE(ab::avx512vbmi::work)},
      {"avx512vbmi2", UTF8GUARD_AB_SIDE(ab::avx512vbmi2::base),
       UTF8GUARD_AB_SIDE(ab::avx512vbmi2::work)},
  };
  std::size_t count = 0;
  const kernel* const* library = kernel_list(count);
  std::vector<body> usable;
  for (const body& b : all) {
    for (std::size_t i = 0; i < count; ++i) {
      if (std::strcmp(library[i]->name, b.name) == 0 && utf8guard::detail::usable(*library[i])) {
        usable.push_back(b);
      }
    }
  }
  return usable;
}

void scan(benchmark::State& state, scan_fn f, std::string_view text) {
  const auto* p = bytes(text.data());
  for (auto _ : state) {
    const std::size_t end = f(p, text.size());
    benchmark::DoNotOptimize(end);
    if (end != text.size()) {  // the files are valid UTF-8: a shorter prefix is a wrong answer
      state.SkipWithError("the scan did not reach the end of valid input");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

// The percent engine's window and stops under the form policy
// (src/stream/percent_engine.hpp).
constexpr std::size_t kWindow = 16384;
constexpr unsigned kFormStops = kStopBadEscape | kStopPercent25;

void decode(benchmark::State& state, side s, bool check, std::string_view form) {
  const auto* p = bytes(form.data());
  const std::size_t n = form.size();
  alignas(64) static std::uint8_t out[kWindow + 64];
  for (auto _ : state) {
    std::size_t total = 0;
    std::uint32_t prior = 0;
    for (std::size_t i = 0; i < n;) {
      const decode_progress d = s.decode(p + i, n - i, std::min(kWindow, n - i), out, kFormStops);
      if (check) {
        const open_scan o = s.scan_open(out, d.written, prior);
        if (o.pos != d.written) return state.SkipWithError("a decoded window is not valid");
        prior = o.tail;
      }
      if (d.read == 0) return state.SkipWithError("the decoder stopped inside the body");
      i += d.read;
      total += d.written;
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  // Each file 16 bytes past a 64-byte boundary, as malloc places large
  // buffers, and the same bytes for both sides.
  constexpr std::size_t kShift = 16;
  static std::vector<std::shared_ptr<bench::input>> texts;
  try {
    for (int i = 1; i < argc; ++i) texts.push_back(bench::file_input(argv[i], kShift));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kernel_ab: %s\n", e.what());
    return 2;
  }
  if (texts.empty()) {
    std::fprintf(stderr, "usage: kernel_ab [benchmark options] FILE...\n");
    return 2;
  }
  static std::vector<std::pair<std::string, std::string>> forms;
  const auto requests = bench::requests_input();
  forms.emplace_back("form-requests", bench::form_of_requests(requests->bytes()));
  for (const auto& t : texts) {
    // A text with a '%' of its own makes %25 units, which the vector decoder
    // leaves to the engine's scalar loop: no decoder timing of its form.
    if (t->bytes().find('%') != std::string_view::npos) continue;
    forms.emplace_back("form-" + t->name(), bench::form_of_text(t->bytes()));
  }
  for (const body& b : usable_bodies()) {
    for (const auto& t : texts) {
      const std::string tail = std::string("/") + b.name + "/" + t->name();
      benchmark::RegisterBenchmark(("base" + tail).c_str(), scan, b.base.scan, t->bytes());
      benchmark::RegisterBenchmark(("work" + tail).c_str(), scan, b.work.scan, t->bytes());
    }
    for (const auto& [name, form] : forms) {
      for (const bool check : {false, true}) {
        const std::string tail =
            std::string(check ? "/decode+check/" : "/decode/") + b.name + "/" + name;
        benchmark::RegisterBenchmark(("base" + tail).c_str(), decode, b.base, check,
                                     std::string_view(form));
        benchmark::RegisterBenchmark(("work" + tail).c_str(), decode, b.work, check,
                                     std::string_view(form));
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
