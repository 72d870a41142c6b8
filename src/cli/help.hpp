// help.hpp - the texts of --help and --version.
#ifndef UTF8GUARD_CLI_HELP_HPP
#define UTF8GUARD_CLI_HELP_HPP

#include <string>
#include <string_view>

namespace utf8guard::cli {

// help_text is the complete --help: every option, both output formats, the
// exit codes and the environment. docs/utf8guard.1 says the same at length.
std::string_view help_text();

// version_text is "utf8guard VERSION" and a line naming the active kernel
// and the usable ones (what UTF8GUARD_KERNEL may force here).
std::string version_text();

// usage_hint is the line that follows every usage error.
std::string_view usage_hint();

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_HELP_HPP
