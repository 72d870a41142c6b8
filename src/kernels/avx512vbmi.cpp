// avx512vbmi.cpp - the AVX-512 kernel with VBMI: the generic algorithm over
// 64-byte registers, where byte permutes shift registers across lanes and
// look up nibbles without masking. CPUs with AVX-512BW but no VBMI run
// avx512bw.cpp, the same source with BW instructions only.
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
#define UTF8GUARD_KERNEL_TARGET "avx512f,avx512bw,avx512vbmi,avx2,bmi,bmi2,popcnt"
static_assert((utf8guard::detail::x86::features_of(UTF8GUARD_KERNEL_TARGET) &
               utf8guard::detail::x86::kUnknown) == 0);

// GCC 12's AVX-512 intrinsics pass an uninitialized "undefined" vector as the
// unused pass-through operand, and -Wmaybe-uninitialized (or, for the
// lookup tables made once per scan, -Wuninitialized) reports it where they
// are inlined into our code. The operand is dead (full masks).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

UTF8GUARD_TARGET_REGION(UTF8GUARD_KERNEL_TARGET)
namespace utf8guard::detail::avx512vbmi {
constexpr bool kVbmi = true;
constexpr bool kVbmi2 = false;
#include "simd/avx512.hpp"  // the wrapper: struct simd8
// What is written once against simd8: validation, the policy's prefilter,
// the percent and JSON decoders.
#include "generic/percent_decode.hpp"
#include "generic/policy_prefilter.hpp"
#include "generic/utf8_lookup.hpp"
// After the percent decoder, whose hex digit lookup it shares.
#include "generic/json_decode.hpp"
}  // namespace utf8guard::detail::avx512vbmi
UTF8GUARD_TARGET_REGION_END
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace utf8guard::detail {

extern const kernel kernel_avx512{"avx512",
                                  UTF8GUARD_KERNEL_TARGET,
                                  &avx512vbmi::lookup::scan,
                                  &avx512vbmi::lookup::scan_open,
                                  &avx512vbmi::lookup::scan_no_percent,
                                  &avx512vbmi::lookup::scan_no_backslash,
                                  &avx512vbmi::lookup::valid,
                                  &avx512vbmi::lookup::validate,
                                  0,
                                  &avx512vbmi::lookup::short_copy<>,
                                  &avx512vbmi::policy_prefilter::quiet_prefix,
                                  &avx512vbmi::policy_prefilter::quiet_ascii,
                                  &avx512vbmi::percent_vector::decode,
                                  &avx512vbmi::json_vector::decode};

}  // namespace utf8guard::detail
#endif
