#!/usr/bin/env python3
"""compare_modsecurity.py - every row of security/vectors/vectors.tsv against
the same nginx (Debian 12's) in three setups, and who blocks it:

  utf8guard        ngx_http_utf8guard_module, "utf8guard on;" and nothing else
  CRS              ModSecurity v3 (libnginx-mod-http-modsecurity) with the
                   OWASP CRS (modsecurity-crs) as Debian ships them: Debian's
                   /etc/nginx/modsecurity.conf, then "SecRuleEngine On" (the
                   file says DetectionOnly, which blocks nothing) and
                   "SecAuditEngine Off" (no audit log outside the prefix),
                   then the files /usr/share/modsecurity-crs/owasp-crs.load
                   names, each by Include (ModSecurity v3 has no
                   IncludeOptional)
  CRS+920250       the same, with CRS's UTF-8 rule 920250 switched on by
                   "SecAction id:900950,phase:1,pass,nolog,
                   setvar:tx.crs_validate_utf8_encoding=1" before the CRS

Each row goes in five places (nginx_harness's cases, as the nginx tests send
them): the query and the path percent-encoded (Q, P), a header raw (H), a
form body percent-encoded (F) and a JSON body raw (J); a cell lists the
places where the answer was an error status (4xx/5xx); the last column, the
places where rule 920250 matched (logged) in the third setup. A raw header that
HTTP cannot carry (NUL, CR, LF) is not sent. Prints a Markdown table.

Then the ways around a guard that a client can choose (BYPASSES: internal
redirects, charsets and Content-Type games, header names, content codings,
JSON escapes, multipart file names and fields), each against the same three
setups with an application behind nginx, the guard on where the application
is; a cell is the status the client got and "app" when the application
received the request. Prints a second Markdown table.

Usage: compare_modsecurity.py --nginx /usr/sbin/nginx --module PATH [--out FILE]
"""

import argparse
import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "tests"))
import nginx_harness as h  # noqa: E402
import test_attacks as attacks  # noqa: E402
from nginx_harness import request  # noqa: E402

MODULES_DIR = "/usr/lib/nginx/modules"
MODSECURITY = [os.path.join(MODULES_DIR, "ndk_http_module.so"),
               os.path.join(MODULES_DIR, "ngx_http_modsecurity_module.so")]
CRS = ["/etc/modsecurity/crs/crs-setup.conf",
       "/etc/modsecurity/crs/REQUEST-900-EXCLUSION-RULES-BEFORE-CRS.conf",
       "/usr/share/modsecurity-crs/rules/*.conf",
       "/etc/modsecurity/crs/RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf"]
RULES = """Include /etc/nginx/modsecurity.conf
SecRuleEngine On
SecAuditEngine Off
{extra}
{crs}
"""
UTF8_RULE = ('SecAction "id:900950,phase:1,pass,nolog,t:none,'
             'setvar:tx.crs_validate_utf8_encoding=1"')

SERVER = """
    location / {{
        proxy_pass http://127.0.0.1:{port}/sink/;
    }}
    location /sink/ {{
        {off}
        return 200 "ok\\n";
    }}
"""

# The bypass layouts: the guard ({on}) where the application is, off ({off})
# where the redirects start, as in "guard the application only".
BYPASS_SERVER = """
    ignore_invalid_headers off;
    root {prefix}/html;
    rewrite ^/old/(.*)$ /app/$1;
    location / {{
        {off}
        try_files $uri /index.php?$args;
    }}
    location ~ \\.php$ {{
        {on}
        proxy_pass http://127.0.0.1:{app};
    }}
    location /app/ {{
        {on}
        proxy_pass http://127.0.0.1:{app};
    }}
    location /last/ {{
        {off}
        rewrite ^ /app/last last;
    }}
    location /named/ {{
        {off}
        try_files /nonexistent @app;
    }}
    location @app {{
        {on}
        proxy_pass http://127.0.0.1:{app};
    }}
    location /to-app/ {{
        {on}
        error_page 400 403 = @app;
        proxy_pass http://127.0.0.1:{app};
    }}
"""

BAD_JSON = b'{"a":"\xc0\xaf"}'
BOUNDARY = b"guardBoundary"


def ct(value):
    return [(b"Content-Type", value)]


def post(target, headers, body):
    return request(b"POST", target, headers, body)


def multipart(disposition, body=b"x"):
    return post(b"/app/", ct(b"multipart/form-data; boundary=" + BOUNDARY),
                b"--" + BOUNDARY + b"\r\nContent-Disposition: " + disposition + b"\r\n\r\n" +
                body + b"\r\n--" + BOUNDARY + b"--\r\n")


# (name, raw request): each one a client's way to have bad bytes reach the
# application past a guard that blocks them when sent the plain way.
BYPASSES = [
    ("try_files to /index.php, query", request(b"GET", b"/x?a=%C0%AF")),
    ("try_files to /index.php, path", request(b"GET", b"/x%C0%AF")),
    ("server-level rewrite", request(b"GET", b"/old/%C0%AF")),
    ("rewrite ... last", request(b"GET", b"/last/?a=%C0%AF")),
    ("named location", request(b"GET", b"/named/?a=%C0%AF")),
    ("error_page to the application", request(b"GET", b"/to-app/?a=%C0%AF")),
    ("JSON, charset=latin1", post(b"/app/", ct(b"application/json; charset=latin1"), BAD_JSON)),
    ("JSON, charset=x", post(b"/app/", ct(b"application/json; charset=x"), BAD_JSON)),
    ("no Content-Type", post(b"/app/", [], BAD_JSON)),
    ("text/plain; charset=iso-8859-1",
     post(b"/app/", ct(b"text/plain; charset=iso-8859-1"), b"..\xc0\xaf..")),
    ("form, charset=latin1",
     post(b"/app/", ct(b"application/x-www-form-urlencoded; charset=latin1"), b"a=%C0%AF")),
    ('quoted ";charset=latin1"',
     post(b"/app/", ct(b'application/json; x="a;charset=latin1"'), BAD_JSON)),
    ("charset=utf_8", post(b"/app/", ct(b"text/plain; charset=utf_8"), b"..\xc0\xaf..")),
    ("two Content-Types",
     post(b"/app/", ct(b"application/octet-stream") + ct(b"application/x-www-form-urlencoded"),
          b"a=%C0%AF")),
    ("header name", request(b"GET", b"/app/", [(b"X-\xc0\xaf\xe2\x80\xae", b"v")])),
    ("Content-Encoding: gzip",
     post(b"/app/", [(b"Content-Encoding", b"gzip")] + ct(b"application/json"),
          gzip.compress(BAD_JSON, mtime=0))),
    ('JSON "\\ud800"', post(b"/app/", ct(b"application/json"), b'{"a":"\\ud800"}')),
    ('JSON "\\u202e"', post(b"/app/", ct(b"application/json"), b'{"a":"\\u202e"}')),
    ('JSON "\\u0000"', post(b"/app/", ct(b"application/json"), b'{"a":"\\u0000"}')),
    ('JSON "\\uffff"', post(b"/app/", ct(b"application/json"), b'{"a":"\\uffff"}')),
    ("multipart filename, bidi",
     multipart(b'form-data; name="f"; filename="photo\xe2\x80\xaegpj.exe"')),
    ("multipart filename, ..%C0%AF..", multipart(b'form-data; name="f"; filename="..%C0%AF.."')),
    ("multipart filename, raw C0 AF",
     multipart(b'form-data; name="f"; filename="..\xc0\xaf.."')),
    ("multipart filename, NUL", multipart(b'form-data; name="f"; filename="shell.php\x00.jpg"')),
    ("multipart text field", multipart(b'form-data; name="t"', b"..\xc0\xaf..")),
]

PLACES = [("Q", attacks.query_case, True), ("P", attacks.path_case, True),
          ("H", attacks.header_case, False), ("F", attacks.form_case, True),
          ("J", attacks.json_case, False)]


def setups(prefix):
    out = [("utf8guard", dict(modules=[h.MODULE], http="utf8guard on;",
                              server=SERVER.replace("{off}", "utf8guard off;")))]
    for name, extra in (("CRS", ""), ("CRS+920250", UTF8_RULE)):
        rules = os.path.join(prefix, name.replace("+", "_") + ".conf")
        with open(rules, "w") as f:
            f.write(RULES.format(extra=extra, crs="\n".join("Include " + c for c in CRS)))
        out.append((name, dict(modules=MODSECURITY,
                               http="modsecurity on; modsecurity_rules_file %s;" % rules,
                               server=SERVER.replace("{off}", "modsecurity off;"))))
    return out


def bypass_setups(prefix):
    """The three setups over BYPASS_SERVER: (name, Nginx arguments)."""
    out = []
    for name, conf in setups(prefix):
        on, off = (("utf8guard on;", "utf8guard off;") if name == "utf8guard" else
                   ("modsecurity on;", "modsecurity off;"))
        http = conf["http"].replace("utf8guard on;", "")
        out.append((name, dict(modules=conf["modules"], http=http,
                               server=BYPASS_SERVER.replace("{on}", on).replace("{off}", off))))
    return out


def bypass_cells(n, app):
    """Each bypass's answer: the status, and " app" when the application got it."""
    cells = []
    for _, raw in BYPASSES:
        status = n.exchange(raw, timeout=30)
        cells.append("%d%s" % (status, " app" if app.take() else ""))
    return cells


def blocked_places(n, payload):
    """The places where the payload got an error status, and those where
    rule 920250 matched (ModSecurity logs a match in nginx's error log)."""
    blocked = matched = ""
    for letter, case, encode in PLACES:
        p = attacks.encode(payload) if encode else payload
        if not encode and case is attacks.header_case and not attacks.carried_in_header(p):
            continue
        raw = case(p)[0]
        mark = len(n.error_log())
        if n.exchange(raw, timeout=30) >= 400:
            blocked += letter
        if b'[id "920250"]' in n.error_log()[mark:]:
            matched += letter
    return blocked or "-", matched or "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nginx", default="/usr/sbin/nginx")
    parser.add_argument("--module", required=True)
    parser.add_argument("--out")
    args = parser.parse_args()
    h.NGINX, h.MODULE = args.nginx, os.path.abspath(args.module)
    rows = attacks.rows()
    results = {}
    scratch = h.Nginx(modules=[])  # a prefix for the rules files
    try:
        for name, conf in setups(scratch.prefix):
            with h.Nginx(start_timeout=60, **conf) as n:
                cells = [blocked_places(n, payload) for _, payload in rows]
                results[name] = [blocked for blocked, _ in cells]
                if name == "CRS+920250":
                    results["920250 matched"] = [matched for _, matched in cells]
        with h.Upstream() as app:
            bypass = {}
            for name, conf in bypass_setups(scratch.prefix):
                with h.Nginx(start_timeout=60, values={"app": app.port}, **conf) as n:
                    bypass[name] = bypass_cells(n, app)
    finally:
        scratch.__exit__(None, None, None)
    names = list(results)
    lines = ["| row | kind | " + " | ".join(names) + " |",
             "|---|---|" + "---|" * len(names)]
    kinds = {}
    with open(attacks.VECTORS, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) > 2 and not line.startswith("#"):
                kinds[cols[0]] = cols[2]
    for i, (row, _) in enumerate(rows):
        lines.append("| %s | %s | " % (row, kinds[row]) +
                     " | ".join(results[n][i] for n in names) + " |")
    blockers = names[:3]
    totals = {n: sum(r != "-" for r in results[n]) for n in blockers}
    complete = {n: sum(len(r) >= 4 for r in results[n]) for n in blockers}
    lines.append("")
    lines.append("Rows blocked somewhere: " + ", ".join("%s %d" % (n, totals[n]) for n in blockers) +
                 " (of %d); in at least four places: " % len(rows) +
                 ", ".join("%s %d" % (n, complete[n]) for n in blockers) + ".")
    setups_run = list(bypass)
    lines += ["", "| way around | " + " | ".join(setups_run) + " |",
              "|---|" + "---|" * len(setups_run)]
    for i, (case, _) in enumerate(BYPASSES):
        lines.append("| %s | " % case.replace("|", "\\|") +
                     " | ".join(bypass[n][i] for n in setups_run) + " |")
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
