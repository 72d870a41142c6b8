// commands.hpp - the two commands; each returns the process's exit status.
#ifndef UTF8GUARD_CLI_COMMANDS_HPP
#define UTF8GUARD_CLI_COMMANDS_HPP

#include "options.hpp"

namespace utf8guard::cli {

// Exit statuses (see --help).
inline constexpr int kExitValid = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitTrouble = 2;  // usage or I/O error

int run_check(const options& opts);
int run_sanitize(const options& opts);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_COMMANDS_HPP
