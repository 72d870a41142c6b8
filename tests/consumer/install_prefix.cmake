# cmake -DBUILD_DIR=<build> -DPREFIX=<dir> [-DCONFIG=<cfg>] -DEXPECT=<a|b|...>
#       -P install_prefix.cmake
#
# Installs a build tree into a fresh prefix as a packager would
# (`cmake --install <build> --prefix <dir>`) and checks that every file in
# EXPECT ('|'-separated paths relative to the prefix) is there. The prefix is emptied first
# so that a file an older build installed cannot hide a missing one.
foreach(var BUILD_DIR PREFIX EXPECT)
  if(NOT ${var})
    message(FATAL_ERROR "install_prefix.cmake: ${var} is not set")
  endif()
endforeach()

string(REPLACE "|" ";" EXPECT "${EXPECT}")
file(REMOVE_RECURSE "${PREFIX}")
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed: ${status}")
endif()

set(missing "")
foreach(file IN LISTS EXPECT)
  if(NOT EXISTS "${PREFIX}/${file}")
    list(APPEND missing "${file}")
  endif()
endforeach()
file(GLOB_RECURSE installed RELATIVE "${PREFIX}" "${PREFIX}/*")
list(SORT installed)
list(JOIN installed "\n  " installed)
message(STATUS "installed into ${PREFIX}:\n  ${installed}")
if(missing)
  message(FATAL_ERROR "not installed: ${missing}")
endif()
