// sinks.hpp - the callbacks the tests hand to the C API's streaming objects
// (utf8guard_sanitizer, utf8guard_error_scanner): each records what it is given
// in the object its context points to, and never refuses.
#ifndef UTF8GUARD_TESTS_SUPPORT_SINKS_HPP
#define UTF8GUARD_TESTS_SUPPORT_SINKS_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

// append_sink appends the output to the std::string at ctx.
inline bool append_sink(void* ctx, const char* data, std::size_t len) {
  static_cast<std::string*>(ctx)->append(data, len);
  return true;
}

// count_error counts the errors in the std::size_t at ctx.
inline bool count_error(void* ctx, utf8guard_result) {
  ++*static_cast<std::size_t*>(ctx);
  return true;
}

// collect_error appends each error, as a C++ result, to the
// std::vector<utf8guard::result> at ctx.
inline bool collect_error(void* ctx, utf8guard_result r) {
  static_cast<std::vector<result>*>(ctx)->push_back(
      {static_cast<error>(r.kind), r.offset, r.length});
  return true;
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_SINKS_HPP
