// icu.hpp - ICU as a second, independent decoder for the tests and the fuzz
// targets. ICU (60 and later) substitutes U+FFFD per maximal subpart, as the
// contract requires, so it must agree with the library on every input. An
// ICU call that fails aborts: the comparison would mean nothing.
#ifndef UTF8GUARD_TESTS_SUPPORT_ICU_HPP
#define UTF8GUARD_TESTS_SUPPORT_ICU_HPP

#include <unicode/ucnv.h>
#include <unicode/ucnv_err.h>
#include <unicode/ustring.h>
#include <unicode/utypes.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace utf8guard::testing {

// icu_error is ICU's first error: where it starts and how many bytes ICU
// calls invalid, or valid = true.
struct icu_error {
  bool valid = true;
  std::size_t offset = 0;
  std::size_t length = 0;
};

inline std::string describe(const icu_error& e) {
  if (e.valid) return "valid";
  return "invalid@" + std::to_string(e.offset) + "+" + std::to_string(e.length);
}

// icu_first_error converts with the STOP callback: ICU stops right after the
// first ill-formed sequence and ucnv_getInvalidChars() returns its bytes, so
// the offset is what was consumed minus that length.
inline icu_error icu_first_error(std::string_view in) {
  static UConverter* const conv = [] {
    UErrorCode status = U_ZERO_ERROR;
    UConverter* c = ucnv_open("UTF-8", &status);
    if (U_FAILURE(status)) {
      std::fprintf(stderr, "ICU: ucnv_open(UTF-8): %s\n", u_errorName(status));
      std::abort();
    }
    ucnv_setToUCallBack(c, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
    return c;
  }();
  ucnv_reset(conv);
  std::vector<UChar> buffer(in.size() + 1);
  UChar* target = buffer.data();
  const char* source = in.data();
  UErrorCode status = U_ZERO_ERROR;
  // UTF-16 never needs more units than UTF-8 has bytes, so one call suffices.
  ucnv_toUnicode(conv, &target, buffer.data() + buffer.size(), &source, in.data() + in.size(),
                 nullptr, true, &status);
  icu_error e;
  if (U_SUCCESS(status)) return e;
  if (status != U_ILLEGAL_CHAR_FOUND && status != U_INVALID_CHAR_FOUND &&
      status != U_TRUNCATED_CHAR_FOUND) {
    std::fprintf(stderr, "ICU: ucnv_toUnicode: %s\n", u_errorName(status));
    std::abort();
  }
  char bad[32];
  std::int8_t bad_len = sizeof bad;
  UErrorCode status2 = U_ZERO_ERROR;
  ucnv_getInvalidChars(conv, bad, &bad_len, &status2);
  e.valid = false;
  e.length = static_cast<std::size_t>(bad_len);
  e.offset = static_cast<std::size_t>(source - in.data()) - e.length;
  return e;
}

// icu_sanitized is ICU's replacement: UTF-8 to UTF-16 with U+FFFD for each
// ill-formed subpart, then back to UTF-8, plus the number of substitutions.
struct icu_sanitized {
  std::string bytes;
  std::size_t replacements = 0;
};

inline icu_sanitized icu_sanitize(std::string_view in) {
  icu_sanitized out;
  std::vector<UChar> utf16(in.size() + 1);
  std::int32_t units = 0;
  std::int32_t subs = 0;
  UErrorCode status = U_ZERO_ERROR;
  u_strFromUTF8WithSub(utf16.data(), static_cast<std::int32_t>(utf16.size()), &units, in.data(),
                       static_cast<std::int32_t>(in.size()), 0xFFFD, &subs, &status);
  if (U_FAILURE(status)) {
    std::fprintf(stderr, "ICU: u_strFromUTF8WithSub: %s\n", u_errorName(status));
    std::abort();
  }
  out.replacements = static_cast<std::size_t>(subs);
  // Each UTF-16 unit becomes at most 3 UTF-8 bytes (a pair: 4 bytes for 2 units).
  out.bytes.resize(3 * static_cast<std::size_t>(units) + 1);
  std::int32_t written = 0;
  u_strToUTF8(out.bytes.data(), static_cast<std::int32_t>(out.bytes.size()), &written, utf16.data(),
              units, &status);
  if (U_FAILURE(status)) {
    std::fprintf(stderr, "ICU: u_strToUTF8: %s\n", u_errorName(status));
    std::abort();
  }
  out.bytes.resize(static_cast<std::size_t>(written));
  return out;
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_ICU_HPP
