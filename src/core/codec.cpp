// codec.cpp - decoding UTF-8 to code points and encoding code points to UTF-8.
// Decoding classifies through the same Table 3-7 code as validation
// (core/table37.hpp), so a decode error is exactly validate()'s error.
//
// The direction between the APIs: C++ implements, C wraps (see
// api/stream.cpp). The C forms that write to a caller's buffer run the same
// decode_each and encode_each as decode() and encode().
#include "core/codec.hpp"

using utf8guard::detail::c_bytes;

namespace utf8guard {

decoded decode_one(std::string_view in) noexcept {
  if (detail::bad_span(in)) return {0, 0, error::invalid_argument};
  if (in.empty()) return {0, 0, error::incomplete};
  decoded d;
  const result r = detail::decode_at(detail::bytes(in.data()), in.size(), 0, d.value);
  d.length = r.length;
  d.kind = r.kind;
  return d;
}

result decode(std::string_view in, std::u32string& out) {
  if (detail::bad_span(in)) return detail::kRefused;
  return detail::decode_each(in, [&out](char32_t cp) {
    out.push_back(cp);
    return true;
  });
}

std::size_t encode_one(char32_t code_point, char* out) noexcept {
  if (out == nullptr) return 0;
  return detail::encode_scalar(code_point, out);
}

bool encode(std::u32string_view code_points, std::string& out) {
  if (detail::bad_span(code_points.data(), code_points.size())) return false;
  const std::size_t n = code_points.size();
  return detail::encode_each(code_points.data(), n, [&out](const char* p, std::size_t len) {
           out.append(p, len);
           return true;
         }) == n;
}

}  // namespace utf8guard
