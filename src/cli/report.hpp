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

// kContextBytes: the bytes shown from an error's offset. kHintAhead and
// kHintBehind: the bytes around it that a hint may read (explain()).
inline constexpr unsigned kContextBytes = 4;
inline constexpr unsigned kHintAhead = 6;
inline constexpr unsigned kHintBehind = 3;

// found_error is one maximal subpart, or one denied character (kind
// disallowed, with its category and code point), with its position. context
// holds the input's bytes from offset: the subpart and what follows, 4 bytes
// in all, or 6 when hints are asked for (fewer only at the end of the input);
// before holds up to 3 bytes before offset, for hints.
struct found_error {
  error kind = error::none;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  utf8guard::category category = utf8guard::category::none;
  char32_t code_point = 0;
  unsigned char context[kHintAhead] = {};
  unsigned context_len = 0;
  unsigned char before[kHintBehind] = {};
  unsigned before_len = 0;
  std::uint64_t input_offset = 0;  // offset from the start of the whole input, for hints
  bool want_hint = false;
  [[nodiscard]] unsigned shown() const noexcept {
    return context_len < kContextBytes ? context_len : kContextBytes;
  }
  // the_hint is explain() over the bytes kept around the error: exact,
  // because a hint reads no further than they reach.
  [[nodiscard]] hint the_hint() const noexcept;
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
