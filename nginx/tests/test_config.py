#!/usr/bin/env python3
"""test_config.py - the directives: `nginx -t` refuses bad values, naming the
directive; "utf8guard off" in a location, detect mode, the status, the
per-part rules, the module ahead of `return`, the target checked whole and
then path and query apart, $utf8guard in the access log;
and `nginx -s reload`, with a new configuration and with a bad one."""

import re
import time
import unittest

import nginx_harness as h
from nginx_harness import Nginx, finding, request

OVERLONG = b"v=%C0%AF"
BIDI = b"v=%E2%80%AE"


class Directives(unittest.TestCase):
    def test_bad_values_fail_nginx_t(self):
        cases = [("utf8guard_headers fild;", "utf8guard_headers", '"fild" is no profile'),
                 ("utf8guard_target url,bogus;", "utf8guard_target", '"bogus" is no profile'),
                 ('utf8guard_body_json "json,,nul";', "utf8guard_body_json", "an empty name at byte 5"),
                 ("utf8guard_body_other Off;", "utf8guard_body_other", '"Off" is no profile'),
                 ("utf8guard_body_form url,-newlines;", "utf8guard_body_form", '"-newlines"'),
                 ("utf8guard_body_text field strict;", "utf8guard_body_text", "number of arguments"),
                 ("utf8guard_status 200;", "utf8guard_status", "a status from 400 to 599"),
                 ("utf8guard_status 4o3;", "utf8guard_status", "a status from 400 to 599"),
                 ("utf8guard_mode block-ish;", "utf8guard_mode", 'expected "block" or "detect"'),
                 ("utf8guard maybe;", "utf8guard", "invalid value"),
                 ("utf8guard_text_charset latin1;", "utf8guard_text_charset",
                  'expected "utf-8" or "declared"'),
                 ("utf8guard_content_encoding inflate;", "utf8guard_content_encoding",
                  'expected "refuse" or "pass"'),
                 ("utf8guard_body_none nul,x;", "utf8guard_body_none", '"x" is no profile'),
                 ("utf8guard_body_file on;", "utf8guard_body_file", '"on" is no profile'),
                 ("utf8guard_target url; utf8guard_target url;", "utf8guard_target", "is duplicate")]
        for directive, name, why in cases:
            with self.subTest(directive=directive):
                n = Nginx(http=directive if directive.startswith("utf8guard ") else
                          "utf8guard on; " + directive)
                try:
                    status, err = n.test_conf()
                finally:
                    n.__exit__(None, None, None)
                self.assertEqual(status, 1, err)
                self.assertIn("[emerg]", err)
                self.assertRegex(err, r'"%s" directive' % re.escape(name))
                self.assertIn(why, err)
        n = Nginx(http='utf8guard on; utf8guard_mode detect; utf8guard_status 403; '
                       'utf8guard_headers "field,-newline"; utf8guard_target "url,+private_use"; '
                       'utf8guard_body_form off; utf8guard_body_text "source,-bom"; '
                       'utf8guard_body_none off; utf8guard_body_file strict; '
                       'utf8guard_text_charset declared; utf8guard_content_encoding pass;')
        try:
            status, err = n.test_conf()
        finally:
            n.__exit__(None, None, None)
        self.assertEqual(status, 0, err)


class Site(h.SiteTest):
    def expect(self, raw, status, findings):
        self.assertEqual(self.nginx.exchange(raw), status)
        self.assertEqual(self.nginx.new_findings(), findings)

    def test_locations(self):
        bad = finding("query", OVERLONG, h.TARGET, True)
        self.assertEqual(bad, "query: overlong at byte 2 (C0 AF) [overlong_form U+002F]")
        self.expect(request(b"GET", b"/on/?" + OVERLONG), 400, [bad])
        self.expect(request(b"GET", b"/off/?" + OVERLONG), 200, [])
        self.expect(request(b"GET", b"/detect/?" + OVERLONG), 200, [bad])
        ours = [line for line in self.nginx.error_log().decode(errors="replace").splitlines()
                if " utf8guard: " in line]
        self.assertIn(" [warn] ", ours[-1])  # detect mode logs a warning, block an error
        self.assertIn(" [error] ", ours[-2])
        self.expect(request(b"GET", b"/forbidden/?" + OVERLONG), 403, [bad])
        # The rewrite phase's handlers: the module's runs before `return`.
        self.expect(request(b"GET", b"/return/?" + OVERLONG), 400, [bad])
        self.expect(request(b"GET", b"/return/?v=%C3%A9"), 200, [])
        # The body follows the location's setting too.
        json = [(b"Content-Type", b"application/json")]
        body = b'{"a":"\xf4\x90\x80\x80"}'
        want = finding("body", body, h.JSON, False)
        self.expect(request(b"POST", b"/on/", json, body, chunked=True), 400, [want])
        self.expect(request(b"POST", b"/off/", json, body, chunked=True), 200, [])
        self.expect(request(b"POST", b"/detect/", json, body, chunked=True), 200, [want])
        self.expect(request(b"POST", b"/forbidden/", json, body), 403, [want])

    def test_rules_per_part(self):
        bidi = finding("query", BIDI, h.TARGET, True)
        self.assertIsNotNone(bidi)
        self.expect(request(b"GET", b"/on/?" + BIDI), 400, [bidi])
        self.expect(request(b"GET", b"/strict/?" + BIDI), 200, [])
        self.expect(request(b"GET", b"/strict/?" + OVERLONG), 400,
                    [finding("query", OVERLONG, h.TEXT, True)])
        json = [(b"Content-Type", b"application/json")]
        body = b'{"a":"\xc0"}'
        self.expect(request(b"POST", b"/on/", json, body), 400, [finding("body", body, h.JSON, False)])
        self.expect(request(b"POST", b"/strict/", json, body), 200, [])
        other = [(b"Content-Type", b"application/octet-stream")]
        self.expect(request(b"POST", b"/on/", other, body), 200, [])
        self.expect(request(b"POST", b"/strict/", other, body), 400,
                    [finding("body", body, h.TEXT, False)])
        latin1 = [(b"Content-Type", b"text/plain; charset=iso-8859-1")]
        self.expect(request(b"POST", b"/on/", latin1, b"caf\xe9"), 400,
                    [finding("body", b"caf\xe9", h.TEXT, False)])
        self.expect(request(b"GET", b"/on/", [(b"Cookie", b"a=b; c=\xed\xa0\x80")]), 400,
                    [finding("header Cookie", b"a=b; c=\xed\xa0\x80", h.HEADERS, False)])

    def test_target_whole_then_path_and_query(self):
        # A clean target is answered by one check of path and query
        # together; one that is not, by each on its own, from its own byte
        # 0: a BOM that starts the query is a signature there, not a finding.
        rule = h.TARGET | {"bom"}
        self.expect(request(b"GET", b"/bom/?%EF%BB%BFa=1"), 200, [])
        self.expect(request(b"GET", b"/bom/?a=1"), 200, [])
        query = b"a=%EF%BB%BF"
        self.expect(request(b"GET", b"/bom/?" + query), 400,
                    [finding("query", query, rule, True)])
        path = b"/bom/%EF%BB%BF"
        self.expect(request(b"GET", path + b"?a=1"), 400, [finding("path", path, rule, True)])
        self.expect(request(b"GET", b"/bom/?" + OVERLONG), 400,
                    [finding("query", OVERLONG, rule, True)])

    def new_access_lines(self, before, count):
        """The access log's lines after the first |before|, once |count| are
        there: nginx writes a request's line after its response."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            lines = self.nginx.access_log()[before:]
            if len(lines) >= count:
                return sorted(lines)
            time.sleep(0.05)
        return sorted(self.nginx.access_log()[before:])

    def test_variable_in_access_log(self):
        # Each request logs twice: the client's request and the sink's, where
        # the module is off.
        before = len(self.nginx.access_log())
        self.expect(request(b"GET", b"/detect/?" + OVERLONG), 200,
                    [finding("query", OVERLONG, h.TARGET, True)])
        self.assertEqual(self.new_access_lines(before, 2),
                         ['200 ""', '200 "query: overlong at byte 2 (C0 AF) [overlong_form U+002F]"'])
        before = len(self.nginx.access_log())
        self.expect(request(b"GET", b"/on/?v=%C3%A9"), 200, [])
        self.assertEqual(self.new_access_lines(before, 2), ['200 ""', '200 ""'])
        before = len(self.nginx.access_log())
        self.expect(request(b"GET", b"/on/?" + OVERLONG), 400,
                    [finding("query", OVERLONG, h.TARGET, True)])
        self.assertEqual(self.new_access_lines(before, 1),
                         ['400 "query: overlong at byte 2 (C0 AF) [overlong_form U+002F]"'])


class Reload(unittest.TestCase):
    def test_reload(self):
        with Nginx() as n:
            self.assertEqual(n.exchange(request(b"GET", b"/on/?" + BIDI)), 400)
            n.write_conf(http="utf8guard on; utf8guard_target strict;")
            self.assertEqual(n.reload()[0], 0)
            self.assertEqual(n.exchange(request(b"GET", b"/on/?" + BIDI)), 200)
            self.assertEqual(n.exchange(request(b"GET", b"/on/?" + OVERLONG)), 400)
            # A bad value: the reload is refused and the running configuration stays.
            n.write_conf(http="utf8guard on; utf8guard_target stricter;")
            status, err = n.reload()
            self.assertEqual(status, 1)
            self.assertIn('"utf8guard_target" directive', err)
            self.assertEqual(n.exchange(request(b"GET", b"/on/?" + BIDI)), 200)
            self.assertEqual(n.exchange(request(b"GET", b"/on/?" + OVERLONG)), 400)
            n.write_conf(http="utf8guard off;")
            self.assertEqual(n.reload()[0], 0)
            self.assertEqual(n.exchange(request(b"GET", b"/on/?" + OVERLONG)), 200)
            self.assertNotIn(b"exited on signal", n.error_log())


if __name__ == "__main__":
    h.main()
