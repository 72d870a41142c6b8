// report.hpp - what check says about one input: the errors it finds, in order,
// then the verdict. Text and JSON differ only in how they print it.
#ifndef UTF8GUARD_CLI_REPORT_HPP
#define UTF8GUARD_CLI_REPORT_HPP

#include <cstdint>
#include <memory>
#include <string>

#include <utf8guard/utf8guard.hpp>

#include "channel.hpp"

namespace utf8guard::cli {

// kContextBytes: the checked bytes a report shows from an error's offset.
// kHintAhead and kHintBehind: the checked bytes around it that a hint may
// read (explain()). kUnitMax: the input bytes that carry one checked byte at
// most (an escape %XX with --percent).
inline constexpr unsigned kContextBytes = 4;
inline constexpr unsigned kHintAhead = UTF8GUARD_DESCRIBE_AHEAD;
inline constexpr unsigned kHintBehind = UTF8GUARD_DESCRIBE_BEHIND;
inline constexpr unsigned kUnitMax = 3;
static_assert(kHintAhead * kUnitMax == UTF8GUARD_DESCRIBE_PERCENT_AHEAD &&
              kHintBehind * kUnitMax == UTF8GUARD_DESCRIBE_PERCENT_BEHIND);

// found_error is one maximal subpart, or one denied character (kind
// disallowed, with its category and code point), with its position. window
// holds the input bytes kept around it (the encoded ones with --percent):
// window_at of them before offset, then the subpart and what follows, as many
// as the report shows (its checked bytes: 4, or 6 when hints are asked for,
// fewer only at the end of the input). The library's describe and explain
// read them: one formatter for the CLI and every other caller.
struct found_error {
  error kind = error::none;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  utf8guard::category category = utf8guard::category::none;
  char32_t code_point = 0;
  unsigned char window[(kHintBehind + kHintAhead) * kUnitMax] = {};
  unsigned window_len = 0;
  unsigned window_at = 0;
  bool percent = false;
  bool want_hint = false;
  // the_hint is explain() over the window: exact, because a hint reads no
  // further than it reaches.
  [[nodiscard]] hint the_hint() const noexcept;
  // describe appends the text after "PATH:LINE:COLUMN: " to out.
  void describe(std::string& out) const;
};

// append_code_point appends "U+" and 4 to 6 uppercase hex digits (as many
// as the value needs, at least 4).
void append_code_point(std::string& out, char32_t value);

class reporter {
 public:
  virtual ~reporter() = default;
  // needs_context says whether error() wants found_error::context filled in
  // (which may mean waiting for the next chunk).
  [[nodiscard]] virtual bool needs_context() const noexcept = 0;
  // error reports the next error. false: stop reading this input.
  virtual bool error(const found_error& e) = 0;
  // finish ends a completely read input. false: stop.
  virtual bool finish(bool valid, std::uint64_t bytes) = 0;
};

// text_reporter prints "PATH:LINE:COLUMN: KIND at byte OFFSET (HEX BYTES)".
std::unique_ptr<reporter> make_text_reporter(const std::string& path, channel& out);

// json_reporter prints one JSON object for the input, on one line, at finish.
// Its error list is kept in memory up to a bound and then in a temporary file,
// so millions of errors do not grow the process.
std::unique_ptr<reporter> make_json_reporter(const std::string& path, channel& out, bool hints);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_REPORT_HPP
