#!/bin/sh
# install-deps.sh [--ci] - install what utf8guard needs from Debian 12, as root.
#
# Without --ci: what the default build and the whole test suite need (the
# README's quick start). With --ci: also the compilers, engines and emulators
# the CI-only jobs use (clang sanitizers, libFuzzer, AFL++, qemu, valgrind,
# and the decoders examples/fuzzing checks: libxml2, glib, jansson).
# Runs `apt-get update` once, and only when a package is missing. --ci then
# installs the SARIF multitool from npm (tests/cli/install_sarif_multitool.sh).
set -eu

BUILD="cmake ninja-build g++ make pkg-config python3 git ca-certificates
  libgtest-dev libgmock-dev librapidcheck-dev libicu-dev
  libbenchmark-dev libutf8proc-dev libutfcpp-dev libsimde-dev nodejs unicode-data
  liburiparser-dev libcurl4-openssl-dev libsimdjson-dev
  nginx nginx-dev libnginx-mod-http-modsecurity modsecurity-crs wrk curl
  python3-dev python3-setuptools python3-pip python3-venv python3-pytest python3-hypothesis
  python3-uvicorn python3-starlette gunicorn python3-flask python3-django pre-commit mypy"
CI="clang libclang-rt-14-dev llvm lld afl++ qemu-user g++-aarch64-linux-gnu
  libc6-dev-arm64-cross valgrind binutils zip unzip file moreutils hyperfine procps
  libxml2-dev libglib2.0-dev libjansson-dev"

# npm (the Node.js package's dependencies, node/package.json): Debian's,
# unless one is on PATH already.
command -v npm >/dev/null || BUILD="$BUILD npm"
pkgs=$BUILD
[ "${1:-}" = "--ci" ] && pkgs="$BUILD $CI"
sarif() { [ "${1:-}" != "--ci" ] || "$(dirname "$0")/../tests/cli/install_sarif_multitool.sh"; }

missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "install-deps: everything is installed"
  sarif "$@"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing:$missing; run this script as root (or with sudo)" >&2
  exit 2
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2086  # the list is meant to split into words
apt-get install -y --no-install-recommends $missing
sarif "$@"
