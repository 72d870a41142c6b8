// policy_prefilter.cpp - the policy's vector prefilter
// (generic/policy_prefilter.hpp) compiled for each instruction set, and the
// choice of the one that matches the active kernel. The kernels' own files
// stay as they are: a kernel validates, this says where a policy must look.
#include "kernels/arch.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/policy.hpp"
#include "dispatch.hpp"
#include "kernels/kernel.hpp"
#include "kernels/short_input.hpp"
#include "simd/target.hpp"

#if defined(UTF8GUARD_X86_64)
#include <immintrin.h>

UTF8GUARD_TARGET_REGION("ssse3,sse4.1,sse4.2,popcnt")
namespace utf8guard::detail::sse42_policy {
#include "simd/sse.hpp"  // the wrapper: struct simd8
// The prefilter, written against simd8:
#include "generic/policy_prefilter.hpp"
}  // namespace utf8guard::detail::sse42_policy
UTF8GUARD_TARGET_REGION_END

UTF8GUARD_TARGET_REGION("avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx2_policy {
#include "simd/avx2.hpp"  // the wrapper: struct simd8
// The prefilter, written against simd8:
#include "generic/policy_prefilter.hpp"
}  // namespace utf8guard::detail::avx2_policy
UTF8GUARD_TARGET_REGION_END

// GCC 12's AVX-512 intrinsics trip -Wmaybe-uninitialized on their dead
// pass-through operand (see avx512vbmi.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
UTF8GUARD_TARGET_REGION("avx512f,avx512bw,avx2,bmi,bmi2,popcnt")
namespace utf8guard::detail::avx512_policy {
constexpr bool kVbmi = false;  // the lookups every AVX-512 body can run
#include "simd/avx512.hpp"     // the wrapper: struct simd8
// The prefilter, written against simd8:
#include "generic/policy_prefilter.hpp"
}  // namespace utf8guard::detail::avx512_policy
UTF8GUARD_TARGET_REGION_END
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#if defined(UTF8GUARD_AARCH64)
#include <arm_neon.h>

namespace utf8guard::detail::neon_policy {
#include "simd/neon.hpp"  // the wrapper: struct simd8
// The prefilter, written against simd8:
#include "generic/policy_prefilter.hpp"
}  // namespace utf8guard::detail::neon_policy
#endif

namespace utf8guard::detail {

vector_policy_fns vector_policy() noexcept {
  switch (active_vector_isa()) {
#if defined(UTF8GUARD_X86_64)
    case vector_isa::sse42:
      return {&sse42_policy::policy_prefilter::quiet_prefix,
              &sse42_policy::policy_prefilter::quiet_ascii};
    case vector_isa::avx2:
      return {&avx2_policy::policy_prefilter::quiet_prefix,
              &avx2_policy::policy_prefilter::quiet_ascii};
    case vector_isa::avx512:
      return {&avx512_policy::policy_prefilter::quiet_prefix,
              &avx512_policy::policy_prefilter::quiet_ascii};
#endif
#if defined(UTF8GUARD_AARCH64)
    case vector_isa::neon:
      return {&neon_policy::policy_prefilter::quiet_prefix,
              &neon_policy::policy_prefilter::quiet_ascii};
#endif
    default: return {nullptr, nullptr};
  }
}

}  // namespace utf8guard::detail
