// report_gitlab.cpp - a GitLab Code Quality report (the Code Climate issue
// format GitLab reads from artifacts:reports:codequality): one JSON array,
// one object per finding:
//   {"description":"overlong at byte 3 (C0 AF 2E 2E)","check_name":"overlong",
//    "fingerprint":"...","severity":"major",
//    "location":{"path":"a.txt","lines":{"begin":1}}}
// An input that cannot be read is a finding of check "unreadable" at line 1.
#include "format.hpp"
#include "report.hpp"
#include "safe_text.hpp"

namespace utf8guard::cli {
namespace {

class gitlab_reporter final : public reporter {
 public:
  gitlab_reporter(const std::string& path, channel& out)
      : path_(json_quote_ci(path)), fingerprints_(path), out_(out) {}

  [[nodiscard]] bool needs_context() const noexcept override { return true; }

  bool error(const found_error& e) override {
    std::string text;
    e.describe(text);
    return put(&e, text, e.line);
  }

  bool finish(bool, std::uint64_t) override { return !out_.failed(); }

  bool unreadable(const std::string& why) override { return put(nullptr, "unreadable: " + why, 1); }

 private:
  bool put(const found_error* e, const std::string& text, std::uint64_t line) {
    entry_.assign(",{\"description\":");
    entry_.append(json_quote_ci(text));
    entry_.append(",\"check_name\":\"");
    entry_.append(rule(rule_index(e)).id);
    entry_.append("\",\"fingerprint\":\"");
    entry_.append(fingerprints_.next(e));
    entry_.append("\",\"severity\":\"major\",\"location\":{\"path\":");
    entry_.append(path_);
    entry_.append(",\"lines\":{\"begin\":");
    append_number(entry_, line);
    entry_.append("}}}\n");
    return out_.out(entry_);
  }

  std::string path_;
  fingerprint_source fingerprints_;
  channel& out_;
  std::string entry_;
};

}  // namespace

std::unique_ptr<reporter> make_gitlab_reporter(const std::string& path, channel& out) {
  return std::make_unique<gitlab_reporter>(path, out);
}

}  // namespace utf8guard::cli
