// c_api.cpp - the C API of the fuzzing helpers (fuzz.h): wrappers of the C++
// API (fuzz.hpp) that let no exception out.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "utf8guard/fuzz.hpp"

namespace {

std::string_view c_bytes(const char* data, std::size_t len) noexcept {
  return data == nullptr ? std::string_view() : std::string_view(data, len);
}

utf8guard::fuzz::verdict c_verdict(bool valid, std::size_t offset) noexcept {
  if (valid) return utf8guard::fuzz::verdict::accepted();
  if (offset == UTF8GUARD_FUZZ_NO_OFFSET) return utf8guard::fuzz::verdict::rejected();
  return utf8guard::fuzz::verdict::rejected(offset);
}

}  // namespace

extern "C" {

size_t utf8guard_fuzz_mutate(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  return utf8guard::fuzz::mutate(data, size, max_size, seed);
}

size_t utf8guard_fuzz_mutate_ex(uint8_t* data, size_t size, size_t max_size, unsigned int seed,
                                utf8guard_fuzz_fallback fallback, const char** what) {
  return utf8guard::fuzz::mutate(data, size, max_size, seed, fallback, what);
}

bool utf8guard_fuzz_agrees(const char* data, size_t len, bool valid, size_t offset,
                           unsigned int tolerate) {
  // The decoder's name only appears in reports; "" costs no allocation here.
  const utf8guard::fuzz::oracle o({}, tolerate);
  return o.agrees(c_bytes(data, len), c_verdict(valid, offset));
}

size_t utf8guard_fuzz_report(char* out, size_t cap, const char* decoder, const char* data,
                             size_t len, bool valid, size_t offset, unsigned int tolerate) {
  std::string text;
  try {
    const utf8guard::fuzz::oracle o(decoder == nullptr ? "" : decoder, tolerate);
    text = o.report(c_bytes(data, len), c_verdict(valid, offset));
  } catch (...) {  // out of memory: an empty report
    text.clear();
  }
  if (out != nullptr && cap != 0) {
    const std::size_t n = text.size() < cap ? text.size() : cap - 1;
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
  }
  return text.size();
}

void utf8guard_fuzz_check(const char* decoder, const char* data, size_t len, bool valid,
                          size_t offset, unsigned int tolerate) {
  if (utf8guard_fuzz_agrees(data, len, valid, offset, tolerate)) return;
  // The report is built only on disagreement, so the name is copied only then.
  const utf8guard::fuzz::oracle o(decoder == nullptr ? "" : decoder, tolerate);
  o.check(c_bytes(data, len), c_verdict(valid, offset));
}

}  // extern "C"
