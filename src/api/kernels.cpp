// kernels.cpp - the public view of the kernel list kept by kernels/dispatch.cpp:
// which kernels are compiled, which one runs, and choosing one.
//
// The direction between the APIs: C++ implements, C wraps (see stream.cpp).
// The C list is read without building kernels()'s vector.
#include <cstring>

#include "core/convert.hpp"
#include "kernels/dispatch.hpp"

namespace utf8guard {

std::vector<kernel_info> kernels() {
  std::size_t count = 0;
  const detail::kernel* const* all = detail::kernel_list(count);
  std::vector<kernel_info> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back({all[i]->name, detail::usable(*all[i])});
  return out;
}

std::string_view active_kernel() noexcept { return detail::active_kernel_ref().name; }

bool set_kernel(std::string_view name) noexcept {
  if (detail::bad_span(name)) return false;
  return detail::set_active_kernel(name.data(), name.size());
}

}  // namespace utf8guard

extern "C" {

// active_kernel() views a kernel's name, a string literal: data() is NUL-terminated.
const char* utf8guard_active_kernel(void) { return utf8guard::active_kernel().data(); }

size_t utf8guard_kernel_count(void) {
  std::size_t count = 0;
  utf8guard::detail::kernel_list(count);
  return count;
}

const char* utf8guard_kernel_name(size_t index, bool* usable) {
  std::size_t count = 0;
  const utf8guard::detail::kernel* const* all = utf8guard::detail::kernel_list(count);
  if (index >= count) return nullptr;
  if (usable != nullptr) *usable = utf8guard::detail::usable(*all[index]);
  return all[index]->name;
}

bool utf8guard_set_kernel(const char* name) {
  return name != nullptr && utf8guard::set_kernel(std::string_view(name, std::strlen(name)));
}

// C only: the CLI reports it; a C++ caller has set_kernel()'s answer.
const char* utf8guard_kernel_env_error(void) { return utf8guard::detail::kernel_env_error(); }

}  // extern "C"
