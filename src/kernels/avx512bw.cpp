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
#define UTF8GUARD_KERNEL_TARGET "avx512f,avx512bw,avx2,bmi,bmi2,popcnt"
static_assert((utf8guard::detail::x86::features_of(UTF8GUARD_KERNEL_TARGET) &
               utf8guard::detail::x86::kUnknown) == 0);

// GCC 12's AVX-512 intrinsics: see avx512vbmi.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

UTF8GUARD_TARGET_REGION(UTF8GUARD_KERNEL_TARGET)
namespace utf8guard::detail::avx512bw {
constexpr bool kVbmi = false;
constexpr bool kVbmi2 = false;
#include "simd/avx512.hpp"  // the wrapper: struct simd8
// What is written once against simd8: validation, the policy's prefilter,
// the percent and JSON decoders.
#include "generic/percent_decode.hpp"
#include "generic/policy_prefilter.hpp"
#include "generic/utf8_lookup.hpp"
// After the percent decoder, whose hex digit lookup it shares.
#include "generic/json_decode.hpp"
}  // namespace utf8guard::detail::avx512bw
UTF8GUARD_TARGET_REGION_END
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace utf8guard::detail {

extern const kernel kernel_avx512bw{"avx512bw",
                                    UTF8GUARD_KERNEL_TARGET,
                                    &avx512bw::lookup::scan,
                                    &avx512bw::lookup::scan_open,
                                    &avx512bw::lookup::scan_no_percent,
                                    &avx512bw::lookup::scan_no_backslash,
                                    &avx512bw::lookup::valid,
                                    &avx512bw::lookup::validate,
                                    0,
                                    &avx512bw::lookup::short_copy<>,
                                    &avx512bw::policy_prefilter::quiet_prefix,
                                    &avx512bw::policy_prefilter::quiet_ascii,
                                    &avx512bw::percent_vector::decode,
                                    &avx512bw::json_vector::decode};

}  // namespace utf8guard::detail
#endif
