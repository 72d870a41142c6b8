# check_c_api_coverage.cmake - fails when utf8guard.h declares a function that
# the C99 test never calls, so the C test grows with the header.
#
#   cmake -DHEADER=include/utf8guard/utf8guard.h -DSOURCE=tests/core/c_api_test.c
#         -P check_c_api_coverage.cmake
#
# Run as a ctest step (not at configure time), so it always reads the
# current header.

cmake_minimum_required(VERSION 3.25)  # script mode: set the policies

# strip_comments(VAR): removes /* ... */ and // ... comments from ${VAR}, so a
# function named only in a comment counts neither as declared nor as called.
function(strip_comments var)
  set(text "${${var}}")
  set(out "")
  while(TRUE)
    string(FIND "${text}" "/*" open)
    if(open EQUAL -1)
      break()
    endif()
    string(SUBSTRING "${text}" 0 ${open} before)
    string(APPEND out "${before}")
    math(EXPR body "${open} + 2")
    string(SUBSTRING "${text}" ${body} -1 text)
    string(FIND "${text}" "*/" close)
    if(close EQUAL -1)
      message(FATAL_ERROR "unterminated comment")
    endif()
    math(EXPR after "${close} + 2")
    string(SUBSTRING "${text}" ${after} -1 text)
  endwhile()
  string(APPEND out "${text}")
  string(REGEX REPLACE "//[^\n]*" "" out "${out}")
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

foreach(input HEADER SOURCE)
  if(NOT EXISTS "${${input}}")
    message(FATAL_ERROR "${input} '${${input}}' does not exist")
  endif()
endforeach()
file(READ "${HEADER}" header)
file(READ "${SOURCE}" source)
strip_comments(header)
strip_comments(source)

# A declaration is a utf8guard_ name followed by '(' (function pointer typedefs
# such as (*utf8guard_sink)(...) have ')' after the name and do not match).
string(REGEX MATCHALL "utf8guard_[a-z0-9_]+[ \t\r\n]*\\(" declared "${header}")
set(functions "")
foreach(match IN LISTS declared)
  string(REGEX REPLACE "[ \t\r\n]*\\($" "" name "${match}")
  list(APPEND functions ${name})
endforeach()
list(REMOVE_DUPLICATES functions)
list(LENGTH functions count)
if(count LESS 10)
  message(FATAL_ERROR "found only ${count} functions in ${HEADER}: is the pattern still right?")
endif()

set(missing "")
foreach(name IN LISTS functions)
  if(NOT source MATCHES "${name}[ \t\r\n]*\\(")
    list(APPEND missing ${name})
  endif()
endforeach()
if(missing)
  list(JOIN missing ", " missing)
  message(FATAL_ERROR "${SOURCE} does not call: ${missing}")
endif()
message(STATUS "${SOURCE} calls all ${count} functions of ${HEADER}")
