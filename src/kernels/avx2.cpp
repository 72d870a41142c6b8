// avx2.cpp - the AVX2 kernel: the generic algorithm over 32-byte registers.
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

UTF8GUARD_TARGET_REGION("avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx2 {
#include "simd/avx2.hpp"  // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::avx2
UTF8GUARD_TARGET_REGION_END

namespace utf8guard::detail {
namespace {
bool usable() noexcept { return x86::has(x86::kAvx2 | x86::kBmi1 | x86::kBmi2); }
}  // namespace

extern const kernel kernel_avx2{"avx2",
                                &usable,
                                &avx2::lookup::scan,
                                "AVX2, BMI1 and BMI2, and an OS that saves the YMM registers",
                                &avx2::lookup::scan_open,
                                &avx2::lookup::scan_no_percent,
                                &avx2::lookup::valid,
                                &avx2::lookup::validate,
                                kShortDfa,
                                &checked_copy<&avx2::lookup::valid>};

}  // namespace utf8guard::detail
#endif
