// convert.hpp - the one place where C and C++ results are converted (the
// enums share their numbering, utf8guard.hpp, so this is a field-by-field
// copy), and where characters become the bytes the kernels read.
#ifndef UTF8GUARD_CORE_CONVERT_HPP
#define UTF8GUARD_CORE_CONVERT_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

inline utf8guard_result to_c(const result& r) noexcept {
  return {static_cast<utf8guard_error>(r.kind), r.offset, r.length,
          static_cast<utf8guard_category>(r.category), r.code_point};
}

inline result from_c(const utf8guard_result& r) noexcept {
  return {static_cast<error>(r.kind), r.offset, r.length, static_cast<category>(r.category),
          r.code_point};
}

inline utf8guard_encoded_result to_c(const encoded_result& r) noexcept {
  return {to_c(static_cast<const result&>(r)), r.decoded_offset, r.decoded_length};
}

inline encoded_result from_c(const utf8guard_encoded_result& r) noexcept {
  encoded_result out;
  static_cast<result&>(out) = from_c(r.error);
  out.decoded_offset = r.decoded_offset;
  out.decoded_length = r.decoded_length;
  return out;
}

// to_status is the C API's status of a call on a streaming object s: went_on
// is the C++ call's answer, and for a false one Life::stopped(s) says whether
// it was a stop (a sink or callback said so) rather than a caller bug.
template <class Life, class State>
utf8guard_status to_status(bool went_on, const State* s) noexcept {
  if (went_on) return UTF8GUARD_STATUS_OK;
  return Life::stopped(s) ? UTF8GUARD_STATUS_SINK_FAILED : UTF8GUARD_STATUS_INVALID_ARGUMENT;
}

// c_callback carries a C API callback and its context to a C++ stream,
// which calls one result at a time (encoded_fn: each) or in batches
// (error_scanner's batch_fn: batched); each trampoline is none, a refused
// call, when there is no callback to call.
template <class Callback>
struct c_callback {
  Callback on_error;
  void* ctx;
  template <class Result>
  static bool one(void* self, const Result& r) {
    const auto& c = *static_cast<const c_callback*>(self);
    return c.on_error(c.ctx, to_c(r));
  }
  static std::size_t batch(void* self, const result* errors, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      if (!one(self, errors[i])) return i;
    }
    return count;
  }
  encoded_fn each() const noexcept { return on_error == nullptr ? nullptr : &one<encoded_result>; }
  batch_fn batched() const noexcept { return on_error == nullptr ? nullptr : &batch; }
};

// c_int reads an enum argument a C caller passed as the int it holds: a C
// caller may pass any int in an enum parameter, but loading a value outside
// the enumerators' range into a C++ enum is undefined, so the C entry points
// read its bytes first and compare after.
template <class Enum>
int c_int(const Enum& e) noexcept {
  static_assert(sizeof(Enum) == sizeof(int), "C enums are int-sized on every supported ABI");
  int value;
  std::memcpy(&value, &e, sizeof value);
  return value;
}

// from_caller converts a result that a C caller hands in, whose kind may be
// any int: one outside error's range becomes a value to_string calls
// "unknown" (loading it into error as it is would be undefined).
inline result from_caller(utf8guard_result r) noexcept {
  int kind = c_int(r.kind);
  if (kind < 0 || kind > 0xFF) kind = 0xFF;
  r.kind = UTF8GUARD_ERROR_NONE;
  result out = from_c(r);
  out.kind = static_cast<error>(kind);
  return out;
}
inline encoded_result from_caller(const utf8guard_encoded_result& r) noexcept {
  encoded_result out = from_c(r);
  static_cast<result&>(out) = from_caller(r.error);
  return out;
}

inline utf8guard_hint to_c(const hint& h) noexcept {
  return {static_cast<utf8guard_hint_kind>(h.kind), h.value, h.has_value};
}

// c_bytes turns a C (data, len) pair into a view, a lost pointer included:
// the C++ entry points refuse that (bad_span), so the C ones need not.
inline std::string_view c_bytes(const char* data, std::size_t len) noexcept {
  return std::string_view(data, len);
}

// bad_span is a caller bug that fails closed (utf8guard.h, conventions): a
// null pointer with a non-zero length or capacity. The pointer is tested
// first: one well-predicted branch on every call, the length only when the
// pointer is null.
inline bool bad_span(const void* p, std::size_t n) noexcept {
  return __builtin_expect(p == nullptr, 0) && n != 0;
}
inline bool bad_span(std::string_view v) noexcept { return bad_span(v.data(), v.size()); }

// The answer of a refused call that returns a result: nothing was read.
inline constexpr result kRefused{error::invalid_argument, 0, 0};
inline constexpr packed_result kRefusedPacked{0, static_cast<std::size_t>(error::invalid_argument)};
inline constexpr utf8guard_result kRefusedC{UTF8GUARD_ERROR_INVALID_ARGUMENT, 0, 0,
                                            UTF8GUARD_CATEGORY_NONE, 0};

// SAFETY: converting a (char*, len) pair; callers allow (nullptr, 0), which no
// kernel dereferences because every read is bounded by n.
inline const std::uint8_t* bytes(const char* p) noexcept {
  return reinterpret_cast<const std::uint8_t*>(p);
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_CONVERT_HPP
