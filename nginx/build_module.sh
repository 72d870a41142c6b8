#!/usr/bin/env bash
# build_module.sh NGINX_SRC WORK LIBUTF8GUARD INCLUDE_DIR... - builds
# ngx_http_utf8guard_module.so for the nginx whose sources NGINX_SRC holds
# (Debian's nginx-dev: /usr/share/nginx/src), in WORK/objs/.
#
# A dynamic module loads only into an nginx configured as it was: the module
# signature (--with-compat and the features it implies) and the structures'
# layout must match. nginx-dev records the package's ./configure flags in
# conf_flags; the compiler and linker flags are those `nginx -V` shows for
# Debian's build (hardening: stack protector, FORTIFY_SOURCE, RELRO, now).
set -euo pipefail
src=$1 work=$2 lib=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)

[ -f "$src/conf_flags" ] || { echo "build_module.sh: no $src/conf_flags (is nginx-dev installed?)" >&2; exit 2; }
# shellcheck disable=SC1091
. "$src/conf_flags"

export UTF8GUARD_LIB=$lib UTF8GUARD_INCS="$*"
# Configured once per build folder (again when this script or config change);
# each build relinks, since the Makefile does not know libutf8guard.a.
if [ ! -f "$work/objs/Makefile" ] || [ "$here/config" -nt "$work/objs/Makefile" ] ||
   [ "$0" -nt "$work/objs/Makefile" ]; then
  rm -rf "$work"
  mkdir -p "$work"
  cp -a "$src/." "$work/"
  cd "$work"
  ./configure "${NGX_CONF_FLAGS[@]}" \
    --with-cc-opt='-g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fPIC -Wdate-time -D_FORTIFY_SOURCE=2' \
    --with-ld-opt='-Wl,-z,relro -Wl,-z,now -fPIC' \
    --add-dynamic-module="$here" >configure.log 2>&1 ||
    { cat configure.log >&2; exit 1; }
fi
cd "$work"
rm -f objs/ngx_http_utf8guard_module.so
make -f objs/Makefile modules >make.log 2>&1 || { cat make.log >&2; exit 1; }
