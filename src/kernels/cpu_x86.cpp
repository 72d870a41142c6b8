// cpu_x86.cpp - cpuid and xgetbv, compiled for the baseline CPU.
#include "kernels/arch.hpp"

#if defined(UTF8GUARD_X86_64)
#include <cpuid.h>

#include <atomic>
#include <cstdint>

#include "kernels/cpu_x86.hpp"

namespace utf8guard::detail::x86 {
namespace {

// Bits of cpuid leaf 1 (ecx) and leaf 7 subleaf 0 (ebx, ecx); Intel SDM
// vol. 2A, "CPUID - CPU Identification".
constexpr unsigned kL1EcxSsse3 = 1u << 9;
constexpr unsigned kL1EcxSse41 = 1u << 19;
constexpr unsigned kL1EcxSse42 = 1u << 20;
constexpr unsigned kL1EcxPopcnt = 1u << 23;
constexpr unsigned kL1EcxOsxsave = 1u << 27;
constexpr unsigned kL1EcxAvx = 1u << 28;
constexpr unsigned kL7EbxBmi1 = 1u << 3;
constexpr unsigned kL7EbxAvx2 = 1u << 5;
constexpr unsigned kL7EbxBmi2 = 1u << 8;
constexpr unsigned kL7EbxAvx512f = 1u << 16;
constexpr unsigned kL7EbxAvx512bw = 1u << 30;
constexpr unsigned kL7EcxAvx512vbmi = 1u << 1;
constexpr unsigned kL7EcxAvx512vbmi2 = 1u << 6;

// XCR0 bits the OS sets when it saves a register file on context switch:
// SSE (1), the upper halves of YMM (2), and for AVX-512 the opmask registers
// (5), the upper halves of ZMM0-15 (6) and ZMM16-31 (7).
constexpr std::uint64_t kXcr0Ymm = 0x6;
constexpr std::uint64_t kXcr0Zmm = 0xE6;

// Bit 31 marks the cached word as computed, so 0 means "not yet".
constexpr unsigned kComputed = 1u << 31;
std::atomic<unsigned> g_features{0};

std::uint64_t xcr0() noexcept {
  std::uint32_t lo, hi;
  // xgetbv with ecx = 0 reads XCR0; only executed when cpuid says OSXSAVE.
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

unsigned detect() noexcept {
  unsigned eax, ebx, ecx, edx;
  unsigned out = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return out;
  const unsigned max_leaf = eax;
  __get_cpuid(1, &eax, &ebx, &ecx, &edx);
  if (ecx & kL1EcxSsse3) out |= kSsse3;
  if (ecx & kL1EcxSse41) out |= kSse41;
  if (ecx & kL1EcxSse42) out |= kSse42;
  if (ecx & kL1EcxPopcnt) out |= kPopcnt;
  const bool avx_ok = (ecx & kL1EcxOsxsave) && (ecx & kL1EcxAvx);
  const std::uint64_t xcr = avx_ok ? xcr0() : 0;
  if (max_leaf < 7) return out;
  __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
  if (ebx & kL7EbxBmi1) out |= kBmi1;
  if (ebx & kL7EbxBmi2) out |= kBmi2;
  if ((xcr & kXcr0Ymm) == kXcr0Ymm && (ebx & kL7EbxAvx2)) out |= kAvx2;
  if ((xcr & kXcr0Zmm) == kXcr0Zmm) {
    if (ebx & kL7EbxAvx512f) out |= kAvx512f;
    if (ebx & kL7EbxAvx512bw) out |= kAvx512bw;
    if (ecx & kL7EcxAvx512vbmi) out |= kAvx512vbmi;
    if (ecx & kL7EcxAvx512vbmi2) out |= kAvx512vbmi2;
  }
  return out;
}

}  // namespace

unsigned features() noexcept {
  unsigned f = g_features.load(std::memory_order_relaxed);
  if (f == 0) {
    f = detect() | kComputed;
    g_features.store(f, std::memory_order_relaxed);
  }
  return f;
}

}  // namespace utf8guard::detail::x86
#endif
