// websocket_text.cpp - the UTF-8 check of a WebSocket server (RFC 6455).
//
// A text message (opcode 0x1) may arrive as several frames, the last one with
// FIN set (section 5.4). Its payload must be UTF-8: an endpoint that finds it
// is not "MUST _Fail the WebSocket Connection_" (8.1), with close code 1007
// (7.4.1). Checking each frame as it arrives fails at the first impossible
// byte, before the rest of the message is read or buffered (what the Autobahn
// suite's "fail fast" cases 6.x test). utf8guard::validator carries at most 3
// bytes between frames and reports "incomplete" only from finish(), which is
// called for the FIN frame: a character split across frames is no error.
#include <utf8guard/utf8guard.hpp>

#include <cstdio>
#include <string_view>
#include <vector>

namespace {

struct frame {
  bool fin;
  std::string_view payload;
};

constexpr int kInvalidFramePayloadData = 1007;  // RFC 6455, 7.4.1

// outcome of one message: the frame (1-based) that failed the connection,
// 0 if the message was accepted, and the error that failed it.
struct outcome {
  std::size_t frame = 0;
  utf8guard::result error;
};

// receive plays one text message on a fresh connection, frame by frame.
outcome receive(const char* name, const std::vector<frame>& frames) {
  utf8guard::validator v;  // one per connection; reset() after a FIN to reuse it
  for (std::size_t i = 0; i < frames.size(); ++i) {
    utf8guard::result r = v.feed(frames[i].payload);
    if (r.ok() && frames[i].fin) r = v.finish();
    if (!r.ok()) {
      const std::string_view kind = utf8guard::to_string(r.kind);
      std::printf("%s: frame %zu/%zu: close %d: %.*s at byte %zu of the message\n", name, i + 1,
                  frames.size(), kInvalidFramePayloadData, static_cast<int>(kind.size()),
                  kind.data(), r.offset);
      return {i + 1, r};
    }
  }
  std::printf("%s: %zu frames, message accepted\n", name, frames.size());
  return {};
}

}  // namespace

int main() {
  using namespace std::string_view_literals;
  using utf8guard::error;
  // "Grüße 😀", split inside ü (C3|BC) and inside the emoji (F0 9F|98 80).
  const std::vector<frame> split = {{false, "Gr\xC3"sv},
                                    {false, "\xBC\xC3\x9F"sv},
                                    {false, "e \xF0\x9F"sv},
                                    {true, "\x98\x80"sv}};
  // Frame 1 ends in ED, a lead that may still begin U+D000..U+D7FF; the A0 of
  // frame 2 makes it a UTF-16 surrogate (CESU-8). Frame 3 is never read.
  const std::vector<frame> cesu = {
      {false, "key=\xED"sv}, {false, "\xA0\x80 rest"sv}, {true, "tail"sv}};
  // Ends inside the euro sign (E2 82 AC): fine after frame 1, incomplete at FIN.
  const std::vector<frame> cut = {{false, "price: 5\xE2"sv}, {true, "\x82"sv}};

  const outcome a = receive("split", split);
  const outcome b = receive("cesu-8", cesu);
  const outcome c = receive("cut", cut);
  const bool ok = a.frame == 0 && b.frame == 2 &&
                  b.error == utf8guard::result{error::surrogate, 4, 1} && c.frame == 2 &&
                  c.error == utf8guard::result{error::incomplete, 8, 2};
  std::puts(ok ? "websocket_text: ok" : "websocket_text: FAILED");
  return ok ? 0 : 1;
}
