// report_json.cpp - one JSON object per input, one line (JSON Lines), keys in
// this order:
//   {"path":"a.txt","valid":false,"bytes":1234,"errors":[{"offset":17,
//    "length":1,"kind":"overlong","line":2,"column":5}]}
// "valid" and "bytes" come first but are known only at the end, so the error
// list waits in a spill_buffer.
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

  [[nodiscard]] bool needs_context() const noexcept override { return false; }

  bool error(const found_error& e) override {
    entry_.assign(first_ ? "{\"offset\":" : ",{\"offset\":");
    first_ = false;
    append_number(entry_, e.offset);
    entry_.append(",\"length\":");
    append_number(entry_, e.length);
    entry_.append(",\"kind\":\"");
    entry_.append(to_string(e.kind));
    entry_.append("\",\"line\":");
    append_number(entry_, e.line);
    entry_.append(",\"column\":");
    append_number(entry_, e.column);
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
};

}  // namespace

std::unique_ptr<reporter> make_json_reporter(const std::string& path, channel& out) {
  return std::make_unique<json_reporter>(path, out);
}

}  // namespace utf8guard::cli
