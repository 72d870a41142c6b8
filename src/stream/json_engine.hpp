// json_engine.hpp - JSON text (docs/design.md, "JSON text") as a form of the
// encoded engine (stream/encoded_engine.hpp): its units (core/json.hpp), its
// decoder and its events. Included by stream/encoded_objects.hpp only.
//
//   - Raw bytes, the \uXXXX of characters that are no surrogate, and pairs
//     are decoded by the vector decoder of the active kernel where it applies
//     (generic/json_decode.hpp). Elsewhere raw bytes between backslashes are
//     copied into the window a word at a time, and an escape is decoded by
//     the scalar code of core/json.hpp (json_unit_at: the common \uXXXX
//     inline) and written as the UTF-8 of its character.
//   - An escape decodes to a whole character, whose first byte is never a
//     continuation byte: it ends every raw sequence before it, and none
//     continues after it. So the scanner holds only raw bytes across windows.
//   - A lone surrogate is the decoder's event, under every policy (kind
//     surrogate, length 6). The scanner reads a stand-in of the same decoded
//     length (U+4E00, in no category) so that decoded offsets stay those of
//     the decoded stream, in which the lone surrogate is the 3 bytes of its
//     generalized UTF-8.
//   - A bad escape is the literal backslash, an event when the policy denies
//     bad_escape.
//   - A unit cut by the end of a chunk waits in the stream for the next one
//     (at most 11 bytes: a high surrogate escape and all but the last byte of
//     the low one); finish() decides it as the input's end.
//   - Walking back over units is ambiguous (\\), so the decoder notes the
//     last escape of the window, after which every byte is raw.
#ifndef UTF8GUARD_STREAM_JSON_ENGINE_HPP
#define UTF8GUARD_STREAM_JSON_ENGINE_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/json.hpp"
#include "kernels/dispatch.hpp"
#include "stream/encoded_engine.hpp"

namespace utf8guard::detail {
namespace {

// The scanner's stand-in for a lone surrogate's decoded bytes.
constexpr std::uint8_t kSurrogateStandIn[3] = {0xE4, 0xB8, 0x80};

class json_form {
 public:
  using state = utf8guard_json_stream;
  static constexpr std::uint8_t kEscape = '\\';
  static constexpr std::size_t kMaxHeld = kJsonMaxHeld;
  static constexpr std::size_t kWindow = kEncodedWindow;

  explicit json_form(const state& s) noexcept
      : vector_(vector_json_decoder()),
        deny_bad_((s.priv_policy & UTF8GUARD_CATEGORY_BAD_ESCAPE) != 0) {}

  static bool raw_runs(const state&) noexcept { return true; }

  decode_stop decode(state& s, const std::uint8_t* p, std::size_t n, std::size_t& i_ref,
                     std::size_t limit, std::uint8_t* out, std::size_t& written_ref, bool final,
                     std::size_t origin) {
    // Locals, not the references: out's stores may alias them.
    std::size_t i = i_ref;
    std::size_t written = written_ref;
    const std::size_t dec_base = s.priv_decoded.priv_position;  // out[0]
    decode_stop why = decode_stop::limit;
    // Where the vector decoder read little (a run of the units it leaves to
    // this loop: short escapes, lone surrogates), it waits a block's worth
    // of bytes.
    std::size_t scalar_until = 0;
    while (i < limit) {
      if (vector_ != nullptr && i >= scalar_until && n - i >= kJsonVectorReach) {
        const json_decode_progress d = vector_(p + i, n - i, limit - i, out + written);
        if (d.last_escape != kNoEscape) {
          last_start_ = origin + i + d.last_escape;
          last_width_ = d.last_width;
        }
        if (d.read < 16) scalar_until = i + kEncodedSlack;
        i += d.read;
        written += d.written;
        if (i >= limit) break;
      }
      if (p[i] != '\\') {  // escapes often follow each other
        copy_raw(p, i, limit, out, written);
        if (i >= limit) break;
      }
      const json_unit u = json_unit_at(p + i, n - i, final);
      if (u.kind == json_unit_kind::cut) {
        why = decode_stop::pending;
        break;
      }
      const std::size_t here = dec_base + written;
      if (u.kind == json_unit_kind::bad) {
        out[written++] = '\\';
        i += 1;
        if (deny_bad_) {
          set_event(error::disallowed, category::bad_escape, '\\', origin + i - 1, 1, here, 1);
          why = decode_stop::event;
          break;
        }
        continue;
      }
      last_start_ = origin + i;
      last_width_ = u.width;
      i += u.width;
      if (u.kind == json_unit_kind::lone) {
        std::memcpy(out + written, kSurrogateStandIn, 3);
        written += 3;
        set_event(error::surrogate, category::none, 0, last_start_, 6, here, 3);
        why = decode_stop::event;
        break;
      }
      written += json_utf8(u.value, out + written);
    }
    i_ref = i;
    written_ref = written;
    return why;
  }

  encoded_result event() const noexcept { return event_; }

  static json_span span(const std::uint8_t* enc, std::size_t i, std::size_t n) noexcept {
    return json_span_at(enc, i, n);
  }

  // remember keeps the encoded offset and length of the window's last
  // decoded bytes (up to 3): those after its last escape are raw bytes; the
  // ones before are the escape's (a stream never carries them, as an escape
  // ends every sequence: only the raw ones are ever read).
  void remember(state& s, const encoded_window& w, std::size_t dec_len) const noexcept {
    const std::size_t keep = dec_len < 3 ? dec_len : 3;
    for (std::size_t k = 0; k < 3 - keep; ++k) {  // older ones move down
      s.priv_recent[k] = s.priv_recent[k + keep];
      s.priv_recent_width[k] = s.priv_recent_width[k + keep];
    }
    const std::size_t end = w.enc_start + w.len;
    const bool escaped = last_width_ != 0 && last_start_ >= w.enc_start && last_start_ < end;
    const std::size_t raw_from = escaped ? last_start_ + last_width_ : w.enc_start;
    for (std::size_t k = 0; k < keep; ++k) {
      const bool raw = end - k - 1 >= raw_from && end - k > raw_from;
      s.priv_recent[2 - k] = raw ? end - k - 1 : last_start_;
      s.priv_recent_width[2 - k] = static_cast<unsigned char>(raw ? 1 : last_width_);
    }
  }

 private:
  // copy_raw copies the raw bytes from p[i] to the next backslash or limit
  // into out: 8 at a time while 8 are left before limit (the window's
  // slack takes the store of a word that holds the backslash), then one by
  // one; memchr past a longer run.
  __attribute__((always_inline)) static void copy_raw(const std::uint8_t* p, std::size_t& i,
                                                      std::size_t limit, std::uint8_t* out,
                                                      std::size_t& written) noexcept {
    constexpr std::uint64_t kOnes = 0x0101010101010101u;
    constexpr std::uint64_t kHighs = 0x8080808080808080u;
    constexpr std::uint64_t kBackslashes = kOnes * '\\';
    for (int words = 0; i + 8 <= limit; ++words) {
      if (words == 4) {  // a long run: memchr finds its end faster
        const void* bs = std::memchr(p + i, '\\', limit - i);
        const std::size_t j =
            bs == nullptr ? limit
                          : static_cast<std::size_t>(static_cast<const std::uint8_t*>(bs) - p);
        std::memcpy(out + written, p + i, j - i);
        written += j - i;
        i = j;
        return;
      }
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      std::memcpy(out + written, &w, 8);
      const std::uint64_t x = w ^ kBackslashes;
      const std::uint64_t found = (x - kOnes) & ~x & kHighs;  // exact for the first zero byte
      if (found != 0) {
        const std::size_t k = static_cast<std::size_t>(__builtin_ctzll(found)) / 8;
        i += k;
        written += k;
        return;
      }
      i += 8;
      written += 8;
    }
    while (i < limit && p[i] != '\\') out[written++] = p[i++];
  }

  void set_event(error kind, category cat, char32_t cp, std::size_t offset, std::size_t length,
                 std::size_t decoded_offset, std::size_t decoded_length) noexcept {
    event_ = encoded_result{};
    event_.kind = kind;
    event_.category = cat;
    event_.code_point = cp;
    event_.offset = offset;
    event_.length = length;
    event_.decoded_offset = decoded_offset;
    event_.decoded_length = decoded_length;
  }

  json_decode_fn vector_;
  bool deny_bad_;
  std::size_t last_start_ = 0;  // the last escape decoded: absolute offset, width
  std::size_t last_width_ = 0;
  encoded_result event_;
};

}  // namespace
}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_JSON_ENGINE_HPP
