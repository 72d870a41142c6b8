#!/bin/sh
# install_sarif_multitool.sh [DIR] - install Microsoft's SARIF multitool
# (@microsoft/sarif-multitool, from npm) into DIR (default build-tools/sarif-multitool
# at the repository's root, which git ignores), for tests/cli/test_formats.py:
# it validates the CLI's SARIF with `sarif-multitool validate`. Run by
# scripts/install-deps.sh --ci; needs npm and the npm registry.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/build-tools/sarif-multitool}
version=5.7.0
tool=$dir/node_modules/.bin/sarif-multitool
if [ -x "$tool" ] && "$tool" --version 2>/dev/null | grep -q "$version"; then
  echo "install_sarif_multitool: $tool is there"
  exit 0
fi
command -v npm >/dev/null || { echo "install_sarif_multitool: npm not found" >&2; exit 2; }
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --no-save "@microsoft/sarif-multitool@$version"
# The package's postinstall makes the binary executable; do it also where
# npm does not run install scripts.
chmod u+x "$dir"/node_modules/@microsoft/sarif-multitool-*/Sarif.Multitool 2>/dev/null || true
"$tool" --version >/dev/null
echo "install_sarif_multitool: installed $tool"
