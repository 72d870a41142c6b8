// avx512.cpp - the AVX-512 kernel: the generic algorithm over 64-byte
// registers, compiled twice. With VBMI (Ice Lake, Zen 4 and later) byte
// permutes shift registers across lanes and look up nibbles without masking;
// AVX-512BW alone (Skylake-X) takes two instructions for each.
#include "kernels/arch.hpp"

#if defined(UTF8GUARD_X86_64)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kernel.hpp"
#include "kernels/cpu_x86.hpp"
#include "stream/carry.hpp"
#include "core/table37.hpp"
#include "kernels/short_input.hpp"
#include "simd/target.hpp"

// GCC 12's AVX-512 intrinsics pass an uninitialized "undefined" vector as the
// unused pass-through operand, and -Wmaybe-uninitialized (or, for the
// lookup tables made once per scan, -Wuninitialized) reports it where they
// are inlined into our code. The operand is dead (full masks).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx512bw {
constexpr bool kVbmi = false;
constexpr kernel_id kKernelId = kAvx512;  // its run counter
#include "simd/avx512.hpp"                // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::avx512bw
UTF8GUARD_TARGET_REGION_END

UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx512vbmi,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx512vbmi {
constexpr bool kVbmi = true;
constexpr kernel_id kKernelId = kAvx512;  // its run counter
#include "simd/avx512.hpp"                // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::avx512vbmi
UTF8GUARD_TARGET_REGION_END

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace utf8guard::detail {
namespace {

constexpr unsigned kBw = x86::kAvx512f | x86::kAvx512bw | x86::kAvx2 | x86::kBmi1 | x86::kBmi2;
constexpr unsigned kVbmi = kBw | x86::kAvx512vbmi;

bool usable_bw() noexcept { return x86::has(kBw); }
bool usable_vbmi() noexcept { return x86::has(kVbmi); }

// select picks the body for this CPU once, when the kernel becomes active.
const kernel* select() noexcept;

// A caller holding the kernel itself (not the selected body) still gets the
// best body, by a check per call.
std::size_t scan_any(const std::uint8_t* p, std::size_t n) noexcept {
  return x86::has(kVbmi) ? avx512vbmi::lookup::scan(p, n) : avx512bw::lookup::scan(p, n);
}
open_scan scan_open_any(const std::uint8_t* p, std::size_t n, std::uint32_t prior) noexcept {
  return x86::has(kVbmi) ? avx512vbmi::lookup::scan_open(p, n, prior)
                         : avx512bw::lookup::scan_open(p, n, prior);
}

}  // namespace

#define UTF8GUARD_AVX512_NEEDS \
  "AVX-512F, AVX-512BW, AVX2, BMI1 and BMI2, and an OS that saves the ZMM registers"
extern const kernel kernel_avx512bw{"avx512",
                                    kAvx512,
                                    &usable_bw,
                                    &avx512bw::lookup::scan,
                                    UTF8GUARD_AVX512_NEEDS,
                                    &avx512bw::lookup::scan_open,
                                    nullptr,
                                    "bw"};
extern const kernel kernel_avx512vbmi{"avx512",
                                      kAvx512,
                                      &usable_vbmi,
                                      &avx512vbmi::lookup::scan,
                                      UTF8GUARD_AVX512_NEEDS " and AVX-512VBMI",
                                      &avx512vbmi::lookup::scan_open,
                                      nullptr,
                                      "vbmi"};
extern const kernel kernel_avx512{
    "avx512", kAvx512, &usable_bw, &scan_any, UTF8GUARD_AVX512_NEEDS, &scan_open_any, &select};

namespace {
const kernel* select() noexcept { return x86::has(kVbmi) ? &kernel_avx512vbmi : &kernel_avx512bw; }
}  // namespace

}  // namespace utf8guard::detail
#endif
