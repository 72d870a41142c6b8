# Hardening.cmake - compiler and linker hardening for every target of the
# project (library, CLI, tests), and the sanitizer switch CI builds use.
#
# Included from the top-level CMakeLists.txt before any target is declared, so
# the directory-wide add_compile_options()/add_link_options() below reach every
# target. Every flag is probed first: a compiler or target that lacks one
# (clang 14 vs g++ 12, x86-64 vs an aarch64 cross build) builds without it
# instead of failing. SECURITY.md lists what each flag defends against;
# tests/security/check_hardening.py proves the result on the built CLI.
#
#   UTF8GUARD_HARDENING=ON   (default) _FORTIFY_SOURCE=3 (or 2) in optimized
#                            builds, -fstack-protector-strong,
#                            -fstack-clash-protection, -fcf-protection (x86) or
#                            -mbranch-protection=standard (AArch64), PIE,
#                            -z relro -z now, -z noexecstack.
#   UTF8GUARD_SANITIZE=...   a -fsanitize= list for every target, e.g.
#                            "address,undefined" or "thread"; errors abort
#                            (-fno-sanitize-recover=all).
#   UTF8GUARD_GLIBCXX_ASSERTIONS  bounds-checked libstdc++ (on when tests are built).
include_guard(GLOBAL)

include(CheckCXXCompilerFlag)
include(CheckCXXSourceCompiles)
include(CheckLinkerFlag)
include(CheckPIESupported)

option(UTF8GUARD_HARDENING "Build with stack protector, FORTIFY_SOURCE, CET/BTI, PIE, full RELRO" ON)
set(UTF8GUARD_SANITIZE "" CACHE STRING
    "Sanitizers for every target, as for -fsanitize= (e.g. address,undefined or thread); empty for none")
option(UTF8GUARD_GLIBCXX_ASSERTIONS "Bounds-check libstdc++ containers (-D_GLIBCXX_ASSERTIONS)"
       ${UTF8GUARD_BUILD_TESTS})

# What was applied, for the configure log and the hardening test.
set(UTF8GUARD_HARDENING_APPLIED "")

# ---- Sanitizers ----------------------------------------------------------
# A sanitizer that is asked for but not available must stop the configure: a
# CI job that silently ran without it would prove nothing.
if(UTF8GUARD_SANITIZE)
  set(_ug_san -fsanitize=${UTF8GUARD_SANITIZE} -fno-sanitize-recover=all)
  string(MAKE_C_IDENTIFIER "UTF8GUARD_HAVE_SANITIZE_${UTF8GUARD_SANITIZE}" _ug_var)
  list(JOIN _ug_san " " CMAKE_REQUIRED_FLAGS)
  set(CMAKE_REQUIRED_LINK_OPTIONS ${_ug_san})
  check_cxx_source_compiles("int main() { return 0; }" ${_ug_var})
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT ${_ug_var})
    message(FATAL_ERROR "UTF8GUARD_SANITIZE=${UTF8GUARD_SANITIZE}: ${CMAKE_CXX_COMPILER_ID} "
                        "cannot build with -fsanitize=${UTF8GUARD_SANITIZE} (runtime missing?)")
  endif()
  # Frame pointers and line tables make every report point at a source line.
  add_compile_options(${_ug_san} -fno-omit-frame-pointer -g)
  add_link_options(${_ug_san})
endif()

# Sanitizers also arrive through CMAKE_CXX_FLAGS (the fuzz builds and the
# nested builds of tests/consumer do that).
set(_ug_sanitized FALSE)
if(UTF8GUARD_SANITIZE OR CMAKE_CXX_FLAGS MATCHES "-fsanitize=")
  set(_ug_sanitized TRUE)
endif()

# clang's -fsanitize=function (part of "undefined") is C++-only before
# clang 17: its handlers live in the C++ UBSan runtime, which a C program
# linking the library does not get, and its per-function-type typeinfo is
# exported from the shared library. It checks indirect calls to instrumented
# functions only; the library's indirect calls go to its own kernels (one
# type) and to callers' callbacks (not instrumented). So it is left out.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 17
   AND "${UTF8GUARD_SANITIZE} ${CMAKE_CXX_FLAGS}" MATCHES "-fsanitize=[^ ]*(undefined|function)|^[^ ]*(undefined|function)")
  add_compile_options(-fno-sanitize=function)
endif()

# ---- Hardening -------------------------------------------------------------
if(UTF8GUARD_HARDENING)
  # _FORTIFY_SOURCE turns memcpy/read/snprintf... into bounds-checked __*_chk
  # calls. Level 3 (glibc 2.34 + gcc 12 or clang 9) also checks sizes known
  # only at run time. It needs optimization, so it is applied only to the
  # optimized configurations. Under a sanitizer it is left off: ASan and TSan
  # intercept memcpy and friends, not the __*_chk variants, so fortified calls
  # would escape them. -U first: some distributions predefine a level.
  if(NOT _ug_sanitized)
    set(_ug_fortify_probe "
      #include <cstring>
      #if !defined(__USE_FORTIFY_LEVEL) || __USE_FORTIFY_LEVEL < @level@
      #error this C library and compiler do not apply the requested level
      #endif
      int main() { return 0; }")
    foreach(level 3 2)
      string(REPLACE "@level@" "${level}" _ug_src "${_ug_fortify_probe}")
      set(CMAKE_REQUIRED_FLAGS "-O2 -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=${level}")
      check_cxx_source_compiles("${_ug_src}" UTF8GUARD_HAVE_FORTIFY_SOURCE_${level})
      unset(CMAKE_REQUIRED_FLAGS)
      if(UTF8GUARD_HAVE_FORTIFY_SOURCE_${level})
        add_compile_options(
          "$<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-U_FORTIFY_SOURCE;-D_FORTIFY_SOURCE=${level}>")
        list(APPEND UTF8GUARD_HARDENING_APPLIED "-D_FORTIFY_SOURCE=${level} (optimized builds)")
        break()
      endif()
    endforeach()
  endif()

  # Compile flags, each used only where the compiler takes it for this target:
  # -fcf-protection (Intel CET: IBT + shadow stack) exists only on x86 and
  # -mbranch-protection=standard (BTI + pointer authentication) only on
  # AArch64, so the probe picks the right one for a cross build too.
  # -Werror: clang only warns about a flag for another architecture
  # ("argument unused during compilation") and would otherwise pass the probe.
  foreach(flag -fstack-protector-strong -fstack-clash-protection -fcf-protection
               -mbranch-protection=standard)
    string(MAKE_C_IDENTIFIER "UTF8GUARD_HAVE${flag}" _ug_var)
    set(CMAKE_REQUIRED_FLAGS -Werror)
    check_cxx_compiler_flag(${flag} ${_ug_var})
    unset(CMAKE_REQUIRED_FLAGS)
    if(${_ug_var})
      add_compile_options(${flag})
      list(APPEND UTF8GUARD_HARDENING_APPLIED ${flag})
    endif()
  endforeach()

  # Full RELRO: the GOT is made read-only after relocation (-z relro), and all
  # symbols are bound at load time (-z now) so nothing stays writable for
  # lazy binding. -z noexecstack is the default almost everywhere; saying it
  # keeps an assembler file without a .note.GNU-stack from making it RWX.
  foreach(flag relro now noexecstack)
    check_linker_flag(CXX "LINKER:-z,${flag}" UTF8GUARD_HAVE_Z_${flag})
    if(UTF8GUARD_HAVE_Z_${flag})
      add_link_options("LINKER:-z,${flag}")
      list(APPEND UTF8GUARD_HARDENING_APPLIED "-z ${flag}")
    endif()
  endforeach()

  # PIE for every executable (the CLI), so ASLR moves its code too. With
  # policy CMP0083 (CMake >= 3.14) POSITION_INDEPENDENT_CODE also adds -pie at
  # link time, but only once check_pie_supported() has run.
  check_pie_supported(OUTPUT_VARIABLE _ug_pie_out LANGUAGES CXX)
  if(CMAKE_CXX_LINK_PIE_SUPPORTED)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    list(APPEND UTF8GUARD_HARDENING_APPLIED "PIE")
  else()
    message(STATUS "utf8guard hardening: no PIE here: ${_ug_pie_out}")
  endif()
endif()

# Bounds-checked operator[], front(), back()... in libstdc++: cheap, and it
# turns an out-of-range index in the library or the tests into an abort with
# a message instead of a silent over-read. On by default only in test builds.
if(UTF8GUARD_GLIBCXX_ASSERTIONS)
  add_compile_definitions($<$<COMPILE_LANGUAGE:CXX>:_GLIBCXX_ASSERTIONS>)
  list(APPEND UTF8GUARD_HARDENING_APPLIED "-D_GLIBCXX_ASSERTIONS")
endif()

if(UTF8GUARD_SANITIZE)
  list(APPEND UTF8GUARD_HARDENING_APPLIED "-fsanitize=${UTF8GUARD_SANITIZE}")
endif()
list(JOIN UTF8GUARD_HARDENING_APPLIED ", " _ug_summary)
message(STATUS "utf8guard hardening: ${_ug_summary}")
