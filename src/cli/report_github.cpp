// report_github.cpp - GitHub Actions workflow commands, one line per finding,
// which the runner turns into annotations on the file and line:
//   ::error file=a.txt,line=1,col=4,title=utf8guard overlong::overlong at byte 3 (C0 AF 2E 2E)
// An input that cannot be read:
//   ::error file=a.txt,title=utf8guard unreadable::unreadable: No such file or directory
// The path is escaped as GitHub's toolkit escapes a property (% CR LF : ,),
// and hostile characters in it as %XX; the message is printable ASCII.
#include "format.hpp"
#include "report.hpp"
#include "safe_text.hpp"

namespace utf8guard::cli {
namespace {

class github_reporter final : public reporter {
 public:
  github_reporter(const std::string& path, channel& out)
      : file_("::error file=" + github_property(path)), out_(out) {}

  [[nodiscard]] bool needs_context() const noexcept override { return true; }

  bool error(const found_error& e) override {
    line_.assign(file_);
    line_.append(",line=");
    append_number(line_, e.line);
    line_.append(",col=");
    append_number(line_, e.column);
    line_.append(",title=utf8guard ");
    line_.append(rule(rule_index(&e)).id);
    line_.append("::");
    e.describe(line_);
    line_.push_back('\n');
    return out_.out(line_);
  }

  bool finish(bool, std::uint64_t) override { return !out_.failed(); }

  bool unreadable(const std::string& why) override {
    line_.assign(file_);
    line_.append(",title=utf8guard ");
    line_.append(kUnreadableRule);
    line_.append("::");
    line_.append(github_data("unreadable: " + why));
    line_.push_back('\n');
    return out_.out(line_);
  }

 private:
  std::string file_;
  std::string line_;
  channel& out_;
};

}  // namespace

std::unique_ptr<reporter> make_github_reporter(const std::string& path, channel& out) {
  return std::make_unique<github_reporter>(path, out);
}

}  // namespace utf8guard::cli
