// encoded_engine.hpp - encoded input (percent-encoded, JSON text): decode in
// windows, validate the decoded bytes with the stream engine, and map what
// it finds back to encoded offsets. Written once for every form; a form
// (stream/percent_engine.hpp, stream/json_engine.hpp) says what its units
// are and which events its decoder finds.
//
// The decoded bytes go through the error_scanner's state (stream/objects.hpp),
// policy and all, so an encoded form validates exactly as the plain entry
// points do. Around it:
//   - A run without the form's escape byte is fed as it stands, with no copy;
//     escapes are decoded into a window on the stack, by the form's decoder.
//   - The scanner reports decoded offsets, at most 3 bytes before the window
//     it is reading (a sequence carried over). The window maps the others by a
//     cursor that walks its units forward (errors come in order); the stream
//     keeps the encoded offsets of the last 3 decoded bytes for the carried
//     ones (the form says how).
//   - Events (a bad escape, ...) are found by the decoder. A window ends
//     right after the unit that decides one, and the event is reported after
//     the scanner has read that window: the unit's decoded bytes end every
//     sequence before them, so every error before it has been reported by
//     then, and input order holds.
//   - A unit cut by the end of a chunk waits in the stream for the next one
//     (at most Form::kMaxHeld bytes); finish() decides it as the input's end.
//
// A Form provides:
//   state                     the C struct: priv_position, priv_decoded (the
//                             decoded bytes' scanner), priv_pending[kMaxHeld],
//                             priv_pending_len, priv_recent[3],
//                             priv_recent_width[3]
//   kEscape, kMaxHeld         the byte that starts every escape; the most
//                             bytes of a cut unit
//   kWindow                   the most encoded bytes of a window, whose
//                             decoded bytes wait on the stack for the scanner
//   Form(const state&)        one run's decoder
//   raw_runs(s)               whether a run without kEscape may be fed as it
//                             stands (no event waits on the bytes after it)
//   decode(s, p, n, i, limit, out, written, final, origin)
//                             decodes the units of p[0..n) from p[i] that start
//                             before limit into out from out[written] (room for
//                             limit - i + kSlack bytes), advancing i and written;
//                             returns early after a unit that decides an event
//                             (then event() is it, offsets absolute: p[0] is at
//                             origin), or at a unit p[n) cuts, unless final
//   event()                   the last event
//   span(enc, i, n)           the encoded width and decoded length of the unit
//                             at enc[i] of enc[0..n), a window of whole units
//   remember(s, w, dec_len)   keeps the encoded place of the last decoded bytes
//                             of window w in s.priv_recent
#ifndef UTF8GUARD_STREAM_ENCODED_ENGINE_HPP
#define UTF8GUARD_STREAM_ENCODED_ENGINE_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "stream/objects.hpp"

namespace utf8guard::detail {
namespace {

// A short input's window (decode_short), and the default of a form's
// window (Form::kWindow): at most this many decoded bytes; a buffer has the
// vector decoder's slack after it.
constexpr std::size_t kEncodedWindow = 4096;
constexpr std::size_t kEncodedSlack = 64;
// A run without an escape shorter than this is decoded with the escapes
// around it rather than fed alone: a feed per short run costs more than the
// copy.
constexpr std::size_t kEncodedMinRun = 64;

// Why a form's decode returned.
enum class decode_stop { limit, event, pending };

// no_sink is the sink of a run that only decodes.
struct no_sink {
  bool operator()(const encoded_result&) const noexcept { return true; }
};

// encoded_window is the encoded units whose decoded bytes the scanner is
// reading, and the cursor that maps decoded offsets into them.
struct encoded_window {
  const std::uint8_t* enc = nullptr;
  std::size_t len = 0;
  std::size_t enc_start = 0;
  std::size_t dec_start = 0;
  std::size_t cur_enc = 0;
  std::size_t cur_dec = 0;
};

// encoded_run is one feed() or finish() of a stream of Form. Sink:
// bool(const encoded_result&), false to stop.
template <class Form, class Sink>
class encoded_run {
  using state = typename Form::state;

 public:
  encoded_run(state& s, Sink& sink) noexcept : s_(s), sink_(sink), form_(s) {}

  // feed checks p[0..n), which follows the bytes fed before. false: the sink
  // said stop.
  bool feed(const std::uint8_t* p, std::size_t n) {
    const std::size_t base = s_.priv_position;
    s_.priv_position += n;
    std::size_t i = 0;
    if (s_.priv_pending_len != 0 && !resume_pending(p, n, base, i)) return false;
    alignas(64) std::uint8_t buf[Form::kWindow + kEncodedSlack];
    while (i < n) {
      if (form_.raw_runs(s_)) {
        const void* esc = std::memchr(p + i, Form::kEscape, n - i);
        const std::size_t j =
            esc == nullptr ? n
                           : static_cast<std::size_t>(static_cast<const std::uint8_t*>(esc) - p);
        if (j == n || j - i >= kEncodedMinRun) {
          if (!read_window(p + i, j - i, base + i, p + i, j - i)) return false;
          i = j;
          continue;
        }
      }
      const std::size_t from = i;
      std::size_t written = 0;
      const decode_stop why =
          form_.decode(s_, p, n, i, limit_from(n, i), buf, written, false, base);
      if (!read_window(p + from, i - from, base + from, buf, written) || !report(why)) return false;
      if (why == decode_stop::pending) {
        hold(p + i, n - i);
        break;
      }
    }
    return true;
  }

  // decode_all writes the decoded bytes of the whole input p[0..n) to out
  // (room for n bytes) and returns how many: a cut unit at the end is decided
  // as the input's end. For a stream whose policy denies nothing.
  std::size_t decode_all(const std::uint8_t* p, std::size_t n, char* out) {
    alignas(64) std::uint8_t buf[Form::kWindow + kEncodedSlack];
    std::size_t i = 0;
    std::size_t total = 0;
    while (i < n) {
      std::size_t written = 0;
      (void)form_.decode(s_, p, n, i, limit_from(n, i), buf, written, true, 0);
      std::memcpy(out + total, buf, written);
      total += written;
    }
    return total;
  }

  // decode_short decodes a whole input of at most kEncodedWindow bytes into
  // out (room for kEncodedWindow + kEncodedSlack) and says whether no event
  // came up: a short input's fast path, which then validates the decoded
  // bytes in one call.
  bool decode_short(const std::uint8_t* p, std::size_t n, std::uint8_t* out, std::size_t& written) {
    std::size_t i = 0;
    written = 0;
    return form_.decode(s_, p, n, i, n, out, written, true, 0) == decode_stop::limit;
  }

  // finish ends the input: a held unit is decided as the input's end, and
  // the scanner reports a sequence left open. false: the sink said stop.
  bool finish() {
    if (s_.priv_pending_len != 0) {
      std::uint8_t held[Form::kMaxHeld];
      const std::size_t len = s_.priv_pending_len;
      std::memcpy(held, s_.priv_pending, len);
      s_.priv_pending_len = 0;
      if (!decode_piece(held, len, s_.priv_position - len, len, true)) return false;
    }
    set_window(nullptr, 0, s_.priv_position);
    return scanner_finish(&s_.priv_decoded, &deliver, this);
  }

 private:
  static std::size_t limit_from(std::size_t n, std::size_t i) noexcept {
    return n - i > Form::kWindow ? i + Form::kWindow : n;
  }

  void hold(const std::uint8_t* q, std::size_t len) noexcept {
    s_.priv_pending_len = static_cast<unsigned char>(len);
    std::memcpy(s_.priv_pending, q, len);
  }

  // resume_pending completes the unit the last chunk ended in, with the
  // first bytes of this one: decodes the units that start in the held bytes.
  bool resume_pending(const std::uint8_t* p, std::size_t n, std::size_t base, std::size_t& i) {
    std::uint8_t joined[2 * Form::kMaxHeld];
    const std::size_t held = s_.priv_pending_len;
    const std::size_t take = n < Form::kMaxHeld ? n : Form::kMaxHeld;
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
  // few bytes at most, as a window of its own (events and a cut unit too).
  bool decode_piece(const std::uint8_t* q, std::size_t len, std::size_t enc_start,
                    std::size_t limit, bool final, std::size_t* used = nullptr) {
    std::size_t i = 0;
    while (i < limit) {
      std::uint8_t out[2 * Form::kMaxHeld + kEncodedSlack];
      const std::size_t from = i;
      std::size_t written = 0;
      const decode_stop why = form_.decode(s_, q, len, i, limit, out, written, final, enc_start);
      if (!read_window(q + from, i - from, enc_start + from, out, written) || !report(why)) {
        return false;
      }
      if (why == decode_stop::pending) {
        hold(q + i, len - i);
        i = len;
        break;
      }
    }
    if (used != nullptr) *used = i;
    return true;
  }

  // report hands the sink the event the decoder stopped at.
  bool report(decode_stop why) { return why != decode_stop::event || sink_(form_.event()); }

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
    form_.remember(s_, window_, dec_len);
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
    for (;;) {
      const auto u = Form::span(window_.enc, window_.cur_enc, window_.len);
      if (d < window_.cur_dec + u.decoded) return {window_.enc_start + window_.cur_enc, u.width};
      window_.cur_enc += u.width;
      window_.cur_dec += u.decoded;
    }
  }

  // deliver is the scanner's batch callback: each error, mapped, to the sink.
  static std::size_t deliver(void* ctx, const result* errors, std::size_t count) {
    auto& self = *static_cast<encoded_run*>(ctx);
    for (std::size_t k = 0; k < count; ++k) {
      const result& e = errors[k];
      encoded_result r;
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

  state& s_;
  Sink& sink_;
  Form form_;
  encoded_window window_;
};

}  // namespace
}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_ENCODED_ENGINE_HPP
