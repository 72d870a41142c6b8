// kernel_ab.cpp - the x86 SIMD kernel bodies' one-shot scan as the working
// tree has them and as a base commit had them, side by side in one process.
//
// Built by bench/kernel_ab.sh, which points base/ at the base commit's src/
// (bench/CMakeLists.txt; work/ is the working tree's). Every body is
// compiled twice, base and work (kernel_ab_sides.hpp), as src/kernels/<isa>.cpp
// compiles it (the same target region and registers per group, as the
// working tree has them); everything else comes from the working tree and
// the library.
//
// On a shared machine two processes run minutes apart can differ by 20 %
// where the code did not change; with both versions in one process and the
// repetitions interleaved at random (--benchmark_enable_random_interleaving)
// a drift hits both alike. Benchmarks are named SIDE/BODY/FILE, SIDE base or
// work; kernel_ab.sh splits them into the files bench/compare.py reads.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "kernel.hpp"
#include "scalar/prior.hpp"
#include "scalar/table37.hpp"
#include "simd/partial.hpp"
#include "simd/target.hpp"

UTF8GUARD_TARGET_REGION("ssse3,sse4.1,sse4.2,popcnt")
namespace utf8guard::detail::ab::sse42 {
constexpr std::size_t kGroupRegs = 8;
constexpr kernel_id kKernelId = kSse42;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/sse.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/sse.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::sse42
UTF8GUARD_TARGET_REGION_END

UTF8GUARD_TARGET_REGION("avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::ab::avx2 {
constexpr std::size_t kGroupRegs = 8;
constexpr kernel_id kKernelId = kAvx2;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/avx2.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/avx2.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::avx2
UTF8GUARD_TARGET_REGION_END

// GCC 12's AVX-512 intrinsics: see src/kernels/avx512.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::ab::avx512bw {
constexpr bool kVbmi = false;
constexpr std::size_t kGroupRegs = 4;
constexpr kernel_id kKernelId = kAvx512;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/avx512.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/avx512.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::avx512bw
UTF8GUARD_TARGET_REGION_END
UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx512vbmi,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::ab::avx512vbmi {
constexpr bool kVbmi = true;
constexpr std::size_t kGroupRegs = 4;
constexpr kernel_id kKernelId = kAvx512;
#define UTF8GUARD_AB_BASE_WRAPPER "base/simd/avx512.hpp"
#define UTF8GUARD_AB_WORK_WRAPPER "work/simd/avx512.hpp"
#include "kernel_ab_sides.hpp"
}  // namespace utf8guard::detail::ab::avx512vbmi
UTF8GUARD_TARGET_REGION_END
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace {

using namespace utf8guard::detail;
using scan_fn = std::size_t (*)(const std::uint8_t*, std::size_t) noexcept;

struct body {
  const char* name;
  bool usable;
  scan_fn base;
  scan_fn work;
};

std::vector<body> bodies() {
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
  return {
      {"sse42", __builtin_cpu_supports("sse4.2") != 0, ab::sse42::base::lookup::scan,
       ab::sse42::work::lookup::scan},
      {"avx2", __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"),
       ab::avx2::base::lookup::scan, ab::avx2::work::lookup::scan},
      {"avx512bw", avx512, ab::avx512bw::base::lookup::scan, ab::avx512bw::work::lookup::scan},
      {"avx512vbmi", avx512 && __builtin_cpu_supports("avx512vbmi"),
       ab::avx512vbmi::base::lookup::scan, ab::avx512vbmi::work::lookup::scan},
  };
}

// The file's bytes in a buffer of their own, 16 bytes past a 64-byte
// boundary (as malloc places them), so both sides read the same addresses.
struct text {
  std::string name;
  std::unique_ptr<std::uint8_t, decltype(&std::free)> buffer{nullptr, &std::free};
  const std::uint8_t* bytes = nullptr;
  std::size_t size = 0;
};

text read_text(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "kernel_ab: cannot read %s\n", path);
    std::exit(2);
  }
  const std::string s{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  text t;
  std::string name = path;
  name = name.substr(name.find_last_of('/') + 1);
  t.name = name.substr(0, name.find('.'));
  t.buffer.reset(
      static_cast<std::uint8_t*>(std::aligned_alloc(64, (s.size() + 16 + 63) / 64 * 64)));
  t.bytes = t.buffer.get() + 16;
  t.size = s.size();
  std::memcpy(t.buffer.get() + 16, s.data(), s.size());
  return t;
}

void scan(benchmark::State& state, scan_fn f, const text* t) {
  for (auto _ : state) {
    const std::size_t end = f(t->bytes, t->size);
    benchmark::DoNotOptimize(end);
    if (end != t->size) {  // the files are valid UTF-8: a shorter prefix is a wrong answer
      state.SkipWithError("the scan did not reach the end of valid input");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * t->size));
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  static std::vector<text> texts;
  for (int i = 1; i < argc; ++i) texts.push_back(read_text(argv[i]));
  if (texts.empty()) {
    std::fprintf(stderr, "usage: kernel_ab [benchmark options] FILE...\n");
    return 2;
  }
  for (const body& b : bodies()) {
    if (!b.usable) continue;
    for (const text& t : texts) {
      const std::string tail = std::string("/") + b.name + "/" + t.name;
      benchmark::RegisterBenchmark(("base" + tail).c_str(), scan, b.base, &t);
      benchmark::RegisterBenchmark(("work" + tail).c_str(), scan, b.work, &t);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
