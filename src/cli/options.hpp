// options.hpp - the command line:
//   utf8guard check [--format FORMAT | --json] [--all] [--quiet] [--max-errors N]
//                   [-j N] [--profile NAME] [--deny LIST] [--percent] [--hints]
//                   [--lines] [--skip-binary] [--skip-special]
//                   [FILE... | --files0-from LIST]
//   utf8guard sanitize [--profile NAME] [--deny LIST] [FILE|-]
//   utf8guard --help | -h | help ;  utf8guard --version
#ifndef UTF8GUARD_CLI_OPTIONS_HPP
#define UTF8GUARD_CLI_OPTIONS_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "policy_options.hpp"

namespace utf8guard::cli {

enum class command { help, version, check, sanitize };

// What check prints (--format; --json is json).
enum class report_format { text, json, sarif, github, gitlab };

struct options {
  command cmd = command::help;
  report_format format = report_format::text;
  bool all = false;
  bool quiet = false;
  std::uint64_t max_errors = 0;  // 0: not given
  bool lines = false;            // check: a line's LF or CRLF is exempt from the policy
  bool skip_binary = false;      // check: skip inputs with a NUL in their first 8000 bytes
  bool skip_special = false;     // check: skip named inputs that are not regular files
  unsigned jobs = 1;             // check: -j N, default (and -j 0) the number of usable CPUs
  bool jobs_auto = true;         // check: no -j N with N > 0; threads start when worth it
  std::vector<std::string> files;
  policy_options policy;  // --profile, --deny, --percent, --hints (policy_options.hpp)
  std::optional<std::string> files0_from;  // check: --files0-from LIST, instead of files
};

struct parse_result {
  options opts;
  std::string usage_error;  // empty when the command line is good
};

parse_result parse_command_line(int argc, const char* const* argv);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_OPTIONS_HPP
