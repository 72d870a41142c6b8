# cmake -DLIBDIR=<prefix>/<libdir> -DSONAME=<expected> -DNM=<nm> -DREADELF=<readelf>
#       -P shared_abi.cmake
#
# Checks an installed shared libutf8guard the way a distribution's packaging
# checks do: the development symlink names a library whose SONAME is the
# versioned one the compatibility policy promises, that file is installed, and
# the dynamic symbol table holds the API and nothing else - every exported
# symbol is a utf8guard_* C function or in namespace utf8guard, none in
# utf8guard::detail (hidden visibility is what keeps the ABI this small).
foreach(var LIBDIR SONAME NM READELF)
  if(NOT ${var})
    message(FATAL_ERROR "shared_abi.cmake: ${var} is not set")
  endif()
endforeach()

set(namelink "${LIBDIR}/libutf8guard.so")
if(NOT IS_SYMLINK "${namelink}")
  message(FATAL_ERROR "${namelink} is missing or not a symlink")
endif()
execute_process(COMMAND "${READELF}" -d "${namelink}" OUTPUT_VARIABLE dynamic
                RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT dynamic MATCHES "Library soname: \\[([^]]+)\\]")
  message(FATAL_ERROR "no SONAME in ${namelink}")
endif()
set(soname "${CMAKE_MATCH_1}")
if(NOT soname STREQUAL SONAME)
  message(FATAL_ERROR "SONAME is ${soname}, expected ${SONAME}")
endif()
if(NOT EXISTS "${LIBDIR}/${soname}")
  message(FATAL_ERROR "the SONAME's file ${LIBDIR}/${soname} is not installed")
endif()
message(STATUS "SONAME ${soname}")

execute_process(COMMAND "${NM}" -D --defined-only -C "${LIBDIR}/${soname}"
                OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} -D failed on ${LIBDIR}/${soname}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(api 0)
set(foreign "")
foreach(line IN LISTS lines)
  # "<address> <type> <demangled name>"; the name may contain spaces.
  if(NOT line MATCHES "^[0-9a-fA-F]+ [A-Za-z] (.+)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_1}")
  if(name MATCHES "^utf8guard::detail::" OR NOT name MATCHES "^(utf8guard_[a-z0-9_]+$|utf8guard::)")
    list(APPEND foreign "${name}")
  else()
    math(EXPR api "${api} + 1")
  endif()
endforeach()
if(foreign)
  list(JOIN foreign "\n  " foreign)
  message(FATAL_ERROR "exported outside the API:\n  ${foreign}")
endif()
# An empty table would pass the loop above: require the entry points of both APIs.
foreach(required "utf8guard_validate" "utf8guard::validate(" "utf8guard::validator::feed(")
  string(FIND "${symbols}" "${required}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${required} is not exported")
  endif()
endforeach()
message(STATUS "${api} exported symbols, all utf8guard_* or utf8guard::")
