# readme_examples.cmake - every code block of README.md marked
#
#   <!-- readme-example: NAME.c -->      or      <!-- readme-example: NAME.cpp -->
#   ```c / ```cpp
#   ...
#   ```
#
# becomes a program built against the public headers only and run as a ctest
# test labelled `readme`: it must exit 0 and, if the block has comments of the
# form `prints: TEXT`, print exactly those lines in that order. A .c block is
# compiled as C99 with -Wall -Wextra -Werror -pedantic, a .cpp block as C++17
# (what the library promises its users). New marked blocks need no CMake edit;
# editing README.md re-runs the configure step.

# readme_blocks(README OUT_NAMES): writes each marked block to
# ${CMAKE_CURRENT_BINARY_DIR}/readme/NAME (and its expected output to
# NAME.expected) and returns the list of names.
function(readme_blocks readme out_names)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${readme}")
  file(READ "${readme}" text)
  set(marker "<!-- readme-example: ")
  set(names "")
  while(TRUE)
    string(FIND "${text}" "${marker}" at)
    if(at EQUAL -1)
      break()
    endif()
    string(LENGTH "${marker}" skip)
    math(EXPR at "${at} + ${skip}")
    string(SUBSTRING "${text}" ${at} -1 text)
    string(FIND "${text}" " -->" end)
    string(SUBSTRING "${text}" 0 ${end} name)
    if(NOT name MATCHES "^[A-Za-z0-9_]+\\.(c|cpp)$")
      message(SEND_ERROR "README.md: readme-example '${name}' must be NAME.c or NAME.cpp")
      return()
    endif()
    if(name IN_LIST names)
      message(SEND_ERROR "README.md: readme-example '${name}' appears twice")
      return()
    endif()
    # The block is the fenced code that follows the marker (blank lines allowed).
    string(SUBSTRING "${text}" ${end} -1 text)
    if(NOT text MATCHES "^ -->[ \t]*\n[ \t\n]*```[a-z+]*[ \t]*\n")
      message(SEND_ERROR "README.md: readme-example '${name}' is not followed by a ``` block")
      return()
    endif()
    string(LENGTH "${CMAKE_MATCH_0}" skip)
    string(SUBSTRING "${text}" ${skip} -1 text)
    string(FIND "${text}" "\n```" close)
    if(close EQUAL -1)
      message(SEND_ERROR "README.md: the block of readme-example '${name}' is not closed")
      return()
    endif()
    math(EXPR block_len "${close} + 1")
    string(SUBSTRING "${text}" 0 ${block_len} code)
    # Write only when changed, so a configure does not rebuild untouched examples.
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/readme")
    file(WRITE "${dir}/${name}.new" "${code}")
    file(COPY_FILE "${dir}/${name}.new" "${dir}/${name}" ONLY_IF_DIFFERENT)
    file(REMOVE "${dir}/${name}.new")
    # Expected output: the text after "prints: " in comments, one line each.
    # (A loop rather than REGEX MATCHALL, whose list would split at ';'.)
    set(expected "")
    set(rest "${code}")
    while(TRUE)
      string(FIND "${rest}" "prints: " p)
      if(p EQUAL -1)
        break()
      endif()
      math(EXPR p "${p} + 8")
      string(SUBSTRING "${rest}" ${p} -1 rest)
      string(FIND "${rest}" "\n" eol)
      string(SUBSTRING "${rest}" 0 ${eol} line)
      string(REGEX REPLACE "[ \t]*\\*/[ \t]*$" "" line "${line}")  # a C comment's end
      string(APPEND expected "${line}\n")
    endwhile()
    file(WRITE "${dir}/${name}.expected" "${expected}")
    list(APPEND names "${name}")
  endwhile()
  if(NOT names)
    message(SEND_ERROR "README.md has no <!-- readme-example: ... --> block")
  endif()
  set(${out_names} "${names}" PARENT_SCOPE)
endfunction()

# utf8guard_add_readme_examples(README): one program and one test per block.
function(utf8guard_add_readme_examples readme)
  readme_blocks("${readme}" names)
  foreach(name IN LISTS names)
    # readme_example.c -> readme_readme_example_c: the extension stays in the
    # name, so NAME.c and NAME.cpp may both exist.
    string(MAKE_C_IDENTIFIER "${name}" id)
    set(target readme_${id})
    add_executable(${target} "${CMAKE_CURRENT_BINARY_DIR}/readme/${name}")
    target_link_libraries(${target} PRIVATE utf8guard::utf8guard)
    # The fuzzing helpers' section shows utf8guard/fuzz.h (src/fuzzing/).
    if(TARGET utf8guard::fuzz)
      target_link_libraries(${target} PRIVATE utf8guard::fuzz)
    endif()
    if(name MATCHES "\\.c$")
      set_target_properties(${target} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON
                                                 C_EXTENSIONS OFF)
      target_compile_options(${target} PRIVATE -std=c99 -Wall -Wextra -Werror -pedantic)
    else()
      set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON
                                                 CXX_EXTENSIONS OFF)
      utf8guard_warnings(${target})
    endif()
    add_test(NAME ${target}
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${target}>
                     -DEXPECTED=${CMAKE_CURRENT_BINARY_DIR}/readme/${name}.expected
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/run_readme_example.cmake)
    set_tests_properties(${target} PROPERTIES LABELS readme TIMEOUT 60)
  endforeach()
endfunction()
