# Install rules and package files: headers, the library, the CLI and its man
# page in GNUInstallDirs places; a CMake package (find_package(utf8guard CONFIG)
# -> utf8guard::utf8guard) and utf8guard.pc for pkg-config.
#
# Components: "Runtime" is what a running program needs (the shared library,
# the CLI, the man page); "Development" is what a build needs (headers, the
# static library or the shared library's namelink, the package files).
#
# Like fmt's FMT_INSTALL: on when utf8guard is the top-level project, off when
# it is a subproject (a parent that vendors it rarely wants our files in its
# prefix) unless the parent asks for it (the option is declared at the top).
if(NOT UTF8GUARD_INSTALL)
  return()
endif()

include(CMakePackageConfigHelpers)

# Where find_package() and pkg-config look by default under a prefix.
set(utf8guard_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/utf8guard)
set(utf8guard_pkgconfig_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The fuzzing helpers (src/fuzzing/), when built, join the same export set:
# one package, utf8guard::utf8guard and utf8guard::fuzz. The AFL++ mutator
# module goes where plugins go, lib/utf8guard/.
set(utf8guard_libraries utf8guard)
set(utf8guard_header_excludes "")
if(TARGET utf8guard_fuzz)
  list(APPEND utf8guard_libraries utf8guard_fuzz)
else()
  set(utf8guard_header_excludes PATTERN "fuzz.h*" EXCLUDE)
endif()
install(TARGETS ${utf8guard_libraries} EXPORT utf8guardTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime
          NAMELINK_COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
if(TARGET utf8guard_afl)
  install(TARGETS utf8guard_afl EXPORT utf8guardTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/utf8guard COMPONENT Development)
endif()
# The fuzzing dictionary, for libFuzzer (-dict=) and AFL++ (-x), wherever the
# fuzzing helpers are: a job that uses them finds it under share/utf8guard/.
if(TARGET utf8guard_fuzz)
  install(FILES ${PROJECT_SOURCE_DIR}/fuzz/utf8.dict
    DESTINATION ${CMAKE_INSTALL_DATADIR}/utf8guard COMPONENT Development)
endif()

# The public headers, and version.h, which configure_file() writes into the
# build tree (src/CMakeLists.txt) so that the version stays in project().
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/utf8guard
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Development
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" ${utf8guard_header_excludes})
install(FILES ${PROJECT_BINARY_DIR}/include/utf8guard/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/utf8guard COMPONENT Development)

# A static libutf8guard.a needs the C++ runtime when a C program links it with
# the C compiler driver (cc, or a CMake project without CXX enabled): what the
# C++ compiler links implicitly and the C compiler does not, i.e. stdc++ and m
# with GCC, c++ with libc++. utf8guard.pc and the CMake package both use this
# list.
set(utf8guard_cxx_runtime "")
foreach(lib IN LISTS CMAKE_CXX_IMPLICIT_LINK_LIBRARIES)
  if(NOT lib IN_LIST CMAKE_C_IMPLICIT_LINK_LIBRARIES AND NOT lib IN_LIST utf8guard_cxx_runtime)
    list(APPEND utf8guard_cxx_runtime ${lib})
  endif()
endforeach()

# The CMake package. Paths inside it are relative to the files' own location,
# so the installed tree can be moved or staged with DESTDIR.
install(EXPORT utf8guardTargets NAMESPACE utf8guard::
  DESTINATION ${utf8guard_cmake_dir} COMPONENT Development)
set(UTF8GUARD_CXX_RUNTIME "${utf8guard_cxx_runtime}")
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/utf8guardConfig.cmake.in
  ${PROJECT_BINARY_DIR}/utf8guardConfig.cmake
  INSTALL_DESTINATION ${utf8guard_cmake_dir})
# The build tree is a package too (-Dutf8guard_DIR=<build>, or the build in
# CMAKE_PREFIX_PATH): its targets file names the library where it was built
# and the headers in the source and build trees.
export(EXPORT utf8guardTargets NAMESPACE utf8guard::
  FILE ${PROJECT_BINARY_DIR}/utf8guardTargets.cmake)
# Before 1.0 a minor release may change the API and ABI (SemVer item 4), so a
# request for 0.2 accepts 0.2.x only; from 1.0 on, any 1.y satisfies 1.x.
# The SONAME follows the same rule (src/CMakeLists.txt).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(utf8guard_compatibility SameMinorVersion)
else()
  set(utf8guard_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/utf8guardConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${utf8guard_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/utf8guardConfig.cmake
              ${PROJECT_BINARY_DIR}/utf8guardConfigVersion.cmake
  DESTINATION ${utf8guard_cmake_dir} COMPONENT Development)

# utf8guard.pc. Cflags carry what the target's INTERFACE carries. The C++
# runtime: a static-only install has no link without it, so it goes in Libs
# and plain `pkg-config --libs` works for cc; a shared library records its own
# (DT_NEEDED), so there it goes in Libs.private, which only `--static` reads.
list(TRANSFORM utf8guard_cxx_runtime PREPEND " -l" OUTPUT_VARIABLE utf8guard_pc_libs)
list(JOIN utf8guard_pc_libs "" utf8guard_pc_runtime)
set(UTF8GUARD_PC_CFLAGS "")
set(UTF8GUARD_PC_LIBS "${utf8guard_pc_runtime}")
set(UTF8GUARD_PC_LIBS_PRIVATE "")
if(BUILD_SHARED_LIBS)
  set(UTF8GUARD_PC_CFLAGS " -DUTF8GUARD_SHARED")  # the target's PUBLIC define
  set(UTF8GUARD_PC_LIBS "")
  set(UTF8GUARD_PC_LIBS_PRIVATE "${utf8guard_pc_runtime}")
endif()
foreach(dir LIBDIR INCLUDEDIR DATADIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(UTF8GUARD_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(UTF8GUARD_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
# The prefix is filled in at install time, not now: `cmake --install build
# --prefix DIR` must give a .pc that points into DIR. The first pass leaves
# the text "@CMAKE_INSTALL_PREFIX@" for the second, which runs in
# cmake_install.cmake where CMAKE_INSTALL_PREFIX is the prefix being used.
set(UTF8GUARD_PC_PREFIX "@CMAKE_INSTALL_PREFIX@")
configure_file(${PROJECT_SOURCE_DIR}/cmake/utf8guard.pc.in
  ${PROJECT_BINARY_DIR}/pkgconfig/utf8guard.pc.in @ONLY)
install(CODE "configure_file(\"${PROJECT_BINARY_DIR}/pkgconfig/utf8guard.pc.in\"
               \"${PROJECT_BINARY_DIR}/pkgconfig/utf8guard.pc\" @ONLY)"
  COMPONENT Development)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/utf8guard.pc
  DESTINATION ${utf8guard_pkgconfig_dir} COMPONENT Development)
# utf8guard-fuzz.pc: the fuzzing helpers, which require utf8guard (so
# `pkg-config --libs utf8guard-fuzz` links both), with the dictionary and the
# AFL++ mutator module as variables.
if(TARGET utf8guard_fuzz)
  set(UTF8GUARD_PC_AFL_MUTATOR "")
  if(TARGET utf8guard_afl)
    set(UTF8GUARD_PC_AFL_MUTATOR
        "\${libdir}/utf8guard/${CMAKE_SHARED_MODULE_PREFIX}utf8guard_afl${CMAKE_SHARED_MODULE_SUFFIX}")
  endif()
  configure_file(${PROJECT_SOURCE_DIR}/cmake/utf8guard-fuzz.pc.in
    ${PROJECT_BINARY_DIR}/pkgconfig/utf8guard-fuzz.pc.in @ONLY)
  install(CODE "configure_file(\"${PROJECT_BINARY_DIR}/pkgconfig/utf8guard-fuzz.pc.in\"
                 \"${PROJECT_BINARY_DIR}/pkgconfig/utf8guard-fuzz.pc\" @ONLY)"
    COMPONENT Development)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/utf8guard-fuzz.pc
    DESTINATION ${utf8guard_pkgconfig_dir} COMPONENT Development)
endif()

# The command-line tool and its manual, when they are part of this build.
if(TARGET utf8guard_cli)
  # Linked to a shared libutf8guard, the installed tool finds it next to
  # itself (bin/../lib) in any prefix, ~/.local included, without
  # LD_LIBRARY_PATH. Packagers who want no RUNPATH: -DCMAKE_SKIP_INSTALL_RPATH=ON.
  if(BUILD_SHARED_LIBS AND NOT WIN32 AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}"
     AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    file(RELATIVE_PATH bin_to_lib /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${CMAKE_INSTALL_LIBDIR})
    set(origin $<IF:$<PLATFORM_ID:Darwin>,@loader_path,$ORIGIN>)
    set_property(TARGET utf8guard_cli APPEND PROPERTY INSTALL_RPATH "${origin}/${bin_to_lib}")
  endif()
  install(TARGETS utf8guard_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
  if(EXISTS ${PROJECT_SOURCE_DIR}/docs/utf8guard.1)
    install(FILES ${PROJECT_SOURCE_DIR}/docs/utf8guard.1
      DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT Runtime)
  endif()
endif()
