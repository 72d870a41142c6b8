// policy_options.cpp - see policy_options.hpp. A bad name is a usage error
// whose message lists the names that are valid.
#include "policy_options.hpp"

namespace utf8guard::cli {
namespace {

std::string category_list() {
  std::string names;
  for (std::size_t k = 0; k < category_count; ++k) {
    if (k != 0) names.append(", ");
    names.append(to_string(static_cast<category>(1u << k)));
  }
  return names;
}

std::string profile_list() {
  std::string names;
  for (std::size_t k = 0; !profile_name(k).empty(); ++k) {
    if (k != 0) names.append(", ");
    names.append(profile_name(k));
  }
  return names;
}

// value_of reads the value of "--name=V" or "--name V" (advancing i).
bool value_of(std::string_view arg, std::string_view name, int& i, int argc,
              const char* const* argv, std::string_view& value) {
  if (arg.size() > name.size()) {
    value = arg.substr(name.size() + 1);
    return true;
  }
  if (i + 1 >= argc) return false;
  value = argv[++i];
  return true;
}

bool is_option(std::string_view arg, std::string_view name) {
  return arg.substr(0, name.size()) == name &&
         (arg.size() == name.size() || arg[name.size()] == '=');
}

// add_policy_text appends a checked --profile or --deny value to the
// policy's text, read as one policy from left to right (policy_parse).
option_use add_policy_text(std::string_view value, policy_options& out) {
  if (!out.text.empty()) out.text.push_back(',');
  out.text.append(value);
  out.deny = policy_parse(out.text).policy;
  return option_use::taken;
}

}  // namespace

option_use take_policy_option(std::string_view arg, int& i, int argc, const char* const* argv,
                              bool check, policy_options& out, std::string& error) {
  if (check && arg == "--hints") {
    out.hints = true;
    return option_use::taken;
  }
  if (arg == "--percent" || arg == "--json-text") {
    // Only check decodes percent-encoding: sanitize would have to choose
    // between replacing escapes and the bytes they stand for, and the
    // contract names neither. JSON text has its own replacement, \ufffd.
    const bool percent = arg == "--percent";
    if (percent && !check) {
      error = "--percent is an option of check only: sanitize does not decode percent-encoding";
      return option_use::bad;
    }
    if (percent ? out.json_text : out.percent) {
      error = "--percent and --json-text exclude each other: an input has one form";
      return option_use::bad;
    }
    (percent ? out.percent : out.json_text) = true;
    return option_use::taken;
  }
  std::string_view value;
  if (is_option(arg, "--profile")) {
    if (!value_of(arg, "--profile", i, argc, argv, value) || value.empty()) {
      error = "--profile needs a profile name (valid: " + profile_list() + ")";
      return option_use::bad;
    }
    policy p;
    if (!profile_from_name(value, p)) {
      error = "unknown profile '" + std::string(value) + "' (valid: " + profile_list() + ")";
      return option_use::bad;
    }
    return add_policy_text(value, out);
  }
  if (is_option(arg, "--deny")) {
    if (!value_of(arg, "--deny", i, argc, argv, value) || value.empty()) {
      error = "--deny needs a comma-separated list of categories (valid: " + category_list() + ")";
      return option_use::bad;
    }
    const policy_parse_result r = policy_parse(value);
    if (!r.ok) {
      const std::string_view name = value.substr(r.error_offset, r.error_length);
      error = (name.empty() ? std::string("empty category name in --deny")
                            : "unknown category '" + std::string(name) + "'") +
              " (valid: " + category_list() + ")";
      return option_use::bad;
    }
    return add_policy_text(value, out);
  }
  return option_use::not_mine;
}

}  // namespace utf8guard::cli
