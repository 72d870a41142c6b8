// report_json.cpp - one JSON object per input, one line (JSON Lines), keys in
// this order:
//   {"path":"a.txt","valid":false,"bytes":1234,"errors":[{"offset":17,
//    "length":1,"kind":"overlong","line":2,"column":5}]}
// A denied character has "category" and "code_point" after its kind:
//   {"offset":3,"length":3,"kind":"disallowed","category":"bidi",
//    "code_point":"U+202E","line":1,"column":4}
// and with --hints an ill-formed subpart that has a hint ends with
//   ..."column":5,"hint":"overlong_form","hint_value":"U+002F"}
// ("hint_value" only when the hint has a value).
// "valid" and "bytes" come first but are known only at the end, so the error
// list waits in a spill_buffer. An input that could not be read is
//   {"path":"a.txt","error":"No such file or directory"}
#include <cstring>

#include "format.hpp"
#include "json.hpp"
#include "report.hpp"
#include "spill.hpp"

namespace utf8guard::cli {
namespace {

// The error list stays in memory up to this size, then goes to a file: small,
// because every -j worker holds one.
constexpr std::size_t kMemoryBound = 256 * 1024;

class json_reporter final : public reporter {
 public:
  json_reporter(const std::string& path, channel& out)
      : path_(path), quoted_path_(json_quote(path)), out_(out), errors_(kMemoryBound) {}

  explicit json_reporter(const std::string& path, channel& out, bool hints)
      : json_reporter(path, out) {
    hints_ = hints;
  }

  // Only hints need the bytes around an error.
  [[nodiscard]] bool needs_context() const noexcept override { return hints_; }

  bool error(const found_error& e) override {
    entry_.assign(first_ ? "{\"offset\":" : ",{\"offset\":");
    first_ = false;
    append_number(entry_, e.offset);
    entry_.append(",\"length\":");
    append_number(entry_, e.length);
    entry_.append(",\"kind\":\"");
    entry_.append(to_string(e.kind));
    if (e.kind == error::disallowed) {
      entry_.append("\",\"category\":\"");
      entry_.append(to_string(e.category));
      entry_.append("\",\"code_point\":\"");
      append_code_point(entry_, e.code_point);
    }
    entry_.append("\",\"line\":");
    append_number(entry_, e.line);
    entry_.append(",\"column\":");
    append_number(entry_, e.column);
    if (e.want_hint && e.kind != error::disallowed) {
      const hint h = e.the_hint();
      if (h.kind != hint_kind::none) append_hint_members(entry_, h, "hint_value");
    }
    entry_.push_back('}');
    if (errors_.append(entry_)) return true;
    report_spill_failure();
    return false;
  }

  bool finish(bool valid, std::uint64_t bytes) override {
    std::string head = "{\"path\":";
    head.append(quoted_path_);
    head.append(valid ? ",\"valid\":true,\"bytes\":" : ",\"valid\":false,\"bytes\":");
    append_number(head, bytes);
    head.append(",\"errors\":[");
    if (!out_.out(head)) return false;
    if (!errors_.drain([this](std::string_view piece) { return out_.out(piece); })) {
      if (!out_.failed()) report_spill_failure();
      return false;
    }
    return out_.out("]}\n");
  }

  bool unreadable(const std::string& why) override {
    std::string line = "{\"path\":";
    line.append(quoted_path_);
    line.append(",\"error\":");
    line.append(json_quote(why));
    line.append("}\n");
    return out_.out(line);
  }

 private:
  void report_spill_failure() {
    std::string text = path_;
    text.append(": cannot keep the JSON error list in a temporary file: ");
    text.append(std::strerror(errors_.error()));
    out_.err(message(text));
  }

  std::string path_;
  std::string quoted_path_;
  channel& out_;
  spill_buffer errors_;
  std::string entry_;
  bool first_ = true;
  bool hints_ = false;
};

}  // namespace

std::unique_ptr<reporter> make_json_reporter(const std::string& path, channel& out, bool hints) {
  return std::make_unique<json_reporter>(path, out, hints);
}
}  // namespace utf8guard::cli
