// check_cmd.cpp - `utf8guard check`: every input in turn (or in parallel with
// -j), the exit status, and the --all summary.
#include <unistd.h>

#include <atomic>

#include <utf8guard/utf8guard.hpp>

#include "check_input.hpp"
#include "commands.hpp"
#include "file_list.hpp"
#include "format.hpp"
#include "jobs.hpp"

namespace utf8guard::cli {
namespace {

constexpr std::size_t kStdoutBuffer = 64 * 1024;

struct totals {
  std::uint64_t files = 0;  // inputs read to the end
  std::uint64_t bytes = 0;
  kind_counts errors{};
  bool trouble = false;  // an input could not be opened or read
  bool invalid = false;

  void add(const input_result& r) {
    if (r.status == input_result::outcome::skipped) return;
    if (r.status != input_result::outcome::checked) {
      trouble = true;
      return;
    }
    ++files;
    bytes += r.bytes;
    invalid = invalid || !r.valid;
    for (std::size_t k = 0; k < errors.size(); ++k) errors[k] += r.errors[k];
  }
};

void append_count(std::string& out, std::uint64_t n, std::string_view noun) {
  append_number(out, n);
  out.push_back(' ');
  out.append(noun);
  if (n != 1) out.push_back('s');
}

// summary_line: "3 files, 1234 bytes, 5 errors (overlong 2, truncated 3)",
// kinds in the order of docs/design.md's table (the enum's order), zeros left out.
std::string summary_line(const totals& t) {
  std::string text;
  append_count(text, t.files, "file");
  text.append(", ");
  append_count(text, t.bytes, "byte");
  text.append(", ");
  std::uint64_t all = 0;
  for (const std::uint64_t n : t.errors) all += n;
  append_count(text, all, "error");
  if (all != 0) {
    const char* sep = " (";
    for (std::size_t k = 1; k < t.errors.size(); ++k) {
      if (t.errors[k] == 0) continue;
      text.append(sep);
      text.append(to_string(static_cast<error>(k)));
      text.push_back(' ');
      append_number(text, t.errors[k]);
      sep = ", ";
    }
    text.push_back(')');
  }
  return message(text);
}

output_format format_of(const options& opts) {
  if (opts.quiet) return output_format::quiet;
  switch (opts.format) {
    case report_format::text: break;
    case report_format::json: return output_format::json;
    case report_format::sarif: return output_format::sarif;
    case report_format::github: return output_format::github;
    case report_format::gitlab: return output_format::gitlab;
  }
  return output_format::text;
}

check_settings settings_of(const options& opts) {
  check_settings s;
  s.format = format_of(opts);
  if (opts.max_errors != 0) {
    s.max_reported = opts.max_errors;
  } else if (opts.all) {
    s.max_reported = UINT64_MAX;
  }
  s.count_every_error = opts.all && !opts.quiet;
  s.stop_at_max = opts.max_errors != 0 && !s.count_every_error;
  s.lines = opts.lines;
  s.skip_binary = opts.skip_binary;
  s.skip_special = opts.skip_special;
  s.threads = opts.jobs;
  s.deny = opts.policy.deny;
  s.hints = opts.policy.hints;
  s.hint_bytes = s.hints || s.format == output_format::sarif;
  s.percent = opts.policy.percent;
  s.json_text = opts.policy.json_text;
  return s;
}

// Threads pay off only for enough work: starting them costs as much as
// checking a few dozen small files. So by default inputs are checked one
// after the other (a large one in sections) until what is left, judged by
// the average size so far, is worth sharing out by input: never for one or
// two inputs, at once for thousands of files. An explicit -j N shares out
// any two inputs or more.
//
// kPerInputBytes: opening, reading and closing a file costs about as much
// as checking this many bytes of it. kWorthThreadsBytes: the work, counted
// the same way, that covers the start of the threads many times over.
constexpr std::uint64_t kPerInputBytes = 64 * 1024;
constexpr std::uint64_t kWorthThreadsBytes = 16 * 1024 * 1024;

bool worth_threads(bool automatic, std::size_t done, std::size_t left, std::uint64_t bytes_done) {
  if (left < 2) return false;
  if (!automatic) return true;
  if (done == 0) return false;
  const std::uint64_t per_input = bytes_done / done + kPerInputBytes;
  return left >= kWorthThreadsBytes / per_input;
}

// check_entry checks input i of the list, or reports why it cannot.
input_result check_entry(const file_list& inputs, std::size_t i, const check_settings& settings,
                         channel& out, check_buffer& buffer) {
  const std::string problem = inputs.problem(i);
  if (problem.empty()) return check_input(settings, inputs.name(i), out, buffer);
  out.err(message(problem));
  const auto rep = make_reporter(settings.format, inputs.name(i), out, settings.hints);
  if (rep != nullptr) (void)rep->unreadable(problem);
  input_result r;
  r.status = input_result::outcome::io_error;
  return r;
}

}  // namespace

int run_check(const options& opts) {
  file_list inputs;
  if (opts.files0_from) {
    if (const int err = inputs.read_files0(*opts.files0_from)) {
      write_stderr(file_message(*opts.files0_from, err));
      return kExitTrouble;
    }
  } else {
    if (opts.files.empty() && ::isatty(STDIN_FILENO) == 1) {
      write_stderr(message("reading standard input (end it with Ctrl-D; --help for usage)"));
    }
    inputs = file_list::from_operands(opts.files);
  }
  check_settings settings = settings_of(opts);
  std::atomic<bool> found{false};  // --quiet: some input is not valid
  if (settings.format == output_format::quiet) settings.found = &found;
  fd_writer out(STDOUT_FILENO, kStdoutBuffer);
  (void)out.write(document_start(settings.format));
  out.elide_next(',');
  totals sum;
  const auto add = [&sum](const input_result& r) { sum.add(r); };
  // Shared out by input, each input is read in one pass by one thread.
  check_settings one_pass = settings;
  one_pass.threads = 1;
  bool try_threads = opts.jobs > 1;
  direct_channel ch(out, is_live(STDOUT_FILENO));
  check_buffer buffer;
  const std::size_t n = inputs.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (try_threads && worth_threads(opts.jobs_auto, i, n - i, sum.bytes)) {
      const check_one check = [&, i](std::size_t k, channel& c, check_buffer& b) {
        return check_entry(inputs, i + k, one_pass, c, b);
      };
      if (check_in_parallel(n - i, opts.jobs, check, out, add)) break;
      try_threads = false;  // no thread could start: go on alone
    }
    const input_result r = check_entry(inputs, i, settings, ch, buffer);
    if (r.status == input_result::outcome::output_failed) break;
    sum.add(r);
  }
  out.elide_next(0);
  (void)out.write(document_end(settings.format));
  if (!out.flush()) {
    report_write_failure(out.error());
    return kExitTrouble;
  }
  if (settings.count_every_error) write_stderr(summary_line(sum));
  if (sum.trouble) return kExitTrouble;
  return sum.invalid ? kExitInvalid : kExitValid;
}

}  // namespace utf8guard::cli
