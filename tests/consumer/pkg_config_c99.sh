#!/bin/sh
# pkg_config_c99.sh PREFIX PKGCONFIGDIR WORKDIR CC SOURCE VERSION static|shared [FUZZ]
#
# Builds a C99 program against an installed utf8guard the way a Makefile
# would, `cc -std=c99 prog.c $(pkg-config --cflags --libs utf8guard)`, and
# runs it; for the static library also with `--static`, which must link too.
# Checks first that the .pc points into PREFIX (the prefix given to `cmake
# --install --prefix`, not the one configured) and carries VERSION.
# CFLAGS and LDFLAGS from the environment are added (the build's own flags,
# e.g. sanitizers). Exit 77 (ctest: skipped) when pkg-config is not installed.
# With FUZZ=ON, also consumer_fuzz.c (next to SOURCE) against utf8guard-fuzz,
# loading the AFL++ module the .pc names and checking its dictionary is there.
set -eu
prefix=$1 pcdir=$2 work=$3 cc=$4 source=$5 version=$6 mode=$7 fuzz=${8:-OFF}

if ! command -v pkg-config >/dev/null 2>&1; then
  echo "pkg-config is not installed: skipped"
  exit 77
fi
PKG_CONFIG_PATH=$prefix/$pcdir
export PKG_CONFIG_PATH

got=$(pkg-config --variable=prefix utf8guard)
[ "$got" = "$prefix" ] || { echo "utf8guard.pc: prefix=$got, expected $prefix" >&2; exit 1; }
got=$(pkg-config --modversion utf8guard)
[ "$got" = "$version" ] || { echo "utf8guard.pc: version $got, expected $version" >&2; exit 1; }

case $mode in
  static) ways="plain --static" ;;  # a Makefile's plain --libs must link too
  shared) ways="plain" ;;
  *) echo "mode must be static or shared" >&2; exit 2 ;;
esac
if [ "$mode" = shared ]; then
  # cc sets no RUNPATH: find the library the way an installed system would.
  LD_LIBRARY_PATH=$(pkg-config --variable=libdir utf8guard)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export LD_LIBRARY_PATH
fi
for way in $ways; do
  extra=""
  [ "$way" = plain ] || extra=$way
  rm -rf "$work"
  mkdir -p "$work"
  flags=$(pkg-config --cflags --libs ${extra:+"$extra"} utf8guard)
  echo "+ $cc -std=c99 -pedantic-errors -Wall -Wextra -Werror ... $source $flags"
  # shellcheck disable=SC2086  # the flags are meant to split into words
  "$cc" -std=c99 -pedantic-errors -Wall -Wextra -Werror ${CFLAGS:-} \
    "-DEXPECTED_VERSION=\"$version\"" "$source" -o "$work/consumer_c" ${LDFLAGS:-} $flags
  "$work/consumer_c"
done

[ "$fuzz" = ON ] || exit 0
got=$(pkg-config --modversion utf8guard-fuzz)
[ "$got" = "$version" ] || { echo "utf8guard-fuzz.pc: version $got, expected $version" >&2; exit 1; }
dict=$(pkg-config --variable=dictionary utf8guard-fuzz)
[ -f "$dict" ] || { echo "utf8guard-fuzz.pc: dictionary $dict is missing" >&2; exit 1; }
afl=$(pkg-config --variable=afl_mutator utf8guard-fuzz)
[ -z "$afl" ] || [ -f "$afl" ] || { echo "utf8guard-fuzz.pc: afl_mutator $afl is missing" >&2; exit 1; }
fuzz_source=$(dirname "$source")/consumer_fuzz.c
for way in $ways; do
  extra=""
  [ "$way" = plain ] || extra=$way
  flags=$(pkg-config --cflags --libs ${extra:+"$extra"} utf8guard-fuzz)
  echo "+ $cc -std=c99 ... $fuzz_source $flags"
  # shellcheck disable=SC2086  # the flags are meant to split into words
  "$cc" -std=c99 -pedantic-errors -Wall -Wextra -Werror ${CFLAGS:-} \
    ${afl:+"-DAFL_MUTATOR=\"$afl\""} "$fuzz_source" -o "$work/consumer_fuzz" ${LDFLAGS:-} $flags -ldl
  "$work/consumer_fuzz"
done
