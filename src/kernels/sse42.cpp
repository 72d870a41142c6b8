// sse42.cpp - the SSE4.2 kernel: the generic algorithm over 16-byte registers.
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

UTF8GUARD_TARGET_REGION("ssse3,sse4.1,sse4.2,popcnt")
namespace utf8guard::detail::sse42 {
#include "simd/sse.hpp"  // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::sse42
UTF8GUARD_TARGET_REGION_END

namespace utf8guard::detail {
namespace {
bool usable() noexcept { return x86::has(x86::kSsse3 | x86::kSse41 | x86::kSse42); }
}  // namespace

extern const kernel kernel_sse42{"sse42",
                                 &usable,
                                 &sse42::lookup::scan,
                                 "SSSE3, SSE4.1 and SSE4.2",
                                 &sse42::lookup::scan_open,
                                 &sse42::lookup::scan_no_percent,
                                 &sse42::lookup::valid,
                                 &sse42::lookup::validate,
                                 kShortDfa,
                                 &checked_copy<&sse42::lookup::valid>};

}  // namespace utf8guard::detail
#endif
