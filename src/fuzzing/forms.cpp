// forms.cpp - RFC 2279 forms, written and read (forms.hpp).
#include "forms.hpp"

namespace utf8guard::fuzzing {
namespace {

// kLead is the lead byte's fixed bits for each length; kPayload the value bits
// the whole sequence carries (RFC 2279 §2: 7, 11, 16, 21, 26, 31).
constexpr std::uint8_t kLead[kMaxForm + 1] = {0, 0x00, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC};
constexpr unsigned kPayload[kMaxForm + 1] = {0, 7, 11, 16, 21, 26, 31};

bool is_continuation(unsigned char b) noexcept { return (b & 0xC0) == 0x80; }

// pattern_length is the length a lead byte announces under RFC 2279, or 0.
std::size_t pattern_length(unsigned char b) noexcept {
  if (b < 0x80) return 1;
  if (b < 0xC0) return 0;  // a continuation byte leads nothing
  if (b < 0xE0) return 2;
  if (b < 0xF0) return 3;
  if (b < 0xF8) return 4;
  if (b < 0xFC) return 5;
  if (b < 0xFE) return 6;
  return 0;  // FE and FF never occur in any UTF-8
}

// read_pattern decodes a complete RFC 2279 sequence of the announced length,
// or returns length 0 when it is cut short or is not a sequence.
lax_form read_pattern(std::string_view s) noexcept {
  if (s.empty()) return {};
  const auto lead = static_cast<unsigned char>(s[0]);
  const std::size_t len = pattern_length(lead);
  if (len == 0 || s.size() < len) return {};
  std::uint32_t value = lead & (len == 1 ? 0x7Fu : (0x7Fu >> len));
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[k]);
    if (!is_continuation(b)) return {};
    value = (value << 6) | (b & 0x3Fu);
  }
  return {lax_kind::none, len, value};
}

bool is_surrogate(std::uint32_t v) noexcept { return v >= 0xD800 && v <= 0xDFFF; }

}  // namespace

std::size_t shortest_length(std::uint32_t value) noexcept {
  for (std::size_t len = 1; len < kMaxForm; ++len) {
    if (value >> kPayload[len] == 0) return len;
  }
  return kMaxForm;
}

std::size_t encode_as(std::uint32_t value, std::size_t length, std::uint8_t* out) noexcept {
  if (length == 0 || length > kMaxForm || (value >> kPayload[length]) != 0) return 0;
  if (length == 1) {
    out[0] = static_cast<std::uint8_t>(value);
    return 1;
  }
  for (std::size_t k = length - 1; k > 0; --k) {
    out[k] = static_cast<std::uint8_t>(0x80 | (value & 0x3F));
    value >>= 6;
  }
  out[0] = static_cast<std::uint8_t>(kLead[length] | value);
  return length;
}

lax_form read_lax(std::string_view bytes) noexcept {
  lax_form f = read_pattern(bytes);
  if (f.length == 0 || f.length == 1) return {};
  const std::uint32_t v = f.value;
  if (f.length >= 5) {
    f.kind = lax_kind::five_six_byte;
  } else if (shortest_length(v) < f.length) {
    const bool c0_80 = f.length == 2 && v == 0;
    f.kind = c0_80 ? lax_kind::modified_utf8_nul : lax_kind::overlong;
  } else if (is_surrogate(v)) {
    f.kind = lax_kind::surrogate;
    // CESU-8 writes a supplementary character as its UTF-16 pair, each half
    // in 3 bytes: a high half read here, a low half in the next 3 bytes.
    if (v <= 0xDBFF) {
      const lax_form low = read_pattern(bytes.substr(3));
      if (low.length == 3 && low.value >= 0xDC00 && low.value <= 0xDFFF) {
        f.kind = lax_kind::cesu8_pair;
        f.length = 6;
        f.value = 0x10000 + ((v - 0xD800) << 10) + (low.value - 0xDC00);
      }
    }
  } else if (v > 0x10FFFF) {
    f.kind = lax_kind::above_10ffff;
  } else {
    return {};  // well-formed
  }
  return f;
}

std::string_view to_string(lax_kind kind) noexcept {
  switch (kind) {
    case lax_kind::none: return "none";
    case lax_kind::overlong: return "overlong";
    case lax_kind::modified_utf8_nul: return "modified_utf8_nul";
    case lax_kind::surrogate: return "surrogate";
    case lax_kind::cesu8_pair: return "cesu8_pair";
    case lax_kind::above_10ffff: return "above_10ffff";
    case lax_kind::five_six_byte: return "five_six_byte";
  }
  return "unknown";
}

}  // namespace utf8guard::fuzzing
