// sse42.cpp - the SSE4.2 kernel: the generic algorithm over 16-byte registers.
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
#define UTF8GUARD_KERNEL_TARGET "ssse3,sse4.1,sse4.2,popcnt"
static_assert((utf8guard::detail::x86::features_of(UTF8GUARD_KERNEL_TARGET) &
               utf8guard::detail::x86::kUnknown) == 0);

UTF8GUARD_TARGET_REGION(UTF8GUARD_KERNEL_TARGET)
namespace utf8guard::detail::sse42 {
#include "simd/sse.hpp"  // the wrapper: struct simd8
// What is written once against simd8: validation, the policy's prefilter,
// the percent decoder.
#include "generic/percent_decode.hpp"
#include "generic/policy_prefilter.hpp"
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::sse42
UTF8GUARD_TARGET_REGION_END

namespace utf8guard::detail {

extern const kernel kernel_sse42{"sse42",
                                 UTF8GUARD_KERNEL_TARGET,
                                 &sse42::lookup::scan,
                                 &sse42::lookup::scan_open,
                                 &sse42::lookup::scan_no_percent,
                                 &sse42::lookup::scan_no_backslash,
                                 &sse42::lookup::valid,
                                 &sse42::lookup::validate,
                                 kShortDfa,
                                 &checked_copy<&sse42::lookup::valid>,
                                 &sse42::policy_prefilter::quiet_prefix,
                                 &sse42::policy_prefilter::quiet_ascii,
                                 &sse42::percent_vector::decode};

}  // namespace utf8guard::detail
#endif
