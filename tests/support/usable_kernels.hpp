// usable_kernels.hpp - the compiled kernels this CPU runs, from the public API
// only, for the tests, the fuzz targets and the benchmarks alike.
#ifndef UTF8GUARD_TESTS_SUPPORT_USABLE_KERNELS_HPP
#define UTF8GUARD_TESTS_SUPPORT_USABLE_KERNELS_HPP

#include <string>
#include <vector>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

// usable_kernels names every compiled kernel this CPU can run, slowest first.
// Asked at run time, so a kernel added to the library is tested, fuzzed and
// benchmarked without touching its callers.
inline std::vector<std::string> usable_kernels() {
  std::vector<std::string> out;
  for (const kernel_info& k : kernels()) {
    if (k.usable) out.emplace_back(k.name);
  }
  return out;
}

}  // namespace utf8guard::testing

#endif
