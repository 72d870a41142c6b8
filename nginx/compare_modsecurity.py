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

Usage: compare_modsecurity.py --nginx /usr/sbin/nginx --module PATH [--out FILE]
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "tests"))
import nginx_harness as h  # noqa: E402
import test_attacks as attacks  # noqa: E402

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
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
