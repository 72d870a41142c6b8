// percent_window.cpp - see percent_window.hpp. The decoding itself is the
// library's (utf8guard_percent_decode); only the unit boundaries are found
// here.
#include "percent_window.hpp"

#include <cstddef>

#include <utf8guard/utf8guard.h>

namespace utf8guard::cli {
namespace {

// The widest window the CLI decodes: 6 decoded bytes (a hint's reach) of 3.
constexpr unsigned kMaxWindow = 18;

bool is_hex(unsigned char b) noexcept {
  return (b >= '0' && b <= '9') || ((b | 0x20) >= 'a' && (b | 0x20) <= 'f');
}

// decode writes what enc[0..n) decodes to, n <= kMaxWindow, to out (room for
// kMaxWindow) and returns the count.
unsigned decode(const unsigned char* enc, unsigned n, unsigned char* out) noexcept {
  std::size_t written = 0;
  if (utf8guard_percent_decode(reinterpret_cast<const char*>(enc), n, reinterpret_cast<char*>(out),
                               kMaxWindow, &written) != UTF8GUARD_STATUS_OK) {
    return 0;  // cannot happen: the arguments are never null
  }
  return static_cast<unsigned>(written);
}

}  // namespace

unsigned percent_ahead(const unsigned char* enc, unsigned n, bool ends_input, unsigned char* out,
                       unsigned max) noexcept {
  if (n > 3 * max) {  // max units fit in 3 * max bytes
    n = 3 * max;
    ends_input = false;
  }
  if (!ends_input) {
    if (n >= 1 && enc[n - 1] == '%') {
      n -= 1;
    } else if (n >= 2 && enc[n - 2] == '%' && is_hex(enc[n - 1])) {
      n -= 2;
    }
  }
  unsigned char decoded[kMaxWindow];
  const unsigned got = decode(enc, n < kMaxWindow ? n : kMaxWindow, decoded);
  const unsigned take = got < max ? got : max;
  for (unsigned k = 0; k < take; ++k) out[k] = decoded[k];
  return take;
}

unsigned percent_behind(const unsigned char* enc, unsigned n, unsigned char* out,
                        unsigned max) noexcept {
  unsigned start = n;
  for (unsigned units = 0; units < max && start != 0; ++units) {
    const unsigned j = start - 1;
    start = j >= 2 && enc[j - 2] == '%' && is_hex(enc[j - 1]) && is_hex(enc[j]) ? j - 2 : j;
  }
  unsigned char decoded[kMaxWindow];
  const unsigned span = n - start;
  const unsigned got = decode(enc + start, span < kMaxWindow ? span : kMaxWindow, decoded);
  const unsigned take = got < max ? got : max;
  for (unsigned k = 0; k < take; ++k) out[k] = decoded[got - take + k];
  return take;
}

}  // namespace utf8guard::cli
