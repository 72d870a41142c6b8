// jobs.hpp - checking several files in parallel with output identical to one
// after the other: each file's report waits, bounded, for that file's turn.
#ifndef UTF8GUARD_CLI_JOBS_HPP
#define UTF8GUARD_CLI_JOBS_HPP

#include <functional>
#include <string>
#include <vector>

#include "check_input.hpp"
#include "io.hpp"

namespace utf8guard::cli {

// check_in_parallel checks paths with `jobs` worker threads. The calling
// thread alone writes: each file's stdout and stderr, in path order, then
// calls done(result) for it. It stops early when stdout fails (see
// out.failed()). Returns false, having done nothing, if no thread could be
// started.
bool check_in_parallel(const check_settings& settings, const std::vector<std::string>& paths,
                       unsigned jobs, fd_writer& out,
                       const std::function<void(const input_result&)>& done);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_JOBS_HPP
