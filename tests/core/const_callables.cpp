// const_callables.cpp - compiled, never run, by the ctest test
// core_api_accepts_const_callables. utf8guard.hpp promises that a sink or an
// error callback may be "any callable"; a const lambda is one, and is what
// `const auto sink = [...]` gives a user, so this file must compile.
#include <cstddef>
#include <string>
#include <string_view>

#include "utf8guard/utf8guard.hpp"

bool sanitize_with_a_const_sink(std::string_view in, std::string& out) {
  utf8guard::sanitizer s;
  const auto sink = [&out](std::string_view bytes) { out.append(bytes); };
  return s.feed(in, sink) && s.finish(sink);
}

std::size_t count_with_a_const_callback(std::string_view in) {
  utf8guard::error_scanner scan;
  std::size_t errors = 0;
  const auto count = [&errors](const utf8guard::result&) { ++errors; };
  scan.feed(in, count);
  scan.finish(count);
  return errors;
}
