#!/bin/sh
# neon.sh - cross-compile utf8guard for AArch64 and check the NEON kernel (and
# the scalar one) against the reference oracle under qemu-user.
#
# Needs (Debian): cmake, ninja-build, g++-aarch64-linux-gnu, qemu-user.
# Usage: .ci/neon.sh [build-dir]      (default: build-neon)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build-neon"}

for tool in aarch64-linux-gnu-g++ qemu-aarch64 cmake; do
  command -v "$tool" >/dev/null 2>&1 || { echo "neon.sh: $tool not found" >&2; exit 2; }
done
generator=
command -v ninja >/dev/null 2>&1 && generator="-G Ninja"

# shellcheck disable=SC2086  # $generator is empty or two words
cmake -S "$root/tests/kernels/cross" -B "$build" $generator \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DUTF8GUARD_WERROR=ON
cmake --build "$build" --parallel "${JOBS:-2}"

# The binary really is AArch64: ELF e_machine (2 bytes at offset 18) is 183.
machine=$(od -An -t u2 -j 18 -N 2 "$build/kernel_selfcheck" | tr -d ' ')
[ "$machine" = 183 ] || { echo "neon.sh: kernel_selfcheck is not AArch64 ($machine)" >&2; exit 1; }
# Under qemu every input costs what it does under a sanitizer: the walk over
# every input of up to 3 bytes takes every 7th (tests/support/reduced.hpp),
# as in the sanitizer jobs. The generic algorithm NEON runs is walked over
# every input natively, on the x86 kernels, by scripts/test.sh.
export UTF8GUARD_TESTS_REDUCED=1
cd "$build" && ctest --output-on-failure -L kernels
