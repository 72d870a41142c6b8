// competitors.cpp - thin wrappers; each is the ordinary way to ask its library
// "is this UTF-8?" (or "replace what is not"), with no tuning of our own.
#include "competitors.hpp"

#include <iconv.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>
#include <utf8proc.h>

#include <climits>
#include <cstdint>
#include <iterator>
#include <vector>

#include "utf8.h"  // utfcpp

namespace bench {
namespace {

bool fits_int32(std::string_view s) { return s.size() <= static_cast<std::size_t>(INT32_MAX); }

bool icu_u8next(std::string_view s) noexcept {
  if (!fits_int32(s)) return false;
  const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
  const auto n = static_cast<std::int32_t>(s.size());
  std::int32_t i = 0;
  while (i < n) {
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) return false;
  }
  return true;
}

bool icu_preflight(std::string_view s) noexcept {
  if (!fits_int32(s)) return false;
  UErrorCode err = U_ZERO_ERROR;
  std::int32_t units = 0;
  u_strFromUTF8(nullptr, 0, &units, s.data(), static_cast<std::int32_t>(s.size()), &err);
  // Preflighting a non-empty input "fails" with U_BUFFER_OVERFLOW_ERROR.
  return U_SUCCESS(err) || err == U_BUFFER_OVERFLOW_ERROR;
}

bool utf8proc_loop(std::string_view s) noexcept {
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  auto left = static_cast<utf8proc_ssize_t>(s.size());
  while (left > 0) {
    utf8proc_int32_t cp;
    const utf8proc_ssize_t used = utf8proc_iterate(p, left, &cp);
    if (used < 0) return false;
    p += used;
    left -= used;
  }
  return true;
}

bool utfcpp_valid(std::string_view s) noexcept { return utf8::is_valid(s.begin(), s.end()); }

// One conversion descriptor and one scratch buffer, reused: opening a
// descriptor per call would time glibc's module loading, not its decoder.
// The benchmarks are single-threaded.
bool iconv_check(std::string_view s) noexcept {
  static const iconv_t cd = iconv_open("UTF-8", "UTF-8");
  static std::vector<char> scratch;
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  if (scratch.size() < s.size() + 16) scratch.resize(s.size() + 16);
  iconv(cd, nullptr, nullptr, nullptr, nullptr);  // reset the shift state
  char* in = const_cast<char*>(s.data());         // SAFETY: iconv never writes its input
  std::size_t in_left = s.size();
  char* out = scratch.data();
  std::size_t out_left = scratch.size();
  if (iconv(cd, &in, &in_left, &out, &out_left) == static_cast<std::size_t>(-1)) return false;
  return in_left == 0;
}

std::size_t icu_sanitize(std::string_view s, char* out, std::size_t cap) noexcept {
  static std::vector<UChar> utf16;
  if (!fits_int32(s) || cap > static_cast<std::size_t>(INT32_MAX)) return SIZE_MAX;
  // Each input byte yields at most one UTF-16 unit (a 4-byte sequence, two).
  if (utf16.size() < s.size()) utf16.resize(s.size());
  UErrorCode err = U_ZERO_ERROR;
  std::int32_t units = 0;
  u_strFromUTF8WithSub(utf16.data(), static_cast<std::int32_t>(utf16.size()), &units, s.data(),
                       static_cast<std::int32_t>(s.size()), 0xFFFD, nullptr, &err);
  std::int32_t written = 0;
  u_strToUTF8(out, static_cast<std::int32_t>(cap), &written, utf16.data(), units, &err);
  return U_SUCCESS(err) ? static_cast<std::size_t>(written) : SIZE_MAX;
}

std::size_t utfcpp_replace(std::string_view s, char* out, std::size_t cap) noexcept {
  (void)cap;  // at most one 3-byte U+FFFD per input byte: cap >= 3 * size suffices
  char* end = utf8::replace_invalid(s.begin(), s.end(), out, 0xFFFDu);
  return static_cast<std::size_t>(end - out);
}

constexpr validator_impl kValidators[] = {
    {"icu_u8next", icu_u8next}, {"icu_preflight", icu_preflight}, {"utf8proc", utf8proc_loop},
    {"utfcpp", utfcpp_valid},   {"iconv", iconv_check},
};

constexpr sanitizer_impl kSanitizers[] = {
    {"icu_sub", icu_sanitize},
    {"utfcpp_replace", utfcpp_replace},
};

}  // namespace

const validator_impl* validators(std::size_t& count) noexcept {
  count = std::size(kValidators);
  return kValidators;
}

const sanitizer_impl* sanitizers(std::size_t& count) noexcept {
  count = std::size(kSanitizers);
  return kSanitizers;
}

}  // namespace bench
