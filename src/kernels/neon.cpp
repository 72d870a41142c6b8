// neon.cpp - the AArch64 NEON kernel: the generic algorithm over 16-byte
// registers. NEON is always present on AArch64.
#include "kernels/arch.hpp"

#if defined(UTF8GUARD_AARCH64)
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/table37.hpp"
#include "kernels/kernel.hpp"
#include "kernels/short_input.hpp"
#include "simd/target.hpp"
#include "stream/carry.hpp"

namespace utf8guard::detail::neon {
#include "simd/neon.hpp"  // the wrapper: struct simd8
// The algorithm, written against simd8:
#include "generic/utf8_lookup.hpp"
}  // namespace utf8guard::detail::neon

namespace utf8guard::detail {
namespace {
bool always_usable() noexcept { return true; }
}  // namespace

extern const kernel kernel_neon{"neon",
                                &always_usable,
                                &neon::lookup::scan,
                                "an AArch64 CPU (NEON is part of its baseline)",
                                &neon::lookup::scan_open,
                                &neon::lookup::scan_no_percent,
                                &neon::lookup::valid,
                                &neon::lookup::validate,
                                kShortDfa,
                                &checked_copy<&neon::lookup::valid>};

}  // namespace utf8guard::detail
#endif
