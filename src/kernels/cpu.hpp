// cpu.hpp - whether this CPU and its OS can run a kernel, from the target
// its descriptor names (kernel.hpp).
#ifndef UTF8GUARD_KERNELS_CPU_HPP
#define UTF8GUARD_KERNELS_CPU_HPP

#include "kernels/kernel.hpp"

namespace utf8guard::detail {

// usable says whether this CPU and OS run every instruction set k.target
// names: on x86-64 by cpuid and xgetbv (cpu_x86.hpp); elsewhere the targets
// are the baseline (NEON is part of AArch64's).
bool usable(const kernel& k) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_KERNELS_CPU_HPP
