// percent_engine.hpp - percent-encoded input (docs/design.md 2.3) as a form
// of the encoded engine (stream/encoded_engine.hpp): its units
// (core/percent.hpp), its decoder and its events. Included by
// stream/encoded_objects.hpp only.
//
//   - Escapes are decoded by the vector decoder of the active kernel where
//     it applies and by the scalar loop below everywhere else.
//   - bad_escape and double_encoding are the decoder's events: a '%' or a
//     hex digit, ASCII, so the window that ends with it has ended every
//     sequence before it.
//   - An escape cut by the end of a chunk (at most "%X") waits in the stream
//     for the next one; finish() makes it a bad escape.
//   - Walking back over units is exact (core/percent.hpp), so the last
//     decoded bytes of a window are placed by walking back from its end.
#ifndef UTF8GUARD_STREAM_PERCENT_ENGINE_HPP
#define UTF8GUARD_STREAM_PERCENT_ENGINE_HPP

#include <cstddef>
#include <cstdint>

#include "core/percent.hpp"
#include "kernels/dispatch.hpp"
#include "stream/encoded_engine.hpp"

namespace utf8guard::detail {
namespace {

constexpr utf8guard_policy kBadEscapeBit = UTF8GUARD_CATEGORY_BAD_ESCAPE;
constexpr utf8guard_policy kDoubleBit = UTF8GUARD_CATEGORY_DOUBLE_ENCODING;

class percent_form {
 public:
  using state = utf8guard_percent_stream;
  static constexpr std::uint8_t kEscape = '%';
  static constexpr std::size_t kMaxHeld = 2;
  // Each window costs a scanner feed whose setup weighs as much as checking
  // a few KiB of decoded bytes; a body dense with escapes decodes to a third
  // of its size, so its windows are made long. The decoded bytes stay in L1.
  static constexpr std::size_t kWindow = 4 * kEncodedWindow;

  explicit percent_form(const state& s) noexcept
      : vector_(vector_percent_decoder()),
        stops_((s.priv_policy & kBadEscapeBit ? kStopBadEscape : 0u) |
               (s.priv_policy & kDoubleBit ? kStopPercent25 : 0u)) {}

  // A %25 waits for the next two decoded bytes.
  static bool raw_runs(const state& s) noexcept { return s.priv_double_digits == 0; }

  decode_stop decode(state& s, const std::uint8_t* p, std::size_t n, std::size_t& i,
                     std::size_t limit, std::uint8_t* out, std::size_t& written, bool final,
                     std::size_t origin) {
    const std::size_t dec_base = s.priv_decoded.priv_position;  // out[0]
    while (i < limit) {
      if (vector_ != nullptr && s.priv_double_digits == 0) {
        const decode_progress d = vector_(p + i, n - i, limit - i, out + written, stops_);
        i += d.read;
        written += d.written;
        if (i >= limit) break;
      }
      // One vector block's worth (or the tail) the scalar way.
      const std::size_t stop = limit - i > kEncodedSlack ? i + kEncodedSlack : limit;
      while (i < stop) {
        const std::uint8_t b = p[i];
        std::uint8_t value = b;
        bool escaped = false;
        if (b == '%') {
          if (n - i >= 3 && is_hex(p[i + 1]) && is_hex(p[i + 2])) {
            value = static_cast<std::uint8_t>(kHexValue[p[i + 1]] << 4 | kHexValue[p[i + 2]]);
            escaped = true;
          } else if (!final && n - i < 3 && (n - i == 1 || is_hex(p[i + 1]))) {
            return decode_stop::pending;
          }
        }
        const std::size_t here = dec_base + written;
        out[written++] = value;
        i += escaped ? 3 : 1;
        // A bad escape's '%' is never a hex digit: both events cannot come at once.
        if ((stops_ & kStopPercent25) != 0 && track_double(s, value, escaped, origin + i, here)) {
          event_.category = category::double_encoding;
          event_.offset = s.priv_double_offset;
          event_.length = 3;
          event_.decoded_offset = s.priv_double_decoded;
          return decode_stop::event;
        }
        if (b == '%' && !escaped && (stops_ & kStopBadEscape) != 0) {
          event_.category = category::bad_escape;
          event_.offset = origin + i - 1;
          event_.length = 1;
          event_.decoded_offset = here;
          return decode_stop::event;
        }
      }
    }
    return decode_stop::limit;
  }

  // event is the bad escape or double encoding decode stopped at.
  encoded_result event() const noexcept {
    encoded_result r = event_;
    r.kind = error::disallowed;
    r.code_point = '%';
    r.decoded_length = 1;
    return r;
  }

  struct unit_span {
    std::size_t width;
    std::size_t decoded;
  };
  static unit_span span(const std::uint8_t* enc, std::size_t i, std::size_t n) noexcept {
    return {unit_width(enc, i, n), 1};
  }

  // remember keeps the encoded offset and length of the window's last
  // decoded bytes (up to 3), walking its units backwards.
  static void remember(state& s, const encoded_window& w, std::size_t dec_len) noexcept {
    std::size_t j = w.len;
    const std::size_t keep = dec_len < 3 ? dec_len : 3;
    for (std::size_t k = 0; k < 3 - keep; ++k) {  // older ones move down
      s.priv_recent[k] = s.priv_recent[k + keep];
      s.priv_recent_width[k] = s.priv_recent_width[k + keep];
    }
    for (std::size_t k = 0; k < keep; ++k) {
      const std::size_t width = unit_width_before(w.enc, j);
      j -= width;
      s.priv_recent[2 - k] = w.enc_start + j;
      s.priv_recent_width[2 - k] = static_cast<unsigned char>(width);
    }
  }

 private:
  // track_double follows a %25 through the next two decoded bytes; true when
  // both are hex digits: a double encoding. end is the absolute encoded
  // offset after the unit.
  static bool track_double(state& s, std::uint8_t value, bool escaped, std::size_t end,
                           std::size_t here) noexcept {
    const unsigned char digits = s.priv_double_digits;
    s.priv_double_digits = 0;
    if (digits != 0 && is_hex(value)) {
      if (digits == 2) return true;
      s.priv_double_digits = 2;
      return false;
    }
    if (escaped && value == '%') {
      s.priv_double_digits = 1;
      s.priv_double_offset = end - 3;
      s.priv_double_decoded = here;
    }
    return false;
  }

  percent_decode_fn vector_;
  unsigned stops_;
  encoded_result event_;
};

}  // namespace
}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_PERCENT_ENGINE_HPP
