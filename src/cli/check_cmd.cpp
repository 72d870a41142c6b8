// check_cmd.cpp - `utf8guard check`: every input in turn (or in parallel with
// -j), the exit status, and the --all summary.
#include <unistd.h>

#include <utf8guard/utf8guard.hpp>

#include "check_input.hpp"
#include "commands.hpp"
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

check_settings settings_of(const options& opts) {
  check_settings s;
  s.format = opts.quiet  ? output_format::quiet
             : opts.json ? output_format::json
                         : output_format::text;
  if (opts.max_errors != 0) {
    s.max_reported = opts.max_errors;
  } else if (opts.all) {
    s.max_reported = UINT64_MAX;
  }
  s.count_every_error = opts.all && !opts.quiet;
  s.threads = opts.jobs;
  return s;
}

}  // namespace

int run_check(const options& opts) {
  std::vector<std::string> paths = opts.files;
  if (paths.empty()) paths.emplace_back(kStdinName);
  const check_settings settings = settings_of(opts);
  fd_writer out(STDOUT_FILENO, kStdoutBuffer);
  totals sum;
  const auto add = [&sum](const input_result& r) { sum.add(r); };
  if (opts.jobs <= 1 || paths.size() <= 1 ||
      !check_in_parallel(settings, paths, opts.jobs, out, add)) {
    direct_channel ch(out);
    for (const std::string& path : paths) {
      const input_result r = check_input(settings, path, ch);
      if (r.status == input_result::outcome::output_failed) break;
      sum.add(r);
    }
  }
  if (!out.flush()) {
    report_write_failure(out.error());
    return kExitTrouble;
  }
  if (settings.count_every_error) write_stderr(summary_line(sum));
  if (sum.trouble) return kExitTrouble;
  return sum.invalid ? kExitInvalid : kExitValid;
}

}  // namespace utf8guard::cli
