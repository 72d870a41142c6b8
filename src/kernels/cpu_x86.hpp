// cpu_x86.hpp - what this x86-64 CPU and its OS can run, read once.
#ifndef UTF8GUARD_KERNELS_CPU_X86_HPP
#define UTF8GUARD_KERNELS_CPU_X86_HPP

#include <string_view>
#include <utility>

namespace utf8guard::detail::x86 {

// One bit per instruction-set extension a kernel may need. A bit is set only
// when the CPU has the extension (cpuid) and, for AVX and AVX-512, the OS
// saves the register state it uses (xgetbv): YMM for AVX2, ZMM and the
// opmask registers for AVX-512.
enum feature : unsigned {
  kSsse3 = 1u << 0,
  kSse41 = 1u << 1,
  kSse42 = 1u << 2,
  kAvx2 = 1u << 3,
  kBmi1 = 1u << 4,
  kBmi2 = 1u << 5,
  kAvx512f = 1u << 6,
  kAvx512bw = 1u << 7,
  kAvx512vbmi = 1u << 8,
  kPopcnt = 1u << 9,
  kAvx512vbmi2 = 1u << 10,
  kUnknown = 1u << 30,  // a target name this file does not know
};

// feature_named is the bit of one name of a target attribute, as GCC and
// clang spell it, or kUnknown.
constexpr unsigned feature_named(std::string_view name) noexcept {
  constexpr std::pair<std::string_view, unsigned> kNames[] = {
      {"ssse3", kSsse3},
      {"sse4.1", kSse41},
      {"sse4.2", kSse42},
      {"avx2", kAvx2},
      {"bmi", kBmi1},
      {"bmi2", kBmi2},
      {"avx512f", kAvx512f},
      {"avx512bw", kAvx512bw},
      {"avx512vbmi", kAvx512vbmi},
      {"avx512vbmi2", kAvx512vbmi2},
      {"popcnt", kPopcnt},
  };
  for (const auto& [n, bit] : kNames) {
    if (n == name) return bit;
  }
  return kUnknown;
}

// features_of is the bits of a target attribute's comma-separated list
// ("avx2,bmi,bmi2,popcnt"): what a kernel compiled for it needs. A kernel's
// file checks at compile time that no name is unknown.
constexpr unsigned features_of(std::string_view target) noexcept {
  unsigned bits = 0;
  while (!target.empty()) {
    const std::size_t comma = target.find(',');
    bits |= feature_named(target.substr(0, comma));
    if (comma == std::string_view::npos) break;
    target.remove_prefix(comma + 1);
  }
  return bits;
}

// features returns the feature bits, computed on first use and cached in an
// atomic (no global constructor; racing first calls compute the same value).
unsigned features() noexcept;

inline bool has(unsigned wanted) noexcept { return (features() & wanted) == wanted; }

}  // namespace utf8guard::detail::x86

#endif  // UTF8GUARD_KERNELS_CPU_X86_HPP
