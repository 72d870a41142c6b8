// cpu_x86.hpp - what this x86-64 CPU and its OS can run, read once.
#ifndef UTF8GUARD_KERNELS_CPU_X86_HPP
#define UTF8GUARD_KERNELS_CPU_X86_HPP

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
};

// features returns the feature bits, computed on first use and cached in an
// atomic (no global constructor; racing first calls compute the same value).
unsigned features() noexcept;

inline bool has(unsigned wanted) noexcept { return (features() & wanted) == wanted; }

}  // namespace utf8guard::detail::x86

#endif  // UTF8GUARD_KERNELS_CPU_X86_HPP
