// neon.cpp - the AArch64 NEON kernel: the generic algorithm over 16-byte
// registers. NEON is always present on AArch64.
#include "kernels/arch.hpp"

#if defined(UTF8GUARD_AARCH64)
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/carry.hpp"
#include "core/policy.hpp"
#include "core/short_input.hpp"
#include "core/table37.hpp"
#include "kernels/kernel.hpp"
#include "simd/target.hpp"

namespace utf8guard::detail::neon {
#include "simd/neon.hpp"  // the wrapper: struct simd8
// What is written once against simd8: validation and the policy's
// prefilter (percent-encoded input is decoded by the scalar loop).
#include "generic/policy_prefilter.hpp"
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::neon

namespace utf8guard::detail {

extern const kernel kernel_neon{"neon",
                                "neon",
                                &neon::lookup::scan,
                                &neon::lookup::scan_open,
                                &neon::lookup::scan_no_percent,
                                &neon::lookup::scan_no_backslash,
                                &neon::lookup::valid,
                                &neon::lookup::validate,
                                kShortDfa,
                                &checked_copy<&neon::lookup::valid>,
                                &neon::policy_prefilter::quiet_prefix,
                                &neon::policy_prefilter::quiet_ascii};

}  // namespace utf8guard::detail
#endif
