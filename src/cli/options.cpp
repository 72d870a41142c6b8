// options.cpp - parsing the command line. Options may come before, between or
// after the FILEs; "--" ends them; "-" alone is standard input. Option values
// are accepted as "--opt N", "--opt=N" and, for -j, "-jN".
#include "options.hpp"

#include <sched.h>
#include <charconv>
#include <string_view>

namespace utf8guard::cli {
namespace {

// More threads than this only cost memory: inputs are read one chunk at a time.
constexpr std::uint64_t kMaxJobs = 256;

unsigned usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  return 1;
}

bool parse_number(std::string_view text, std::uint64_t& value) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string quoted(std::string_view s) {
  std::string q;
  q.reserve(s.size() + 2);
  q.push_back('\'');
  q.append(s);
  q.push_back('\'');
  return q;
}

bool format_named(std::string_view name, report_format& format) {
  static constexpr struct {
    std::string_view name;
    report_format format;
  } kFormats[] = {{"text", report_format::text},
                  {"json", report_format::json},
                  {"sarif", report_format::sarif},
                  {"github", report_format::github},
                  {"gitlab", report_format::gitlab}};
  for (const auto& f : kFormats) {
    if (f.name == name) {
      format = f.format;
      return true;
    }
  }
  return false;
}

class parser {
 public:
  parser(int argc, const char* const* argv) : argc_(argc), argv_(argv) {}

  parse_result run() {
    if (argc_ < 2) return fail("missing command");
    const std::string_view first = argv_[1];
    if (first == "--help" || first == "-h" || first == "help") return done(command::help);
    if (first == "--version") return done(command::version);
    if (first == "check") {
      result_.opts.cmd = command::check;
    } else if (first == "sanitize") {
      result_.opts.cmd = command::sanitize;
    } else if (!first.empty() && first[0] == '-') {
      return fail("unknown option " + quoted(first));
    } else {
      return fail("unknown command " + quoted(first));
    }
    return arguments(2);
  }

 private:
  parse_result arguments(int i) {
    options& o = result_.opts;
    const bool check = o.cmd == command::check;
    if (check) o.jobs = usable_cpus();  // the default, -j 0
    bool options_done = false;
    for (; i < argc_; ++i) {
      const std::string_view arg = argv_[i];
      if (options_done || arg == "-" || arg.empty() || arg[0] != '-') {
        o.files.emplace_back(arg);
        continue;
      }
      if (arg == "--") {
        options_done = true;
      } else if (arg == "--help" || arg == "-h") {
        return done(command::help);
      } else if (arg == "--version") {
        return done(command::version);
      } else if (const option_use use =
                     take_policy_option(arg, i, argc_, argv_, check, o.policy, result_.usage_error);
                 use != option_use::not_mine) {
        if (use == option_use::bad) return result_;
      } else if (check && arg == "--json") {
        o.format = report_format::json;
      } else if (check && is_option(arg, "--format")) {
        std::string_view v;
        if (!text(arg, "--format", i, "a format name", v)) return result_;
        if (!format_named(v, o.format)) {
          return fail("unknown format " + quoted(v) + " (text, json, sarif, github, gitlab)");
        }
      } else if (check && arg == "--lines") {
        o.lines = true;
      } else if (check && arg == "--skip-binary") {
        o.skip_binary = true;
      } else if (check && arg == "--skip-special") {
        o.skip_special = true;
      } else if (check && arg == "--all") {
        o.all = true;
      } else if (check && arg == "--quiet") {
        o.quiet = true;
      } else if (check && is_option(arg, "--max-errors")) {
        std::uint64_t n = 0;
        if (!value(arg, "--max-errors", i, n)) return result_;
        if (n < 1) return fail("--max-errors needs a number N >= 1");
        o.max_errors = n;
      } else if (check && (is_option(arg, "--jobs") || arg.substr(0, 2) == "-j")) {
        std::uint64_t n = 0;
        if (arg.substr(0, 2) == "-j" && arg.size() > 2) {
          if (!parse_number(arg.substr(2), n)) return fail("invalid number for -j: " + quoted(arg));
        } else if (!value(arg, arg == "-j" ? "-j" : "--jobs", i, n)) {
          return result_;
        }
        if (n > kMaxJobs) n = kMaxJobs;
        o.jobs = n == 0 ? usable_cpus() : static_cast<unsigned>(n);
        o.jobs_auto = n == 0;
      } else if (check && is_option(arg, "--files0-from")) {
        if (o.files0_from) return fail("--files0-from given twice");
        if (!file_value(arg, "--files0-from", i, o.files0_from.emplace())) return result_;
      } else {
        return fail("unknown option " + quoted(arg));
      }
    }
    // As GNU wc and du: a list and operands would leave unclear what is checked.
    if (o.files0_from && !o.files.empty()) {
      return fail("file operands cannot be combined with --files0-from: " + quoted(o.files[0]));
    }
    if (o.cmd == command::sanitize && o.files.size() > 1) {
      return fail("sanitize takes at most one FILE");
    }
    return result_;
  }

  // is_option: arg is "--name" or "--name=...".
  static bool is_option(std::string_view arg, std::string_view name) {
    return arg.substr(0, name.size()) == name &&
           (arg.size() == name.size() || arg[name.size()] == '=');
  }

  // text reads the value of "--name=V" or of "--name V" (advancing i); what
  // names it in the message when it is missing.
  bool text(std::string_view arg, std::string_view name, int& i, std::string_view what,
            std::string_view& v) {
    if (arg.size() > name.size() && arg[name.size()] == '=') {
      v = arg.substr(name.size() + 1);
    } else if (i + 1 < argc_) {
      v = argv_[++i];
    } else {
      fail("option " + quoted(name) + " needs " + std::string(what));
      return false;
    }
    return true;
  }

  // value reads the number of "--name=N" or of "--name N" (advancing i).
  bool value(std::string_view arg, std::string_view name, int& i, std::uint64_t& n) {
    std::string_view v;
    if (!text(arg, name, i, "a number", v)) return false;
    if (!parse_number(v, n)) {
      fail("invalid number for " + std::string(name) + ": " + quoted(v));
      return false;
    }
    return true;
  }

  // file_value reads the file name of "--name=F" or of "--name F" (advancing i).
  bool file_value(std::string_view arg, std::string_view name, int& i, std::string& file) {
    std::string_view v;
    if (!text(arg, name, i, "a file name", v)) return false;
    file = v;
    return true;
  }

  parse_result done(command cmd) {
    result_.opts.cmd = cmd;
    return result_;
  }

  parse_result fail(std::string why) {
    result_.usage_error = std::move(why);
    return result_;
  }

  int argc_;
  const char* const* argv_;
  parse_result result_;
};

}  // namespace

parse_result parse_command_line(int argc, const char* const* argv) {
  return parser(argc, argv).run();
}

}  // namespace utf8guard::cli
