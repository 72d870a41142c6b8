// codec.cpp - decoding UTF-8 to code points and encoding code points to UTF-8.
// Decoding classifies through the same Table 3-7 code as validation
// (core/table37.hpp), so a decode error is exactly validate()'s error.
//
// The direction between the APIs: C++ implements, C wraps (see
// api/stream.cpp). The C forms that write to a caller's buffer run the same
// decode_each and encode_each as decode() and encode().
#include "core/convert.hpp"
#include "core/table37.hpp"

namespace utf8guard::detail {
namespace {

// value_of assembles the scalar value of a sequence Table 3-7 has accepted:
// the lead keeps 7, 5, 4 or 3 payload bits, each continuation 6.
char32_t value_of(const std::uint8_t* s, std::size_t len) noexcept {
  static constexpr std::uint8_t kLeadMask[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t cp = s[0] & kLeadMask[len];
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (s[k] & 0x3Fu);
  return cp;
}

bool is_scalar_value(char32_t cp) noexcept {
  return cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

}  // namespace

// decode_at decodes the sequence at p[i]; on success it stores the value.
result decode_at(const std::uint8_t* p, std::size_t n, std::size_t i, char32_t& cp) noexcept {
  const result r = sequence_at(p, n, i);
  if (r.ok()) cp = value_of(p + i, r.length);
  return r;
}

// decode_each passes each code point of the input to put (bool(char32_t),
// false to stop) and returns the first error, or ok() at the end or on a stop.
template <class Put>
result decode_each(std::string_view in, Put put) {
  const std::uint8_t* p = bytes(in.data());
  for (std::size_t i = 0; i < in.size();) {
    char32_t cp = 0;
    const result r = decode_at(p, in.size(), i, cp);
    if (!r.ok()) return r;
    if (!put(cp)) break;
    i += r.length;
  }
  return {};
}

// Encodes a scalar value; returns 0 for anything else.
std::size_t encode_scalar(char32_t cp, char* out) noexcept {
  if (!is_scalar_value(cp)) return 0;
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<char>(0xC0 | (cp >> 6));
    out[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (cp >> 12));
    out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (cp >> 18));
  out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

// encode_each passes the UTF-8 form of each code point to put (bool(const
// char*, std::size_t), false to stop). It returns the index of the first value
// that is not a scalar value, or count when there is none (or put stopped).
template <class Put>
std::size_t encode_each(const char32_t* cps, std::size_t count, Put put) {
  for (std::size_t i = 0; i < count; ++i) {
    char buf[4];
    const std::size_t len = encode_scalar(cps[i], buf);
    if (len == 0) return i;
    if (!put(buf, len)) break;
  }
  return count;
}

}  // namespace utf8guard::detail

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
