// jobs.hpp - checking several inputs in parallel with output identical to one
// after the other: each input's report waits, bounded, for that input's turn.
#ifndef UTF8GUARD_CLI_JOBS_HPP
#define UTF8GUARD_CLI_JOBS_HPP

#include <cstddef>
#include <functional>

#include "check_input.hpp"
#include "io.hpp"

namespace utf8guard::cli {

// check_one checks input `index`, reporting to out and reading into buffer.
using check_one =
    std::function<input_result(std::size_t index, channel& out, check_buffer& buffer)>;

// check_in_parallel runs check(i) for every i in [0, count) on up to `jobs`
// worker threads. The calling thread alone writes: each input's stdout and
// stderr, in index order, then calls done(result) for it. It stops early when
// stdout fails (see out.failed()). Returns false, having done nothing, if no
// worker could be started.
bool check_in_parallel(std::size_t count, unsigned jobs, const check_one& check, fd_writer& out,
                       const std::function<void(const input_result&)>& done);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_JOBS_HPP
