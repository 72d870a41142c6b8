#!/usr/bin/env bash
# .ci/sanitizers.sh [JOB...] - the sanitizer jobs of CI (SECURITY.md).
#
#   asan      clang 14, -fsanitize=address,undefined -fno-sanitize-recover=all:
#             the whole test suite except the 2^32-input "exhaustive" label
#             (run once, by scripts/test.sh on the Release build), the
#             "consumer" label (install and packaging: nested builds of the
#             library that check CMake and pkg-config files, which a sanitizer
#             does not change; scripts/test.sh runs them) and
#             fuzz.oss_fuzz_build (a build check, not a test of the code).
#             Includes the library's inputs past 4 GiB, not the CLI's
#             (security.large_input_cli: 4 GiB through the CLI's read loop,
#             whose 64-bit counters the integer job checks).
#   integer   clang 14, UBSan plus implicit-integer-truncation and
#             -sign-change: the security and CLI tests, the inputs past 4 GiB
#             among them, so a size_t offset squeezed through a 32-bit or
#             signed type anywhere on the way shows up even where it is not UB.
#   tsan      clang 14, -fsanitize=thread: every test that runs utf8guard's
#             code on several threads at once. Every entry point from 8
#             threads at the first call of 48 fresh processes
#             (security_first_use_threads) and of the dispatch probe
#             (KernelEnv.FirstUseOnManyThreadsAgrees), and the CLI tests of
#             `check` (cli.check, cli.streams, cli.jobs, cli.sections,
#             cli.files0), whose default is one worker per CPU and which
#             reads sections of one large file on several threads. Not the
#             rest: it runs on one
#             thread, where TSan has nothing to see (the `sanitize` command
#             and --help included), kernel_selfcheck's threads only split its
#             inputs between them, and the inputs past 4 GiB would need
#             TSan's shadow memory several times over.
#   valgrind  a g++ 12 build without sanitizers; the CLI tests (label cli) with
#             every CLI run under valgrind memcheck (UTF8GUARD_CLI_WRAPPER),
#             leaks included, but for cli.sections and cli.jobs (large files
#             cut into sections, worker pools over many files: the slowest
#             under memcheck, whose memory the asan job and whose threads the
#             tsan job check). With UTF8GUARD_VALGRIND_BUILD=DIR it uses that
#             existing build (.ci/run passes scripts/test.sh's build/, a g++
#             Release build) instead of configuring its own.
#
# Why clang for the sanitizers: its runtimes are linked statically, so the
# CLI tests' LD_PRELOAD fault-injection shim loads in front of them without
# ASan's link-order check; it has the implicit-conversion checks the integer
# job needs (g++ 12 has none); and it is the compiler of the libFuzzer job, so
# a finding reproduces with the same toolchain. Why g++ for valgrind: a
# sanitized binary cannot run under valgrind, and this also puts the
# default compiler's code under a memory checker.
#
# Builds go to $UTF8GUARD_SANITIZER_BUILDS (default build-sanitizers/), one
# folder per job; existing folders are reused (incremental). No argument runs
# every job. Exit status: non-zero if any job failed; every job runs.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

root=${UTF8GUARD_SANITIZER_BUILDS:-build-sanitizers}
jobs=${UTF8GUARD_SANITIZER_JOBS:-2}
selected=("$@")
[ ${#selected[@]} -eq 0 ] && selected=(asan integer tsan valgrind)

# Reports abort the process (no recovery), with a stack and source lines.
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
# The CLI tests' random and scale rounds at a fraction (tests/cli/harness.py):
# these jobs check memory and threads; scripts/test.sh runs every round.
export UTF8GUARD_CLI_REDUCED=1
# Likewise the largest exhaustive walks of the C++ tests, every 7th input
# (tests/support/reduced.hpp).
export UTF8GUARD_TESTS_REDUCED=1

# Not the nginx module: it goes into Debian's nginx, which is not built with
# a sanitizer (scripts/test.sh builds it and runs its tests, label nginx, one
# subset of them under valgrind). No Python package: a module for the system's
# Python cannot load a sanitized library.
common=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DUTF8GUARD_BUILD_BENCH=OFF
        -DUTF8GUARD_BUILD_CLI=ON -DUTF8GUARD_BUILD_TESTS=ON -DUTF8GUARD_BUILD_NGINX=OFF
        -DUTF8GUARD_BUILD_PYTHON=OFF -DUTF8GUARD_BUILD_NODE=OFF)
clang=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)

start=$SECONDS
failed=()
summary=()

# run_job NAME [--reuse DIR | CONFIGURE-ARGS] -- BUILD-TARGETS -- CTEST-ARGS
# --reuse DIR builds the targets in an existing build folder (nothing to do
# when it is up to date) instead of configuring $root/NAME.
run_job() {
  local name=$1 dir="$root/$1" t0=$SECONDS reuse=0
  shift
  if [ "${1:-}" = --reuse ]; then
    dir=$2 reuse=1
    shift 2
  fi
  local cfg=() targets=() tests=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do cfg+=("$1"); shift; done
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do targets+=("$1"); shift; done
  shift
  tests=("$@")
  printf '\n--- sanitizers: %s (%s)\n' "$name" "$dir"
  local ok=1
  if [ $reuse = 0 ]; then
    cmake -S . -B "$dir" "${common[@]}" "${cfg[@]}" >"$dir.configure.log" 2>&1 ||
      { ok=0; cat "$dir.configure.log"; }
  elif [ ! -f "$dir/CMakeCache.txt" ]; then
    echo "sanitizers: $dir is not a configured build folder" >&2
    ok=0
  fi
  if [ $ok = 1 ]; then
    [ $reuse = 1 ] || grep -h "utf8guard hardening:" "$dir.configure.log" || true
    local build=(cmake --build "$dir" -j"$jobs")
    [ ${#targets[@]} -gt 0 ] && build+=(--target "${targets[@]}")
    "${build[@]}" || ok=0
  fi
  if [ $ok = 1 ]; then
    ctest --test-dir "$dir" -j"$jobs" --output-on-failure "${tests[@]}" || ok=0
  fi
  local took=$((SECONDS - t0))
  if [ $ok = 1 ]; then
    summary+=("$(printf '%-9s passed in %4d s' "$name" "$took")")
  else
    summary+=("$(printf '%-9s FAILED after %4d s' "$name" "$took")")
    failed+=("$name")
  fi
}

mkdir -p "$root"
for job in "${selected[@]}"; do
  case $job in
    asan)
      run_job asan "${clang[@]}" -DUTF8GUARD_SANITIZE=address,undefined \
        -DUTF8GUARD_BUILD_FUZZ=ON -DUTF8GUARD_BUILD_EXAMPLES=ON -- -- \
        -LE '^(exhaustive|consumer|nginx)$' -E '^(fuzz\.oss_fuzz_build|security\.large_input_cli)$'
      ;;
    integer)
      run_job integer "${clang[@]}" \
        -DUTF8GUARD_SANITIZE=undefined,implicit-integer-truncation,implicit-integer-sign-change \
        -DUTF8GUARD_BUILD_FUZZ=OFF -DUTF8GUARD_BUILD_EXAMPLES=OFF -- \
        utf8guard_cli utf8guard_cli_shim security_vectors security_guard_pages \
        security_large_input security_first_use_threads security_complexity \
        security_c_misuse security_misuse security_percent_vectors \
        security_percent_guard_pages security_json_vectors security_json_guard_pages -- \
        -L 'security|cli'
      ;;
    tsan)
      run_job tsan "${clang[@]}" -DUTF8GUARD_SANITIZE=thread \
        -DUTF8GUARD_BUILD_FUZZ=OFF -DUTF8GUARD_BUILD_EXAMPLES=OFF -- \
        utf8guard_cli utf8guard_cli_shim security_first_use_threads kernels_dispatch_test \
        kernel_probe -- \
        -R '^(security_first_use_threads|KernelEnv\.FirstUseOnManyThreadsAgrees|cli\.(check|streams|jobs|sections|files0))$'
      ;;
    valgrind)
      if ! command -v valgrind >/dev/null; then
        echo "valgrind is not installed (scripts/install-deps.sh --ci)" >&2
        failed+=(valgrind)
        continue
      fi
      # --error-exitcode turns any memcheck error, and any definite or
      # indirect leak, into exit status 99, which no CLI test expects.
      valgrind_skip='^cli\.(sections|jobs)$'
      export UTF8GUARD_CLI_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect"
      if [ -n "${UTF8GUARD_VALGRIND_BUILD:-}" ]; then
        run_job valgrind --reuse "$UTF8GUARD_VALGRIND_BUILD" -- \
          utf8guard_cli utf8guard_cli_shim -- -L cli -E "$valgrind_skip"
      else
        run_job valgrind -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
          -DUTF8GUARD_BUILD_FUZZ=OFF -DUTF8GUARD_BUILD_EXAMPLES=OFF -- \
          utf8guard_cli utf8guard_cli_shim -- -L cli -E "$valgrind_skip"
      fi
      unset UTF8GUARD_CLI_WRAPPER
      ;;
    *)
      echo "unknown job '$job' (asan, integer, tsan, valgrind)" >&2
      failed+=("$job")
      ;;
  esac
done

printf '\n--- sanitizers: summary (%d s)\n' $((SECONDS - start))
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "sanitizers: FAILED: ${failed[*]}" >&2
  exit 1
fi
