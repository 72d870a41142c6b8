// cpu.cpp - see cpu.hpp.
#include "kernels/cpu.hpp"

#include <string_view>
#include "kernels/arch.hpp"

#include "kernels/cpu_x86.hpp"

namespace utf8guard::detail {

bool usable(const kernel& k) noexcept {
#if defined(UTF8GUARD_X86_64)
  return x86::has(x86::features_of(k.target));
#else
  return k.target[0] == '\0' || std::string_view(k.target) == "neon";
#endif
}

}  // namespace utf8guard::detail
