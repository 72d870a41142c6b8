// convert.hpp - the one place where C and C++ results are converted (the
// enums share their numbering, utf8guard.hpp, so this is a field-by-field
// copy), and where characters become the bytes the kernels read.
#ifndef UTF8GUARD_CORE_CONVERT_HPP
#define UTF8GUARD_CORE_CONVERT_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

inline utf8guard_result to_c(const result& r) noexcept {
  return {static_cast<utf8guard_error>(r.kind), r.offset, r.length};
}

inline result from_c(const utf8guard_result& r) noexcept {
  return {static_cast<error>(r.kind), r.offset, r.length};
}

// c_bytes turns a C (data, len) pair into a view; a NULL pointer is the empty
// input whatever len says (utf8guard.h: "treat it as the empty input").
inline std::string_view c_bytes(const char* data, std::size_t len) noexcept {
  return data == nullptr ? std::string_view() : std::string_view(data, len);
}

// SAFETY: converting a (char*, len) pair; callers allow (nullptr, 0), which no
// kernel dereferences because every read is bounded by n.
inline const std::uint8_t* bytes(const char* p) noexcept {
  return reinterpret_cast<const std::uint8_t*>(p);
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_CONVERT_HPP
