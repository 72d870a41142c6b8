// validate.cpp - the driver shared by every kernel, and the one-shot API.
//
// The direction between the APIs: C++ implements, C wraps (see stream.cpp).
#include "api/validate.hpp"
#include "api/one_shot.hpp"
#include "core/convert.hpp"
#include "core/short_input.hpp"

namespace utf8guard {
namespace detail {
// short_scan for is_valid_active, out of line: is_valid_active then reaches
// it or the kernel by a jump.
__attribute__((noinline)) bool short_valid_call(const std::uint8_t* p, std::size_t n) noexcept {
  return short_scan(p, n) == n;
}
// is_valid_active is is_valid's answer through active_kernel_ref, which
// resolves the kernel on first use: for is_valid's first call and for the
// policy's is_valid. Out of line: is_valid's own path then needs no frame.
__attribute__((noinline)) bool is_valid_active(const std::uint8_t* p, std::size_t n) noexcept {
  const kernel& k = active_kernel_ref();
  return n <= k.short_dfa ? short_valid_call(p, n) : k.valid(p, n);
}
// validate_active_packed is validate_packed's answer through
// active_kernel_ref, which resolves the kernel on first use: for validate's
// first call and for the policy's validate. Out of line, as is_valid_active.
__attribute__((noinline)) packed_result validate_active_packed(const std::uint8_t* p,
                                                               std::size_t n) noexcept {
  const kernel& k = active_kernel_ref();
  return n <= k.short_dfa ? validate_at(p, n, short_scan(p, n)) : k.validate(p, n);
}
result validate_active(const std::uint8_t* p, std::size_t n) noexcept {
  return validate_active_packed(p, n).unpacked();
}

}  // namespace detail

bool is_valid(std::string_view bytes) noexcept {
  if (detail::bad_span(bytes)) return false;
  const std::uint8_t* p = detail::bytes(bytes.data());
  const std::size_t n = bytes.size();
  // The kernel pointer read here, not through active_kernel_ref: its first
  // use's call would give every call a frame.
  const detail::kernel* k = detail::g_active.load(std::memory_order_acquire);
  if (k == nullptr) return detail::is_valid_active(p, n);
  if (n <= k->short_dfa) return detail::short_scan(p, n) == n;
  return k->valid(p, n);
}

// validate's answer (utf8guard.hpp's inline validate builds the result), in
// is_valid's shape: the kernel's own short path where it has one, the DFA
// for one word on the others.
packed_result validate_packed(std::string_view bytes) noexcept {
  if (detail::bad_span(bytes)) return detail::kRefusedPacked;
  const std::uint8_t* p = detail::bytes(bytes.data());
  const std::size_t n = bytes.size();
  const detail::kernel* k = detail::g_active.load(std::memory_order_acquire);
  if (k == nullptr) return detail::validate_active_packed(p, n);
  if (n <= k->short_dfa) return detail::validate_at(p, n, detail::short_scan(p, n));
  return k->validate(p, n);
}

// With a policy: one_shot (api/one_shot.hpp), on the active kernel. An
// empty policy gives exactly the answers of the calls without one.
bool is_valid(std::string_view bytes, policy p) noexcept {
  if (detail::bad_span(bytes)) return false;
  const std::uint8_t* data = detail::bytes(bytes.data());
  const std::size_t n = bytes.size();
  if (p.empty()) return detail::is_valid_active(data, n);
  // A yes or no: an error at the rest's start stands for any (one_shot).
  return detail::one_shot(data, n, p.bits(),
                          [](const std::uint8_t* rest, std::size_t len) {
                            return detail::is_valid_active(rest, len) ? result{} : detail::kRefused;
                          })
      .ok();
}

result validate(std::string_view bytes, policy p) noexcept {
  if (detail::bad_span(bytes)) return detail::kRefused;
  const std::uint8_t* data = detail::bytes(bytes.data());
  const std::size_t n = bytes.size();
  if (p.empty()) return detail::validate_active(data, n);
  return detail::one_shot(data, n, p.bits(), detail::validate_active);
}

}  // namespace utf8guard

extern "C" {

bool utf8guard_is_valid(const char* data, size_t len) {
  return utf8guard::is_valid(utf8guard::detail::c_bytes(data, len));
}

utf8guard_result utf8guard_validate(const char* data, size_t len) {
  return utf8guard::detail::to_c(utf8guard::validate(utf8guard::detail::c_bytes(data, len)));
}

bool utf8guard_is_valid_policy(const char* data, size_t len, utf8guard_policy policy) {
  return utf8guard::is_valid(utf8guard::detail::c_bytes(data, len),
                             utf8guard::policy::from_bits(policy));
}

utf8guard_result utf8guard_validate_policy(const char* data, size_t len, utf8guard_policy policy) {
  return utf8guard::detail::to_c(utf8guard::validate(utf8guard::detail::c_bytes(data, len),
                                                     utf8guard::policy::from_bits(policy)));
}

}  // extern "C"
