// avx512bw.cpp - the AVX-512 kernel for CPUs with AVX-512BW but no VBMI: the
// generic algorithm over 64-byte registers, shifting across lanes and looking
// up nibbles with BW instructions only (two where VBMI takes one; see
// avx512vbmi.cpp).
#include "kernels/arch.hpp"

#if defined(UTF8GUARD_X86_64)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/table37.hpp"
#include "kernels/cpu_x86.hpp"
#include "kernels/kernel.hpp"
#include "kernels/short_input.hpp"
#include "simd/target.hpp"
#include "stream/carry.hpp"

// GCC 12's AVX-512 intrinsics: see avx512vbmi.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx512bw {
constexpr bool kVbmi = false;
#include "simd/avx512.hpp"  // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::avx512bw
UTF8GUARD_TARGET_REGION_END

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace utf8guard::detail {
namespace {
bool usable() noexcept {
  return x86::has(x86::kAvx512f | x86::kAvx512bw | x86::kAvx2 | x86::kBmi1 | x86::kBmi2);
}
}  // namespace

extern const kernel kernel_avx512bw{
    "avx512bw",
    &usable,
    &avx512bw::lookup::scan,
    "AVX-512F, AVX-512BW, AVX2, BMI1 and BMI2, and an OS that saves the ZMM registers",
    &avx512bw::lookup::scan_open,
    &avx512bw::lookup::scan_no_percent,
    &avx512bw::lookup::valid,
    &avx512bw::lookup::validate,
    0,
    &avx512bw::lookup::short_copy<>};

}  // namespace utf8guard::detail
#endif
