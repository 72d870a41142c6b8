// kernel_choice.hpp - which kernels this machine runs, which one every entry
// point calls now, and forcing one for a scope. No test framework: the fuzz
// targets use it as the GoogleTest fixtures in kernels.hpp do.
#ifndef UTF8GUARD_TESTS_SUPPORT_KERNEL_CHOICE_HPP
#define UTF8GUARD_TESTS_SUPPORT_KERNEL_CHOICE_HPP

#include <string>
#include <vector>

#include "kernels/dispatch.hpp"  // private: detail::find_kernel, detail::active_kernel_ref
#include "usable_kernels.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

// is_active says whether the compiled kernel of that name is the one every
// entry point calls now: the same struct, not only the same name, so that
// forcing a kernel provably moved the work to it.
inline bool is_active(const std::string& name) {
  const detail::kernel* k = detail::find_kernel(name.data(), name.size());
  return k != nullptr && &detail::active_kernel_ref() == k;
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
