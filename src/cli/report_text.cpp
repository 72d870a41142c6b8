// report_text.cpp - one line per error:
//   PATH:LINE:COLUMN: KIND at byte OFFSET (HEX BYTES)
//   PATH:LINE:COLUMN: disallowed CATEGORY U+XXXX at byte OFFSET (HEX BYTES)
// and with --hints, after an ill-formed subpart's line: " [HINT U+XXXX]" or
// " [HINT]" when it has one.
// PATH is the argument exactly as given (its bytes, whatever they are). An
// input that cannot be read shows only in its message on standard error.
#include "format.hpp"
#include "report.hpp"

namespace utf8guard::cli {
namespace {

class text_reporter final : public reporter {
 public:
  text_reporter(const std::string& path, channel& out) : prefix_(path + ":"), out_(out) {}

  [[nodiscard]] bool needs_context() const noexcept override { return true; }

  bool error(const found_error& e) override {
    line_.assign(prefix_);
    append_number(line_, e.line);
    line_.push_back(':');
    append_number(line_, e.column);
    line_.append(": ");
    e.describe(line_);
    line_.push_back('\n');
    return out_.out(line_);
  }

  bool finish(bool, std::uint64_t) override { return !out_.failed(); }

  // The message on standard error is all the text format says.
  bool unreadable(const std::string&) override { return !out_.failed(); }

 private:
  std::string prefix_;
  std::string line_;  // reused: no allocation per error
  channel& out_;
};

}  // namespace

std::unique_ptr<reporter> make_text_reporter(const std::string& path, channel& out) {
  return std::make_unique<text_reporter>(path, out);
}

}  // namespace utf8guard::cli
