// main.cpp - the utf8guard command-line tool. It uses only the library's
// public API, so it links against the static and the shared build alike.
#include <unistd.h>
#include <csignal>

#include <utf8guard/utf8guard.h>

#include "commands.hpp"
#include "help.hpp"
#include "io.hpp"
#include "options.hpp"

int main(int argc, char** argv) {
  using namespace utf8guard::cli;
  // A closed pipe must show up as EPIPE from write(2), which ends the program
  // quietly with status 2, rather than as a signal.
  (void)std::signal(SIGPIPE, SIG_IGN);
  // A forced kernel that silently is not used would falsify tests and
  // benchmarks, so an unusable UTF8GUARD_KERNEL stops everything.
  if (const char* why = utf8guard_kernel_env_error()) {
    write_stderr(message(why));
    return kExitTrouble;
  }
  const parse_result parsed = parse_command_line(argc, argv);
  if (!parsed.usage_error.empty()) {
    write_stderr(message(parsed.usage_error) + message(usage_hint()));
    return kExitTrouble;
  }
  const options& opts = parsed.opts;
  switch (opts.cmd) {
    case command::check: return run_check(opts);
    case command::sanitize: return run_sanitize(opts);
    case command::help:
    case command::version: {
      fd_writer out(STDOUT_FILENO, 4096);
      const bool ok =
          out.write(opts.cmd == command::help ? std::string(help_text()) : version_text()) &&
          out.flush();
      if (ok) return kExitValid;
      report_write_failure(out.error());
      return kExitTrouble;
    }
  }
  return kExitTrouble;
}
