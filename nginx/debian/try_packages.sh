#!/bin/sh
# try_packages.sh BUILD - installs the two packages `cpack -G DEB` wrote in
# BUILD with apt, checks that Debian's nginx loads the module from its
# modules-enabled link and blocks an overlong '/' in a query, then purges
# them. Root only, on a Debian 12 machine with nginx (it changes the system
# for a few seconds: run it by hand, or in a throwaway container).
set -eu
build=$(cd "$1" && pwd)
prefix=$(mktemp -d)
chmod 755 "$prefix"
# The snippet names the module as Debian's do, relative to the prefix.
ln -s /usr/lib/nginx/modules "$prefix/modules"
port=${UTF8GUARD_TRY_PORT:-18741}
cleanup() {
  [ -f "$prefix/nginx.pid" ] && kill -QUIT "$(cat "$prefix/nginx.pid")" 2>/dev/null || true
  sleep 0.5
  DEBIAN_FRONTEND=noninteractive apt-get purge -y -q utf8guard libnginx-mod-http-utf8guard >/dev/null
  rm -rf "$prefix"
}
trap cleanup EXIT
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$build"/utf8guard_*.deb \
  "$build"/libnginx-mod-http-utf8guard_*.deb >/dev/null
test -L /etc/nginx/modules-enabled/50-mod-http-utf8guard.conf
utf8guard --version | head -1
nginx -t -q
cat >"$prefix/nginx.conf" <<CONF
include /etc/nginx/modules-enabled/50-mod-http-utf8guard.conf;
pid $prefix/nginx.pid;
error_log $prefix/error.log;
events { }
http {
    access_log off;
    client_body_temp_path $prefix/body;
    utf8guard on;
    server { listen 127.0.0.1:$port; location / { return 200 "ok\n"; } }
}
CONF
nginx -p "$prefix" -c "$prefix/nginx.conf"
sleep 0.5
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/?a=%C0%AF")
clean=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/?a=%C3%A9")
grep -o 'utf8guard: query: [^,]*' "$prefix/error.log"
[ "$status" = 400 ] && [ "$clean" = 200 ]
echo "try_packages: installed, loaded by Debian's nginx, blocked (400) and let through (200)"
