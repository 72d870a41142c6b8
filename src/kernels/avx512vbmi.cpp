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

#include "core/table37.hpp"
#include "kernels/cpu_x86.hpp"
#include "kernels/kernel.hpp"
#include "kernels/short_input.hpp"
#include "simd/target.hpp"
#include "stream/carry.hpp"

// GCC 12's AVX-512 intrinsics pass an uninitialized "undefined" vector as the
// unused pass-through operand, and -Wmaybe-uninitialized (or, for the
// lookup tables made once per scan, -Wuninitialized) reports it where they
// are inlined into our code. The operand is dead (full masks).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx512vbmi,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx512vbmi {
constexpr bool kVbmi = true;
#include "simd/avx512.hpp"  // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::avx512vbmi
UTF8GUARD_TARGET_REGION_END

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace utf8guard::detail {
namespace {
bool usable() noexcept {
  return x86::has(x86::kAvx512f | x86::kAvx512bw | x86::kAvx512vbmi | x86::kAvx2 | x86::kBmi1 |
                  x86::kBmi2);
}
}  // namespace

extern const kernel kernel_avx512{"avx512",
                                  &usable,
                                  &avx512vbmi::lookup::scan,
                                  "AVX-512F, AVX-512BW, AVX-512VBMI, AVX2, BMI1 and BMI2, and an "
                                  "OS that saves the ZMM registers",
                                  &avx512vbmi::lookup::scan_open,
                                  &avx512vbmi::lookup::scan_no_percent,
                                  &avx512vbmi::lookup::valid,
                                  &avx512vbmi::lookup::validate,
                                  0,
                                  &avx512vbmi::lookup::short_copy<>};

}  // namespace utf8guard::detail
#endif
