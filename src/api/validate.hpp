// validate.hpp - the one-shot driver that every kernel's scan goes through.
#ifndef UTF8GUARD_API_VALIDATE_HPP
#define UTF8GUARD_API_VALIDATE_HPP

#include <cstddef>
#include <cstdint>

#include "kernels/dispatch.hpp"
#include "kernels/kernel.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

// validate_active is validate on the active kernel, resolving it on first
// use (api/validate.cpp).
result validate_active(const std::uint8_t* p, std::size_t n) noexcept;

// is_valid_active answers yes/no only: no classification on the error path.
bool is_valid_active(const std::uint8_t* p, std::size_t n) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_API_VALIDATE_HPP
