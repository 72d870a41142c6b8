# Cross-compiling for 64-bit ARM Linux with Debian's g++-aarch64-linux-gnu.
# Programs built with it run on x86-64 under qemu-user (CMake's emulator is
# set, so try_run and `ctest` use it too):
#   cmake -S tests/kernels/cross -B build-neon \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(UTF8GUARD_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${UTF8GUARD_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${UTF8GUARD_CROSS_TRIPLE}-g++)

# Headers and libraries come from the cross sysroot only; build tools from
# the host.
set(CMAKE_FIND_ROOT_PATH /usr/${UTF8GUARD_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/${UTF8GUARD_CROSS_TRIPLE})
