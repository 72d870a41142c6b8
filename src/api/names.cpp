// names.cpp - the C forms of the names and lookups (core/names.cpp,
// core/policy.cpp and core/hints.cpp implement them): kinds, statuses,
// categories, profiles, policies as text, hints, and the version.
#include <cstdint>

#include "core/convert.hpp"

extern "C" {
const char* utf8guard_error_name(utf8guard_error kind) {
  const int value = utf8guard::detail::c_int(kind);
  // Any value of error's underlying type converts safely; to_string names
  // the enumerators and calls the rest "unknown".
  if (value < 0 || value > UINT8_MAX) return "unknown";
  // to_string returns views of string literals, so data() is NUL-terminated.
  return utf8guard::to_string(static_cast<utf8guard::error>(value)).data();
}

const char* utf8guard_status_name(utf8guard_status status) {
  switch (utf8guard::detail::c_int(status)) {
    case UTF8GUARD_STATUS_OK: return "ok";
    case UTF8GUARD_STATUS_BUFFER_TOO_SMALL: return "buffer_too_small";
    case UTF8GUARD_STATUS_OVERFLOW: return "overflow";
    case UTF8GUARD_STATUS_ILL_FORMED: return "ill_formed";
    case UTF8GUARD_STATUS_SINK_FAILED: return "sink_failed";
    case UTF8GUARD_STATUS_INVALID_ARGUMENT: return "invalid_argument";
  }
  return "unknown";
}

// version() views a string literal, so data() is NUL-terminated.
const char* utf8guard_version(void) { return utf8guard::version().data(); }

bool utf8guard_policy_parse(const char* text, size_t len, utf8guard_policy* policy,
                            size_t* error_offset, size_t* error_length) {
  utf8guard::policy_parse_result r;
  if (policy != nullptr) r = utf8guard::policy_parse(utf8guard::detail::c_bytes(text, len));
  if (r.ok) {
    *policy = r.policy.bits();
  } else {
    if (error_offset != nullptr) *error_offset = r.error_offset;
    if (error_length != nullptr) *error_length = r.error_length;
  }
  return r.ok;
}

const char* utf8guard_category_name(utf8guard_category c) {
  // Any int a C caller passes: to_string calls what is not one bit "unknown".
  const auto bits = static_cast<std::uint32_t>(utf8guard::detail::c_int(c));
  // to_string returns views of string literals, so data() is NUL-terminated.
  return utf8guard::to_string(static_cast<utf8guard::category>(bits)).data();
}

utf8guard_category utf8guard_category_from_name(const char* name, size_t len) {
  return static_cast<utf8guard_category>(
      utf8guard::category_from_name(utf8guard::detail::c_bytes(name, len)));
}

const char* utf8guard_profile_name(size_t index) {
  const std::string_view name = utf8guard::profile_name(index);
  return name.empty() ? nullptr : name.data();
}

bool utf8guard_profile_from_name(const char* name, size_t len, utf8guard_policy* policy) {
  utf8guard::policy p;
  if (policy == nullptr ||
      !utf8guard::profile_from_name(utf8guard::detail::c_bytes(name, len), p)) {
    return false;
  }
  *policy = p.bits();
  return true;
}

utf8guard_hint utf8guard_explain(const char* data, size_t len, size_t offset) {
  return utf8guard::detail::to_c(utf8guard::explain(utf8guard::detail::c_bytes(data, len), offset));
}

const char* utf8guard_hint_name(utf8guard_hint_kind kind) {
  const int value = utf8guard::detail::c_int(kind);
  if (value < UTF8GUARD_HINT_NONE || value > UTF8GUARD_HINT_WINDOWS1252) return "unknown";
  return utf8guard::to_string(static_cast<utf8guard::hint_kind>(value)).data();
}

}  // extern "C"
