// report.hpp - what check says about one input: the errors it finds, in order,
// then the verdict, or that it could not be read. The formats (text, JSON
// Lines, SARIF, GitHub workflow commands, GitLab Code Quality) differ only in
// how they print it; every one says the same words (found_error::describe).
#ifndef UTF8GUARD_CLI_REPORT_HPP
#define UTF8GUARD_CLI_REPORT_HPP

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <utf8guard/utf8guard.hpp>

#include "channel.hpp"

namespace utf8guard::cli {

// kContextBytes: the input bytes from an error's offset that a fingerprint
// reads (a report shows 4 checked bytes from there, which these begin).
inline constexpr unsigned kContextBytes = 4;

// input_form is what the checked bytes are: the input's own, or decoded
// from it (--percent, --json-text).
using input_form = utf8guard::form;

// found_error is one maximal subpart, or one denied character (kind
// disallowed, with its category and code point), with its position. window
// holds the input bytes kept around it (the encoded ones with --percent and
// --json-text): the library's finding window, whose offsets count from input
// offset window_origin (where the library's stream began). The library's
// describe and explain read it: one window and one formatter for the CLI and
// every other caller.
struct found_error {
  error kind = error::none;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  utf8guard::category category = utf8guard::category::none;
  char32_t code_point = 0;
  finding_window window;
  std::uint64_t window_origin = 0;
  input_form form = input_form::raw;
  bool want_hint = false;  // --hints: the description names the hint
  // the_hint is explain() over the window: exact, because a hint reads no
  // further than it reaches.
  [[nodiscard]] hint the_hint() const noexcept;
  // describe appends the text after "PATH:LINE:COLUMN: " to out, what every
  // format says of the finding, e.g. "overlong at byte 166 (C0 AF 2E 2E)"
  // (printable ASCII only, whatever the input holds).
  void describe(std::string& out) const;
};

// append_code_point appends "U+" and 4 to 6 uppercase hex digits (as many
// as the value needs, at least 4).
void append_code_point(std::string& out, char32_t value);

// append_hint_members appends the JSON members of a hint that exists:
// ,"hint":"NAME" and, when it has a value, ,"VALUE_KEY":"U+XXXX".
void append_hint_members(std::string& out, const hint& h, std::string_view value_key);

// A rule is what a finding is an instance of, for the formats that group
// findings by rule (SARIF, GitLab): each error kind ("overlong"), each
// category a policy may deny ("disallowed-bidi"), and "unreadable".
struct rule_info {
  std::string_view id;
  std::string_view name;  // a short title
  std::string_view help;  // what it means and what to do
};
inline constexpr std::size_t kRuleCount = 7 + category_count + 1;
inline constexpr std::string_view kUnreadableRule = "unreadable";
// rule returns rule number index (< kRuleCount); rule_index the number of a
// finding's rule, or of "unreadable" for nullptr.
const rule_info& rule(std::size_t index) noexcept;
std::size_t rule_index(const found_error* e) noexcept;

// fingerprint_source gives each finding of one input a fingerprint that
// does not move with the lines around it: a hash of the path, the rule, the
// bytes shown, and how many findings of that rule came before in the input.
class fingerprint_source {
 public:
  explicit fingerprint_source(std::string path) : path_(std::move(path)) {}
  // next returns the fingerprint of the input's next finding (e: nullptr for
  // "unreadable") as 16 lowercase hex digits.
  std::string next(const found_error* e);

 private:
  std::string path_;
  std::uint64_t seen_[kRuleCount] = {};
};

class reporter {
 public:
  virtual ~reporter() = default;
  // needs_context says whether error() wants found_error::context filled in
  // (which may mean waiting for the next chunk).
  [[nodiscard]] virtual bool needs_context() const noexcept = 0;
  // error reports the next error. false: stop reading this input.
  virtual bool error(const found_error& e) = 0;
  // finish ends a completely read input (or one --max-errors stopped). false: stop.
  virtual bool finish(bool valid, std::uint64_t bytes) = 0;
  // unreadable reports an input that could not be opened or read to its end,
  // why being the reason (strerror's words); the message on standard error
  // is the caller's. false: stop.
  virtual bool unreadable(const std::string& why) = 0;
};

// How check's standard output looks: one of the report formats, or nothing.
enum class output_format { text, json, sarif, github, gitlab, quiet };

// make_reporter returns the reporter of a format for one input (nullptr for
// quiet). Each of these formats prints each input by itself; sarif and gitlab
// print each finding as ",{...}", an element of the document that
// document_start opens (and whose first comma the writer drops).
std::unique_ptr<reporter> make_reporter(output_format format, const std::string& path, channel& out,
                                        bool hints);

// document_start and document_end are what a format prints before the first
// input and after the last (empty for the line formats).
std::string document_start(output_format format);
std::string document_end(output_format format);

// text_reporter prints "PATH:LINE:COLUMN: KIND at byte OFFSET (HEX BYTES)".
std::unique_ptr<reporter> make_text_reporter(const std::string& path, channel& out);

// json_reporter prints one JSON object for the input, on one line, at finish.
// Its error list is kept in memory up to a bound and then in a temporary file,
// so millions of errors do not grow the process.
std::unique_ptr<reporter> make_json_reporter(const std::string& path, channel& out, bool hints);

std::unique_ptr<reporter> make_sarif_reporter(const std::string& path, channel& out);
std::string sarif_document_start();  // the run, its tool and rules, up to "results":[
std::unique_ptr<reporter> make_github_reporter(const std::string& path, channel& out);
std::unique_ptr<reporter> make_gitlab_reporter(const std::string& path, channel& out);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_REPORT_HPP
