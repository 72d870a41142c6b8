// avx512vbmi2.cpp - the AVX-512 kernel with VBMI and VBMI2: avx512vbmi.cpp's
// body, where the percent decoder squeezes the digits of a block's escapes
// out with one vpcompressb (simd/avx512.hpp, compact) instead of eight
// pshufb steps. CPUs with VBMI but no VBMI2 run avx512vbmi.cpp.
#include "kernels/arch.hpp"

#if defined(UTF8GUARD_X86_64)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/carry.hpp"
#include "core/percent.hpp"
#include "core/policy.hpp"
#include "core/short_input.hpp"
#include "core/table37.hpp"
#include "kernels/cpu_x86.hpp"
#include "kernels/kernel.hpp"
#include "simd/compact_table.hpp"
#include "simd/target.hpp"

// The instruction sets this kernel is compiled for, and needs.
#define UTF8GUARD_KERNEL_TARGET "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,bmi,bmi2,popcnt"
static_assert((utf8guard::detail::x86::features_of(UTF8GUARD_KERNEL_TARGET) &
               utf8guard::detail::x86::kUnknown) == 0);

// GCC 12's AVX-512 intrinsics: see avx512vbmi.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

UTF8GUARD_TARGET_REGION(UTF8GUARD_KERNEL_TARGET)
namespace utf8guard::detail::avx512vbmi2 {
constexpr bool kVbmi = true;
constexpr bool kVbmi2 = true;
#include "simd/avx512.hpp"  // the wrapper: struct simd8
// What is written once against simd8: validation, the policy's prefilter,
// the percent and JSON decoders.
#include "generic/percent_decode.hpp"
#include "generic/policy_prefilter.hpp"
#include "generic/utf8_lookup.hpp"
// After the percent decoder, whose hex digit lookup it shares.
#include "generic/json_decode.hpp"
}  // namespace utf8guard::detail::avx512vbmi2
UTF8GUARD_TARGET_REGION_END
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace utf8guard::detail {

extern const kernel kernel_avx512vbmi2{"avx512vbmi2",
                                       UTF8GUARD_KERNEL_TARGET,
                                       &avx512vbmi2::lookup::scan,
                                       &avx512vbmi2::lookup::scan_open,
                                       &avx512vbmi2::lookup::scan_no_percent,
                                       &avx512vbmi2::lookup::scan_no_backslash,
                                       &avx512vbmi2::lookup::valid,
                                       &avx512vbmi2::lookup::validate,
                                       0,
                                       &avx512vbmi2::lookup::short_copy<>,
                                       &avx512vbmi2::policy_prefilter::quiet_prefix,
                                       &avx512vbmi2::policy_prefilter::quiet_ascii,
                                       &avx512vbmi2::percent_vector::decode,
                                       &avx512vbmi2::json_vector::decode};

}  // namespace utf8guard::detail
#endif
