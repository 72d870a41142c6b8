// kernel_choice.hpp - which kernels this machine runs, and forcing one for a
// scope, through the public API only. No test framework: the fuzz targets
// use it as the GoogleTest fixtures in kernels.hpp do.
#ifndef UTF8GUARD_TESTS_SUPPORT_KERNEL_CHOICE_HPP
#define UTF8GUARD_TESTS_SUPPORT_KERNEL_CHOICE_HPP

#include <string>
#include <vector>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

// usable_kernels names every compiled kernel this CPU can run, slowest first.
// Asked at run time, so a kernel added to the library is tested (and fuzzed)
// without touching the tests.
inline std::vector<std::string> usable_kernels() {
  std::vector<std::string> out;
  for (const kernel_info& k : kernels()) {
    if (k.usable) out.emplace_back(k.name);
  }
  return out;
}

// forced_kernel makes every call in its scope use one kernel and restores the
// best one on the way out, so one check's choice never leaks into the next.
class forced_kernel {
 public:
  explicit forced_kernel(const std::string& name) : ok_(set_kernel(name)) {}
  ~forced_kernel() { set_kernel("best"); }
  forced_kernel(const forced_kernel&) = delete;
  forced_kernel& operator=(const forced_kernel&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_;
};

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_KERNEL_CHOICE_HPP
