// percent_engine.hpp - percent-encoded input (docs/design.md 2.3): decode in
// windows, validate the decoded bytes with the stream engine, and map what it
// finds back to encoded offsets. Included by stream/percent_objects.hpp only.
//
// The decoded bytes go through the error_scanner's state (stream/objects.hpp),
// policy and all, so percent mode validates exactly as the plain entry points
// do. Around it:
//   - A run without '%' is fed as it stands, with no copy; escapes are decoded
//     into a window on the stack, by the vector decoder of the active kernel
//     where it applies and by the scalar loop below everywhere else.
//   - The scanner reports decoded offsets, at most 3 bytes before the window
//     it is reading (a sequence carried over). The window maps the others by a
//     cursor that walks its units forward (errors come in order); the stream
//     keeps the encoded offsets of the last 3 decoded bytes for the carried
//     ones.
//   - bad_escape and double_encoding are found by the decoder. A window ends
//     right after the unit that decides one, and the event is reported after
//     the scanner has read that window: the '%' or the hex digit is ASCII, so
//     every error before it has been reported by then, and input order holds.
//   - An escape cut by the end of a chunk (at most "%X") waits in the stream
//     for the next one; finish() makes it a bad escape.
#ifndef UTF8GUARD_STREAM_PERCENT_ENGINE_HPP
#define UTF8GUARD_STREAM_PERCENT_ENGINE_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/percent.hpp"
#include "kernels/dispatch.hpp"
#include "stream/objects.hpp"

namespace utf8guard::detail {
namespace {

// A window is at most this many decoded bytes; the buffer has the vector
// decoder's slack after it.
constexpr std::size_t kPercentWindow = 4096;
constexpr std::size_t kPercentSlack = 64;
// A run without '%' shorter than this is decoded with the escapes around it
// rather than fed alone: a feed per short run costs more than the copy.
constexpr std::size_t kPercentMinRun = 64;

constexpr utf8guard_policy kBadEscapeBit = UTF8GUARD_CATEGORY_BAD_ESCAPE;
constexpr utf8guard_policy kDoubleBit = UTF8GUARD_CATEGORY_DOUBLE_ENCODING;

// Why decode_units returned.
enum class decode_stop { limit, bad_escape, double_encoding, pending };

// no_sink is the sink of a run that only decodes.
struct no_sink {
  bool operator()(const percent_result&) const noexcept { return true; }
};

// percent_run is one feed() or finish() of a utf8guard_percent_stream. Sink:
// bool(const percent_result&), false to stop.
template <class Sink>
class percent_run {
 public:
  percent_run(utf8guard_percent_stream& s, Sink& sink) noexcept
      : s_(s),
        sink_(sink),
        vector_(vector_percent_decoder()),
        stops_((s.priv_policy & kBadEscapeBit ? kStopBadEscape : 0u) |
               (s.priv_policy & kDoubleBit ? kStopPercent25 : 0u)) {}

  // feed checks p[0..n), which follows the bytes fed before. false: the sink
  // said stop.
  bool feed(const std::uint8_t* p, std::size_t n) {
    const std::size_t base = s_.priv_position;
    s_.priv_position += n;
    std::size_t i = 0;
    if (s_.priv_pending_len != 0 && !resume_pending(p, n, base, i)) return false;
    origin_ = base;
    alignas(64) std::uint8_t buf[kPercentWindow + kPercentSlack];
    while (i < n) {
      if (s_.priv_double_digits == 0) {
        const void* pct = std::memchr(p + i, '%', n - i);
        const std::size_t j =
            pct == nullptr ? n
                           : static_cast<std::size_t>(static_cast<const std::uint8_t*>(pct) - p);
        if (j == n || j - i >= kPercentMinRun) {
          if (!read_window(p + i, j - i, base + i, p + i, j - i)) return false;
          i = j;
          continue;
        }
      }
      const std::size_t from = i;
      std::size_t written = 0;
      const decode_stop why = decode_units(p, n, i, limit_from(n, i), buf, written, false);
      if (!read_window(p + from, i - from, base + from, buf, written) || !report(why)) return false;
      if (why == decode_stop::pending) {
        s_.priv_pending_len = static_cast<unsigned char>(n - i);
        std::memcpy(s_.priv_pending, p + i, n - i);
        break;
      }
    }
    return true;
  }

  // decode_all writes the decoded bytes of the whole input p[0..n) to out
  // (room for n bytes) and returns how many: a cut escape at the end is a
  // bad one. For a stream whose policy denies nothing: no events.
  std::size_t decode_all(const std::uint8_t* p, std::size_t n, char* out) {
    alignas(64) std::uint8_t buf[kPercentWindow + kPercentSlack];
    std::size_t i = 0;
    std::size_t total = 0;
    while (i < n) {
      std::size_t written = 0;
      (void)decode_units(p, n, i, limit_from(n, i), buf, written, true);
      std::memcpy(out + total, buf, written);
      total += written;
    }
    return total;
  }

  // decode_short decodes a whole input of at most kPercentWindow bytes into
  // out (room for kPercentWindow + kPercentSlack) and says whether no event
  // the policy denies came up: a short input's fast path, which then
  // validates the decoded bytes in one call.
  bool decode_short(const std::uint8_t* p, std::size_t n, std::uint8_t* out, std::size_t& written) {
    std::size_t i = 0;
    written = 0;
    return decode_units(p, n, i, n, out, written, true) == decode_stop::limit;
  }

  // finish ends the input: a pending escape is a bad one, and the scanner
  // reports a sequence left open. false: the sink said stop.
  bool finish() {
    if (s_.priv_pending_len != 0) {
      const std::uint8_t held[2] = {s_.priv_pending[0], s_.priv_pending[1]};
      const std::size_t len = s_.priv_pending_len;
      s_.priv_pending_len = 0;
      if (!decode_piece(held, len, s_.priv_position - len, len, true)) return false;
    }
    set_window(nullptr, 0, s_.priv_position);
    return scanner_finish(&s_.priv_decoded, &deliver, this);
  }

 private:
  static std::size_t limit_from(std::size_t n, std::size_t i) noexcept {
    return n - i > kPercentWindow ? i + kPercentWindow : n;
  }

  // resume_pending completes the escape the last chunk ended in, with the
  // first bytes of this one: decodes the units that start in the held bytes.
  bool resume_pending(const std::uint8_t* p, std::size_t n, std::size_t base, std::size_t& i) {
    std::uint8_t joined[4];
    const std::size_t held = s_.priv_pending_len;
    const std::size_t take = n < 2 ? n : 2;
    std::memcpy(joined, s_.priv_pending, held);
    std::memcpy(joined + held, p, take);
    s_.priv_pending_len = 0;
    std::size_t used = 0;
    if (!decode_piece(joined, held + take, base - held, held, false, &used)) return false;
    if (s_.priv_pending_len != 0) {  // still cut: everything is held again
      i = n;
      return true;
    }
    i = used - held;
    return true;
  }

  // decode_piece decodes the units of q[0..len) that start before limit, a
  // few bytes at most, as a window of its own (events and a cut escape too).
  bool decode_piece(const std::uint8_t* q, std::size_t len, std::size_t enc_start,
                    std::size_t limit, bool final, std::size_t* used = nullptr) {
    std::size_t i = 0;
    origin_ = enc_start;
    while (i < limit) {
      std::uint8_t out[4 + kPercentSlack];
      const std::size_t from = i;
      std::size_t written = 0;
      const decode_stop why = decode_units(q, len, i, limit, out, written, final);
      if (!read_window(q + from, i - from, enc_start + from, out, written) || !report(why)) {
        return false;
      }
      if (why == decode_stop::pending) {
        s_.priv_pending_len = static_cast<unsigned char>(len - i);
        std::memcpy(s_.priv_pending, q + i, len - i);
        i = len;
        break;
      }
    }
    if (used != nullptr) *used = i;
    return true;
  }

  // decode_units decodes the units of p[0..n) from p[i] that start before
  // limit into out (from out[written]), advancing i and written. It returns
  // early after a unit that decides an event the policy denies, or at a '%'
  // too close to n to be decided (pending) unless final.
  decode_stop decode_units(const std::uint8_t* p, std::size_t n, std::size_t& i, std::size_t limit,
                           std::uint8_t* out, std::size_t& written, bool final) {
    const std::size_t dec_base = s_.priv_decoded.priv_position;  // out[0]
    while (i < limit) {
      if (vector_ != nullptr && s_.priv_double_digits == 0) {
        const decode_progress d = vector_(p + i, n - i, limit - i, out + written, stops_);
        i += d.read;
        written += d.written;
        if (i >= limit) break;
      }
      // One vector block's worth (or the tail) the scalar way.
      const std::size_t stop = limit - i > kPercentSlack ? i + kPercentSlack : limit;
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
        if ((stops_ & kStopPercent25) != 0 && track_double(value, escaped, i, here)) {
          return decode_stop::double_encoding;
        }
        if (b == '%' && !escaped && (stops_ & kStopBadEscape) != 0) {
          event_offset_ = i - 1;
          event_decoded_ = here;
          return decode_stop::bad_escape;
        }
      }
    }
    return decode_stop::limit;
  }

  // track_double follows a %25 through the next two decoded bytes; true when
  // both are hex digits: a double encoding.
  bool track_double(std::uint8_t value, bool escaped, std::size_t end, std::size_t here) noexcept {
    const unsigned char digits = s_.priv_double_digits;
    s_.priv_double_digits = 0;
    if (digits != 0 && is_hex(value)) {
      if (digits == 2) return true;
      s_.priv_double_digits = 2;
      return false;
    }
    if (escaped && value == '%') {
      s_.priv_double_digits = 1;
      s_.priv_double_offset = origin_ + end - 3;
      s_.priv_double_decoded = here;
    }
    return false;
  }

  // report hands the sink an event the decoder stopped at.
  bool report(decode_stop why) {
    if (why != decode_stop::bad_escape && why != decode_stop::double_encoding) return true;
    percent_result r;
    r.kind = error::disallowed;
    r.code_point = '%';
    r.decoded_length = 1;
    if (why == decode_stop::bad_escape) {
      r.category = category::bad_escape;
      r.offset = origin_ + event_offset_;
      r.length = 1;
      r.decoded_offset = event_decoded_;
    } else {
      r.category = category::double_encoding;
      r.offset = s_.priv_double_offset;
      r.length = 3;
      r.decoded_offset = s_.priv_double_decoded;
    }
    return sink_(r);
  }

  // read_window feeds the decoded bytes of the encoded units enc[0..len)
  // (absolute offset enc_start) to the scanner, then keeps the encoded
  // offsets of the last decoded bytes for errors reported late.
  bool read_window(const std::uint8_t* enc, std::size_t len, std::size_t enc_start,
                   const std::uint8_t* dec, std::size_t dec_len) {
    set_window(enc, len, enc_start);
    if (dec_len != 0) {
      const std::string_view view(reinterpret_cast<const char*>(dec), dec_len);
      if (!scanner_feed(&s_.priv_decoded, view, &deliver, this)) return false;
    }
    remember_last(dec_len);
    return true;
  }

  void set_window(const std::uint8_t* enc, std::size_t len, std::size_t enc_start) noexcept {
    window_.enc = enc;
    window_.len = len;
    window_.enc_start = enc_start;
    window_.dec_start = s_.priv_decoded.priv_position;
    window_.cur_enc = 0;
    window_.cur_dec = window_.dec_start;
  }

  // remember_last keeps the encoded offset and length of the window's last
  // decoded bytes (up to 3), walking its units backwards.
  void remember_last(std::size_t dec_len) noexcept {
    std::size_t j = window_.len;
    const std::size_t keep = dec_len < 3 ? dec_len : 3;
    for (std::size_t k = 0; k < 3 - keep; ++k) {  // older ones move down
      s_.priv_recent[k] = s_.priv_recent[k + keep];
      s_.priv_recent_width[k] = s_.priv_recent_width[k + keep];
    }
    for (std::size_t k = 0; k < keep; ++k) {
      const std::size_t w = unit_width_before(window_.enc, j);
      j -= w;
      s_.priv_recent[2 - k] = window_.enc_start + j;
      s_.priv_recent_width[2 - k] = static_cast<unsigned char>(w);
    }
  }

  struct unit_place {
    std::size_t offset;
    std::size_t width;
  };

  // place is where the decoded byte at absolute offset d came from.
  unit_place place(std::size_t d) noexcept {
    if (d < window_.dec_start) {
      const std::size_t k = d + 3 - window_.dec_start;
      return {s_.priv_recent[k], s_.priv_recent_width[k]};
    }
    while (window_.cur_dec < d) {
      window_.cur_enc += unit_width(window_.enc, window_.cur_enc, window_.len);
      ++window_.cur_dec;
    }
    return {window_.enc_start + window_.cur_enc,
            unit_width(window_.enc, window_.cur_enc, window_.len)};
  }

  // deliver is the scanner's batch callback: each error, mapped, to the sink.
  static std::size_t deliver(void* ctx, const result* errors, std::size_t count) {
    auto& self = *static_cast<percent_run*>(ctx);
    for (std::size_t k = 0; k < count; ++k) {
      const result& e = errors[k];
      percent_result r;
      static_cast<result&>(r) = e;
      r.decoded_offset = e.offset;
      r.decoded_length = e.length;
      if (e.length != 0) {
        const unit_place first = self.place(e.offset);
        const unit_place last = self.place(e.offset + e.length - 1);
        r.offset = first.offset;
        r.length = last.offset + last.width - first.offset;
      } else {
        r.offset = self.window_.enc_start;
      }
      if (!self.sink_(r)) return k;
    }
    return count;
  }

  struct window {
    const std::uint8_t* enc = nullptr;
    std::size_t len = 0;
    std::size_t enc_start = 0;
    std::size_t dec_start = 0;
    std::size_t cur_enc = 0;
    std::size_t cur_dec = 0;
  };

  utf8guard_percent_stream& s_;
  Sink& sink_;
  percent_decode_fn vector_;
  unsigned stops_;
  window window_;
  std::size_t origin_ = 0;  // absolute encoded offset of the decoder's p[0]
  std::size_t event_offset_ = 0;
  std::size_t event_decoded_ = 0;
};

}  // namespace
}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_PERCENT_ENGINE_HPP
