// names.cpp - stable names (error kinds, statuses), the version, and the
// public view of the kernel list kept by dispatch.cpp.
#include <cstring>

#include "dispatch.hpp"

namespace utf8guard {

std::string_view to_string(error kind) noexcept {
  // These strings are part of the contract (DESIGN.md, the CLI's output):
  // never rename one.
  switch (kind) {
    case error::none: return "none";
    case error::unexpected_continuation: return "unexpected_continuation";
    case error::overlong: return "overlong";
    case error::surrogate: return "surrogate";
    case error::too_large: return "too_large";
    case error::invalid_byte: return "invalid_byte";
    case error::truncated: return "truncated";
    case error::incomplete: return "incomplete";
  }
  return "unknown";
}

std::string_view version() noexcept { return UTF8GUARD_VERSION_STRING; }

std::vector<kernel_info> kernels() {
  std::size_t count = 0;
  const detail::kernel* const* all = detail::kernel_list(count);
  std::vector<kernel_info> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back({all[i]->name, all[i]->usable()});
  return out;
}

std::string_view active_kernel() noexcept { return detail::active_kernel_ref().name; }

bool set_kernel(std::string_view name) noexcept {
  return detail::set_active_kernel(name.data(), name.size());
}

}  // namespace utf8guard

namespace {

// A C caller may pass any int in an enum parameter (C enums hold every value
// of their underlying type), but in C++ loading a value outside the
// enumerators' range is undefined. So the C entry points read the argument's
// bytes as an int and only then compare it with the enumerators.
static_assert(sizeof(utf8guard_error) == sizeof(int) && sizeof(utf8guard_status) == sizeof(int),
              "C enums are int-sized on every supported ABI");
template <class Enum>
int enum_value(const Enum& e) noexcept {
  int value;
  std::memcpy(&value, &e, sizeof value);
  return value;
}

}  // namespace

extern "C" {

const char* utf8guard_error_name(utf8guard_error kind) {
  const int value = enum_value(kind);
  if (value < UTF8GUARD_ERROR_NONE || value > UTF8GUARD_ERROR_INCOMPLETE) return "unknown";
  // to_string returns views of string literals, so data() is NUL-terminated.
  return utf8guard::to_string(static_cast<utf8guard::error>(value)).data();
}

const char* utf8guard_status_name(utf8guard_status status) {
  switch (enum_value(status)) {
    case UTF8GUARD_OK: return "ok";
    case UTF8GUARD_BUFFER_TOO_SMALL: return "buffer_too_small";
    case UTF8GUARD_OVERFLOW: return "overflow";
    case UTF8GUARD_ILL_FORMED: return "ill_formed";
    case UTF8GUARD_SINK_FAILED: return "sink_failed";
  }
  return "unknown";
}

const char* utf8guard_version(void) { return UTF8GUARD_VERSION_STRING; }

const char* utf8guard_active_kernel(void) { return utf8guard::detail::active_kernel_ref().name; }

size_t utf8guard_kernel_count(void) {
  std::size_t count = 0;
  utf8guard::detail::kernel_list(count);
  return count;
}

const char* utf8guard_kernel_name(size_t index, bool* usable) {
  std::size_t count = 0;
  const utf8guard::detail::kernel* const* all = utf8guard::detail::kernel_list(count);
  if (index >= count) return nullptr;
  if (usable != nullptr) *usable = all[index]->usable();
  return all[index]->name;
}

bool utf8guard_set_kernel(const char* name) {
  return name != nullptr && utf8guard::detail::set_active_kernel(name, std::strlen(name));
}

const char* utf8guard_kernel_env_error(void) { return utf8guard::detail::kernel_env_error(); }

}  // extern "C"
