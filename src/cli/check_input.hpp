// check_input.hpp - checking one input: open, read in chunks, find errors,
// report them, close. Used alike by the sequential and the parallel runner.
#ifndef UTF8GUARD_CLI_CHECK_INPUT_HPP
#define UTF8GUARD_CLI_CHECK_INPUT_HPP

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include <utf8guard/utf8guard.hpp>

#include "channel.hpp"
#include "io.hpp"
#include "report.hpp"

namespace utf8guard::cli {

struct check_settings {
  output_format format = output_format::text;
  // How many errors of each input are printed (1 unless --all/--max-errors).
  std::uint64_t max_reported = 1;
  // --max-errors: stop reading an input once max_reported errors are out
  // (unless every error is counted).
  bool stop_at_max = false;
  // --quiet: at the first finding in any input, stop reading it and set
  // *found; once *found is set, inputs are only opened (a missing one is
  // still an error), not read.
  std::atomic<bool>* found = nullptr;
  // Whether every error is counted, also past max_reported (for the summary).
  bool count_every_error = false;
  // Threads one input may use: a large regular file is validated in that many
  // sections side by side first (sections.hpp; not under a policy, --hints
  // or --percent). 1 reads it in one pass.
  unsigned threads = 1;
  // --profile/--deny: the characters reported as disallowed.
  policy deny;
  // --hints: each ill-formed subpart's report names what probably made it.
  bool hints = false;
  // Keep the bytes a hint reads (--hints, and SARIF, which always has it).
  bool hint_bytes = false;
  // --lines: a line's terminator (raw LF, or CR LF) is exempt from the policy.
  bool lines = false;
  // --skip-binary: an input with a NUL byte in its first 8000 bytes (git's
  // rule for binary files) is skipped.
  bool skip_binary = false;
  // --skip-special: a named input that is not a regular file (or a link to
  // one) is skipped.
  bool skip_special = false;
  // --percent: the input is percent-encoded; its decoded bytes are checked,
  // and offsets, lines and columns count its encoded bytes.
  bool percent = false;
  // --json-text: the input is JSON text, checked as --percent's is, with its
  // escapes decoded.
  bool json_text = false;
};

// The eight error kinds (disallowed included) plus "none", indexed by
// utf8guard::error.
using kind_counts = std::array<std::uint64_t, 9>;

struct input_result {
  enum class outcome {
    checked,        // read to the end and reported
    io_error,       // could not be opened or read; the message is out
    output_failed,  // standard output failed; everything stops
    skipped,        // --skip-binary, --skip-special, or not read after --quiet's answer
  };
  outcome status = outcome::checked;
  bool valid = true;
  std::uint64_t bytes = 0;
  kind_counts errors{};  // with count_every_error, every error; else those reported
};

// check_buffer is check_input's read area. Each thread allocates one and
// reuses it for every input it checks: a fresh buffer per input would cost
// an mmap(2) and a munmap(2) each time (it is larger than malloc's threshold).
class check_buffer {
 public:
  check_buffer();  // throws std::bad_alloc
  [[nodiscard]] unsigned char* get() const noexcept { return pages_.get(); }

 private:
  page_buffer pages_;
};

input_result check_input(const check_settings& settings, const std::string& path, channel& out,
                         check_buffer& buffer);

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_CHECK_INPUT_HPP
