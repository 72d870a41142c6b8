// validate.hpp - the one-shot driver that every kernel's scan goes through.
#ifndef UTF8GUARD_API_VALIDATE_HPP
#define UTF8GUARD_API_VALIDATE_HPP

#include <cstddef>
#include <cstdint>

#include "dispatch.hpp"
#include "kernels/kernel.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

// classify_scan is the error near the position pos < n that a scan
// returned (kernels/kernel.hpp): the scalar classifier, from the sequence
// start at most 3 bytes before pos. Out of line, and its answer comes back in
// two registers (a result goes through memory): a function that passes its
// own result's memory to a call gets a stack-protector check on every call,
// the path of valid input too.
struct scan_error {
  std::size_t offset;
  std::size_t kind_and_length;  // the kind in the low byte, the length above
};
scan_error classify_scan(const std::uint8_t* p, std::size_t n, std::size_t pos) noexcept;
inline result error_result(scan_error e) noexcept {
  return {static_cast<error>(e.kind_and_length & 0xFF), e.offset, e.kind_and_length >> 8};
}

// validate_with is the one driver: kernel scan, then the scalar classifier.
inline result validate_with(const kernel& k, const std::uint8_t* p, std::size_t n) noexcept {
  const std::size_t pos = k.scan(p, n);
  if (pos == n) return {};
  return error_result(classify_scan(p, n, pos));
}

// validate_active is validate_with on the active kernel.
result validate_active(const std::uint8_t* p, std::size_t n) noexcept;

// is_valid_active answers yes/no only: no classification on the error path.
bool is_valid_active(const std::uint8_t* p, std::size_t n) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_API_VALIDATE_HPP
