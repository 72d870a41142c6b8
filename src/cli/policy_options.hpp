// policy_options.hpp - the policy options of check and sanitize:
//   --profile NAME   a named profile (strict, source, field, json, url)
//   --deny LIST      comma-separated categories (or profiles), each added, or
//                    removed when written with a leading '-'
// Every --profile and --deny value, in order, makes one policy text, read
// from left to right by policy_parse: --profile field --deny -newline.
//   --hints          check only: name what probably produced each error
//   --percent        check only: check the input percent-decoded
//   --json-text      the input is JSON text: check it with its escapes
//                    decoded; sanitize writes JSON text (not with --percent)
// Kept apart from options.cpp: one call there hands these options over.
#ifndef UTF8GUARD_CLI_POLICY_OPTIONS_HPP
#define UTF8GUARD_CLI_POLICY_OPTIONS_HPP

#include <string>
#include <string_view>

#include <utf8guard/utf8guard.hpp>

namespace utf8guard::cli {

struct policy_options {
  policy deny;             // policy_parse(text)
  std::string text;        // the --profile and --deny values, comma-separated
  bool hints = false;      // check --hints
  bool percent = false;    // check --percent
  bool json_text = false;  // --json-text
};

enum class option_use {
  not_mine,  // not a policy option: the caller goes on
  taken,     // taken (with its value, advancing i)
  bad,       // a policy option with a bad value; error says why
};

// take_policy_option looks at argv[i]; check says whether the command is
// check (only check takes --hints and --percent).
option_use take_policy_option(std::string_view arg, int& i, int argc, const char* const* argv,
                              bool check, policy_options& out, std::string& error);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_POLICY_OPTIONS_HPP
