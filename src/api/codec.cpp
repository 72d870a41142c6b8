// codec.cpp - the C forms of decoding and encoding (core/codec.cpp implements
// them): those that write to a caller's buffer run the same decode_each and
// encode_each as decode() and encode(), and count past a full buffer to tell
// the size needed.
#include "core/codec.hpp"

using utf8guard::detail::c_bytes;

extern "C" {

utf8guard_result utf8guard_decode_one(const char* data, size_t len, uint32_t* code_point) {
  if (code_point == nullptr) return utf8guard::detail::kRefusedC;
  const utf8guard::decoded d = utf8guard::decode_one(c_bytes(data, len));
  if (d.kind == utf8guard::error::none) *code_point = d.value;
  return {static_cast<utf8guard_error>(d.kind), 0, d.length, UTF8GUARD_CATEGORY_NONE, 0};
}

utf8guard_status utf8guard_decode(const char* data, size_t len, uint32_t* out, size_t cap,
                                  size_t* count, utf8guard_result* error) {
  using utf8guard::detail::bad_span;
  if (bad_span(data, len) || bad_span(out, cap)) {
    if (count != nullptr) *count = 0;
    if (error != nullptr) *error = utf8guard::detail::kRefusedC;
    return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  }
  std::size_t written = 0;
  // Past a full buffer the code points are still counted: the size needed.
  const utf8guard::result r = utf8guard::detail::decode_each(c_bytes(data, len), [&](char32_t cp) {
    if (written < cap) out[written] = cp;  // SAFETY: written < cap
    ++written;
    return true;
  });
  if (count != nullptr) *count = written;
  if (error != nullptr) *error = utf8guard::detail::to_c(r);
  if (written > cap) return UTF8GUARD_STATUS_BUFFER_TOO_SMALL;
  return r.ok() ? UTF8GUARD_STATUS_OK : UTF8GUARD_STATUS_ILL_FORMED;
}

size_t utf8guard_encode_one(uint32_t code_point, char out[4]) {
  return utf8guard::encode_one(code_point, out);
}

utf8guard_status utf8guard_encode(const uint32_t* code_points, size_t count, char* out, size_t cap,
                                  size_t* written, size_t* bad_index) {
  static_assert(sizeof(uint32_t) == sizeof(char32_t), "code points are 32-bit");
  using utf8guard::detail::bad_span;
  if (bad_span(code_points, count) || bad_span(out, cap)) {
    if (written != nullptr) *written = 0;
    return UTF8GUARD_STATUS_INVALID_ARGUMENT;
  }
  // Past a full buffer the bytes are still counted: the size needed.
  std::size_t w = 0;
  // SAFETY: uint32_t and char32_t have the same size and representation.
  const auto* cps = reinterpret_cast<const char32_t*>(code_points);
  const std::size_t bad =
      utf8guard::detail::encode_each(cps, count, [&](const char* p, std::size_t len) {
        if (w <= cap && len <= cap - w) {
          for (std::size_t k = 0; k < len; ++k) out[w + k] = p[k];  // SAFETY: w + len <= cap
        }
        w += len;
        return true;
      });
  if (written != nullptr) *written = w;
  if (bad != count && bad_index != nullptr) *bad_index = bad;
  if (w > cap) return UTF8GUARD_STATUS_BUFFER_TOO_SMALL;
  return bad == count ? UTF8GUARD_STATUS_OK : UTF8GUARD_STATUS_ILL_FORMED;
}

}  // extern "C"
