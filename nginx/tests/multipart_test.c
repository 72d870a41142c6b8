/* multipart_test.c - the multipart/form-data checker (src/multipart.h):
 * every attack and every malformed body of the table is a finding, with its
 * words; clean forms (multilingual fields and file names, binary files) pass;
 * the same body split at every byte, and fed one byte at a time, gives the
 * finding of one feed; each kernel of the vectorized scan agrees with its
 * definition (this file includes src/multipart.c to reach them).
 * Usage: multipart_test MULTILINGUAL (nginx/tests/multilingual.txt). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multipart.c"
#include "unit_check.h"

/* The rules of a default configuration: header values under "field", text
 * fields under the form rule (read raw), files off. */
static ug_rule header_rule, field_rule, file_rule;

static void default_rules(void) {
  header_rule = ug_rule_default(UG_SLOT_HEADERS);
  field_rule = ug_rule_default(UG_SLOT_BODY_FORM);
  file_rule.on = false;
  file_rule.encoding = UG_ENCODING_RAW;
  file_rule.policy = 0;
}

#define BOUNDARY "XyZ"

/* Feeds body[0..len) in the chunks cuts[0..ncuts) end, then finishes; the
 * finding's text goes to |out| ("" when clean). Returns -1 when a finding is
 * handed out twice, or a call after it answers. */
static int run(const char* boundary, size_t blen, const char* body, size_t len, const size_t* cuts,
               size_t ncuts, char* out) {
  static ug_multipart m; /* 4 KiB and more: not on the stack of every call */
  ug_finding f;
  ug_multipart_init(&m, boundary, blen, &header_rule, &field_rule, &file_rule);
  int ready = 0;
  size_t at = 0;
  out[0] = '\0';
  for (size_t i = 0; i <= ncuts; i++) {
    size_t end = i < ncuts ? cuts[i] : len;
    if (ug_multipart_feed(&m, body + at, end - at, &f)) {
      if (ready) return -1;
      ready = 1;
      if (f.len != strlen(f.text)) return -1;
      strcpy(out, f.text);
    }
    at = end;
  }
  if (ug_multipart_finish(&m, &f)) {
    if (ready) return -1;
    ready = 1;
    if (f.len != strlen(f.text)) return -1;
    strcpy(out, f.text);
  }
  if (ug_multipart_finish(&m, &f) || ug_multipart_feed(&m, "\xff", 1, &f)) return -1;
  for (const char* c = out; *c; c++)
    if (*c < 0x20 || *c > 0x7E) return -1; /* printable ASCII only */
  return ready;
}

static size_t cuts[1 << 17];

/* The body's finding in one feed is |want| (NULL: clean); split at every byte
 * (bodies up to |split_max|), in 1-byte feeds and in random chunks, the same. */
static void check_body(const char* what, const char* boundary, const char* body, size_t len,
                       const char* want, size_t split_max) {
  char one[UG_FINDING_MAX], got[UG_FINDING_MAX];
  int r = run(boundary, boundary ? strlen(boundary) : 0, body, len, cuts, 0, one);
  if (r < 0 || (want == NULL ? r != 0 : (r != 1 || strcmp(one, want) != 0))) {
    fprintf(stderr, "%s: got %d \"%s\"\n  want \"%s\"\n", what, r, one, want ? want : "(clean)");
    failures++;
    return;
  }
  size_t blen = boundary ? strlen(boundary) : 0;
  for (size_t c = 0; len <= split_max && c <= len; c++) {
    cuts[0] = c;
    if (run(boundary, blen, body, len, cuts, 1, got) != r || strcmp(got, one) != 0) {
      fprintf(stderr, "%s: split at %zu: \"%s\", one feed \"%s\"\n", what, c, got, one);
      failures++;
      return;
    }
  }
  size_t n = 0;
  for (size_t c = 1; c < len && n < sizeof cuts / sizeof cuts[0]; c++) cuts[n++] = c;
  if (run(boundary, blen, body, len, cuts, n, got) != r || strcmp(got, one) != 0) {
    fprintf(stderr, "%s: 1-byte feeds: \"%s\", one feed \"%s\"\n", what, got, one);
    failures++;
  }
  for (int round = 0; round < 20; round++) {
    n = 0;
    for (size_t at = 0; n < sizeof cuts / sizeof cuts[0];) {
      at += 1 + rng() % 97;
      if (at >= len) break;
      cuts[n++] = at;
    }
    if (run(boundary, blen, body, len, cuts, n, got) != r || strcmp(got, one) != 0) {
      fprintf(stderr, "%s: random chunks: \"%s\", one feed \"%s\"\n", what, got, one);
      failures++;
      return;
    }
  }
}

#define CHECK_BODY(what, body, want) check_body(what, BOUNDARY, body, sizeof body - 1, want, 8192)

/* A part's lines. */
#define DISP(params) "Content-Disposition: form-data; " params "\r\n"
#define PART(headers, body) "--" BOUNDARY "\r\n" headers "\r\n" body "\r\n"
#define CLOSE "--" BOUNDARY "--\r\n"
#define FIELD(name, value) PART(DISP("name=\"" name "\""), value)
#define FILE_PART(filename, body) \
  PART(DISP("name=\"f\"; filename=\"" filename "\"") "Content-Type: image/jpeg\r\n", body)

/* ---- The attacks ---- */

static void test_attacks(void) {
  CHECK_BODY("bidi in filename", FILE_PART("photo\xE2\x80\xAEgpj.exe", "x") CLOSE,
             "multipart part 1 header Content-Disposition: disallowed bidi U+202E at byte 36 "
             "(E2 80 AE 67)");
  CHECK_BODY("percent-encoded overlong in filename", FILE_PART("..%C0%AF..", "x") CLOSE,
             "multipart part 1 header Content-Disposition filename: overlong at byte 2 (C0 AF 2E "
             "2E) [overlong_form U+002F]");
  CHECK_BODY("raw overlong in filename", FILE_PART("..\xC0\xAF..", "x") CLOSE,
             "multipart part 1 header Content-Disposition: overlong at byte 33 (C0 AF 2E 2E) "
             "[overlong_form U+002F]");
  CHECK_BODY("NUL in filename", FILE_PART("shell.php\0.jpg", "x") CLOSE,
             "multipart part 1 header Content-Disposition: disallowed nul U+0000 at byte 40 (00 "
             "2E 6A 70)");
  CHECK_BODY("percent-encoded NUL in filename", FILE_PART("shell.php%00.jpg", "x") CLOSE,
             "multipart part 1 header Content-Disposition filename: disallowed nul U+0000 at "
             "byte 9 (00 2E 6A 70)");
  CHECK_BODY("percent-encoded line break in filename", FILE_PART("a%0D%0A.txt", "x") CLOSE,
             "multipart part 1 header Content-Disposition filename: disallowed newline U+000D at "
             "byte 1 (0D 0A 2E 74)");
  CHECK_BODY("bidi in filename*",
             PART(DISP("name=\"f\"; filename*=UTF-8''photo%E2%80%AEgpj.exe"), "x") CLOSE,
             "multipart part 1 header Content-Disposition filename*: disallowed bidi U+202E at "
             "byte 5 (E2 80 AE 67)");
  CHECK_BODY("quoted filename* with an overlong",
             PART(DISP("name=\"f\"; filename*=\"utf-8'en'..%c0%af..\""), "x") CLOSE,
             "multipart part 1 header Content-Disposition filename*: overlong at byte 2 (C0 AF "
             "2E 2E) [overlong_form U+002F]");
  CHECK_BODY("bad escape in filename*", PART(DISP("name=\"f\"; filename*=UTF-8''a%zz"), "x") CLOSE,
             "multipart part 1 header Content-Disposition filename*: disallowed bad_escape U+0025 "
             "at byte 1 (25 7A 7A)");
  CHECK_BODY("another charset in filename*",
             PART(DISP("name=\"f\"; filename*=iso-8859-1''%C0%AF"), "x") CLOSE,
             "multipart part 1 header Content-Disposition filename*: a charset other than UTF-8");
  CHECK_BODY("filename* without its quotes",
             PART(DISP("name=\"f\"; filename*=UTF-8%C0%AF"), "x") CLOSE,
             "multipart part 1 header Content-Disposition filename*: not an RFC 8187 value "
             "(charset'language'value)");
  CHECK_BODY("another NAME* parameter", PART(DISP("name=\"f\"; name*=UTF-8''%ED%A0%80"), "x") CLOSE,
             "multipart part 1 header Content-Disposition name*: surrogate at byte 0 (ED A0 80) "
             "[surrogate_code_point U+D800]");
  CHECK_BODY("overlong in a field name", FIELD("a%C0%AF", "v") CLOSE,
             "multipart part 1 header Content-Disposition name: overlong at byte 1 (C0 AF) "
             "[overlong_form U+002F]");
  CHECK_BODY("overlong in a text field", FIELD("a", "ok") FIELD("b", "..\xC0\xAF..") CLOSE,
             "multipart part 2 field: overlong at byte 2 (C0 AF 2E 2E) [overlong_form U+002F]");
  CHECK_BODY("bidi in a text field", FIELD("a", "abc\xE2\x80\xAE") CLOSE,
             "multipart part 1 field: disallowed bidi U+202E at byte 3 (E2 80 AE)");
  /* The line breaks and dashes held while a delimiter might begin are the
   * field's bytes when it does not. */
  CHECK_BODY("overlong after held bytes", FIELD("a", "x\r\n--Xy\r\n-\n--\r\r-z\xC0") CLOSE,
             "multipart part 1 field: overlong at byte 17 (C0) [windows1252 U+00C0]");
  CHECK_BODY("NUL in a text field", FIELD("a", "a\0b") CLOSE,
             "multipart part 1 field: disallowed nul U+0000 at byte 1 (00 62)");
  CHECK_BODY("incomplete sequence at a text field's end", FIELD("a", "x\xE2\x82") CLOSE,
             "multipart part 1 field: incomplete at byte 1 (E2 82)");
  CHECK_BODY("bidi in another header", PART(DISP("name=\"a\"") "X-Note: \xE2\x80\xAE", "v") CLOSE,
             "multipart part 1 header X-Note: disallowed bidi U+202E at byte 0 (E2 80 AE)");
  /* Before the bare LF: the field's finding comes first in the body. */
  CHECK_BODY("text field finding before a bare LF boundary",
             "--" BOUNDARY "\r\n" DISP("name=\"a\"") "\r\nx\xC0\n--" BOUNDARY "\r\n",
             "multipart part 1 field: overlong at byte 1 (C0) [windows1252 U+00C0]");
}

/* ---- The three rules ---- */

static void test_rules(void) {
  static const char binary[] = FILE_PART("a.bin", "\xC0\xAF\0\xFF\r\n-\r\r\n\n-x--" BOUNDARY) CLOSE;
  CHECK_BODY("binary file, file rule off", binary, NULL);
  file_rule.on = true; /* strict */
  CHECK_BODY("binary file, file rule on", binary,
             "multipart part 1 file: overlong at byte 0 (C0 AF 00 FF) [overlong_form U+002F]");
  static const char binary_ext[] = PART(DISP("name=\"f\"; filename*=UTF-8''a.bin"), "\xFF") CLOSE;
  default_rules();
  /* PHP reads only filename: to it this part is a text field. */
  CHECK_BODY("filename* alone is a text field", binary_ext,
             "multipart part 1 field: invalid_byte at byte 0 (FF) [windows1252 U+00FF]");
  static const char both[] =
      PART(DISP("name=\"f\"; filename=\"a.bin\"; filename*=UTF-8''a.bin"), "\xFF") CLOSE;
  CHECK_BODY("filename and filename* make a file", both, NULL);
  header_rule.on = false;
  CHECK_BODY("header rule off", FILE_PART("photo\xE2\x80\xAEgpj%C0%AF.exe", "x") CLOSE, NULL);
  default_rules();
  field_rule.on = false;
  CHECK_BODY("field rule off", FIELD("a", "\xC0\xAF") CLOSE, NULL);
  default_rules();
  /* Fields are raw: escapes are text, '%' without digits too. */
  CHECK_BODY("a text field is read raw", FIELD("a", "100% %zz %C0%AF %2541") CLOSE, NULL);
}

/* ---- Malformed bodies ---- */

static void test_malformed(void) {
  static const char ok[] = FIELD("a", "b") CLOSE;
  check_body("no boundary", NULL, ok, sizeof ok - 1, "multipart: no boundary parameter", 0);
  check_body("empty boundary", "", ok, sizeof ok - 1, "multipart: no boundary parameter", 0);
  static const char* const bad[] = {
      "a b ", "a\"b", "\xC3\xA4", "a;b",
      "12345678901234567890123456789012345678901234567890123456789012345678901"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    check_body(bad[i], bad[i], ok, sizeof ok - 1,
               "multipart: a boundary parameter RFC 2046 does not allow (1 to 70 letters, "
               "digits or '()+_,-./:=? and spaces, not last)",
               0);
  CHECK(ug_multipart_boundary_valid("----WebKitFormBoundary7MA4YWxkTrZu0gW", 37));
  CHECK(ug_multipart_boundary_valid("a b", 3));
  CHECK(ug_multipart_boundary_valid("'()+_,-./:=?", 12));
  CHECK(ug_multipart_boundary_valid(
      "1234567890123456789012345678901234567890123456789012345678901234567890", 70));

  CHECK_BODY("preamble", "hello\r\n" FIELD("a", "b") CLOSE,
             "multipart: data before the first boundary at byte 0");
  CHECK_BODY("CRLF preamble", "\r\n" FIELD("a", "b") CLOSE,
             "multipart: data before the first boundary at byte 0");
  CHECK_BODY("empty body", "", "multipart: no closing boundary at the end of the body at byte 0");
  CHECK_BODY("no closing boundary", FIELD("a", "b"),
             "multipart: no closing boundary at the end of the body at byte 54");
  CHECK_BODY("cut in the closing boundary", FIELD("a", "b") "--" BOUNDARY "-",
             "multipart: no closing boundary at the end of the body at byte 60");
  CHECK_BODY("ends in the headers", "--" BOUNDARY "\r\n" DISP("name=\"a\""),
             "multipart: no closing boundary at the end of the body at byte 49");
  CHECK_BODY("no blank line after the headers",
             "--" BOUNDARY "\r\n" DISP("name=\"a\"") "--" BOUNDARY "--\r\n",
             "multipart part 1: a boundary before the blank line ending the headers");
  /* With a ':' in the boundary its line reads as a header line. */
  static const char colon_boundary[] = "--a:b\r\n" DISP(
      "name=\"f\"; filename=\"x\"") "--a:b\r\n" DISP("name=\"t\"") "\r\n\xC0\r\n--a:b--\r\n";
  check_body("boundary in the headers", "a:b", colon_boundary, sizeof colon_boundary - 1,
             "multipart part 1: a boundary before the blank line ending the headers", 8192);
  CHECK_BODY("boundary after a bare LF",
             FIELD("a", "b\n--" BOUNDARY "\r\n" DISP("name=\"c\"")) CLOSE,
             "multipart: a boundary after a bare LF at byte 52");
  CHECK_BODY("boundary after a bare CR", FILE_PART("x", "b\r--" BOUNDARY "--") CLOSE,
             "multipart: a boundary after a bare CR at byte 92");
  CHECK_BODY("boundary followed by other bytes", FIELD("a", "b\r\n--" BOUNDARY "x") CLOSE,
             "multipart: bytes after a boundary at byte 59");
  CHECK_BODY("first boundary followed by other bytes", "--" BOUNDARY "x\r\n",
             "multipart: bytes after a boundary at byte 5");
  CHECK_BODY("padding after a boundary",
             "--" BOUNDARY " \t\r\n" DISP("name=\"a\"") "\r\nb\r\n" CLOSE,
             "multipart: spaces or tabs after a boundary at byte 5");
  CHECK_BODY("padding after the second boundary", FIELD("a", "b") "--" BOUNDARY "\t\r\n",
             "multipart: spaces or tabs after a boundary at byte 59");
  CHECK_BODY("boundary then CR alone", "--" BOUNDARY "\rx",
             "multipart: bytes after a boundary at byte 6");
  CHECK_BODY("one dash after a boundary", FIELD("a", "b") "--" BOUNDARY "-x\r\n",
             "multipart: bytes after a boundary at byte 60");
  CHECK_BODY("data after the closing boundary", FIELD("a", "b") CLOSE "x",
             "multipart: data after the closing boundary at byte 63");
  CHECK_BODY("a second CRLF after the closing boundary", FIELD("a", "b") CLOSE "\r\n",
             "multipart: data after the closing boundary at byte 63");
  CHECK_BODY("a CR alone after the closing boundary", FIELD("a", "b") "--" BOUNDARY "--\r",
             "multipart: data after the closing boundary at byte 61");
  CHECK_BODY("header line ending in a bare LF",
             "--" BOUNDARY "\r\nContent-Disposition: form-data; name=\"a\"\n\r\nb\r\n" CLOSE,
             "multipart part 1: a header line ending in a bare LF at byte 47");
  CHECK_BODY("bare CR in a header line",
             "--" BOUNDARY "\r\nContent-Disposition: form-data;\r name=\"a\"\r\n\r\nb\r\n" CLOSE,
             "multipart part 1: a bare CR in a header line at byte 38");
  CHECK_BODY("folded header line", PART(DISP("name=\"a\"") "X-A: b\r\n\tc\r\n", "b") CLOSE,
             "multipart part 1: a folded header line");
  CHECK_BODY("header name not a token", PART(DISP("name=\"a\"") "X\xC0\xAF: v", "b") CLOSE,
             "multipart part 1: a header name that is not a token");
  CHECK_BODY("header line without ':'", PART(DISP("name=\"a\"") "X-A\r\n", "b") CLOSE,
             "multipart part 1: a header line without ':'");
  CHECK_BODY("header name with a space",
             PART("Content-Disposition : form-data; name=\"a\"\r\n", "b") CLOSE,
             "multipart part 1: a header name that is not a token");
  CHECK_BODY("empty header name", PART(DISP("name=\"a\"") ": v\r\n", "b") CLOSE,
             "multipart part 1: a header name that is not a token");
  CHECK_BODY("no Content-Disposition", PART("Content-Type: text/plain\r\n", "b") CLOSE,
             "multipart part 1: no Content-Disposition header");
  CHECK_BODY("two Content-Disposition", PART(DISP("name=\"a\"") DISP("name=\"b\""), "b") CLOSE,
             "multipart part 1: two Content-Disposition headers");
  CHECK_BODY("attachment", PART("Content-Disposition: attachment; name=\"a\"\r\n", "b") CLOSE,
             "multipart part 1 header Content-Disposition: a disposition other than form-data");
  CHECK_BODY("no name", PART(DISP("filename=\"a\""), "b") CLOSE,
             "multipart part 1 header Content-Disposition: no name parameter");
  CHECK_BODY("filename twice", PART(DISP("name=\"a\"; filename=\"x\"; FILENAME=\"y\""), "b") CLOSE,
             "multipart part 1 header Content-Disposition: a parameter given twice");
  CHECK_BODY("name twice", PART(DISP("name=\"a\"; name=b"), "b") CLOSE,
             "multipart part 1 header Content-Disposition: a parameter given twice");
  CHECK_BODY("space before '='", PART(DISP("name =\"a\""), "b") CLOSE,
             "multipart part 1 header Content-Disposition: malformed parameters");
  CHECK_BODY("bytes after a quoted value", PART(DISP("name=\"a\"x"), "b") CLOSE,
             "multipart part 1 header Content-Disposition: malformed parameters");
  CHECK_BODY("no value", PART(DISP("name="), "b") CLOSE,
             "multipart part 1 header Content-Disposition: malformed parameters");
  CHECK_BODY("unterminated quote", PART(DISP("name=\"a"), "b") CLOSE,
             "multipart part 1 header Content-Disposition: an unterminated quoted string");
  CHECK_BODY("quoted-pair at the end", PART(DISP("name=\"a\\"), "b") CLOSE,
             "multipart part 1 header Content-Disposition: an unterminated quoted string");
  CHECK_BODY("RFC 2231 continuation",
             PART(DISP("name=\"a\"; filename*0*=UTF-8''%C0; filename*1*=%AF"), "b") CLOSE,
             "multipart part 1 header Content-Disposition: an RFC 2231 continuation");
  CHECK_BODY("RFC 2047 encoded word in a file name",
             FILE_PART("=?UTF-8?B?4oCuZ3BqLmV4ZQ==?=", "x") CLOSE,
             "multipart part 1 header Content-Disposition filename: an RFC 2047 encoded word");
  CHECK_BODY("UTF-7 text field",
             PART(DISP("name=\"a\"") "Content-Type: text/plain; charset=utf-7\r\n", "+ICo-") CLOSE,
             "multipart part 1 header Content-Type: a text field in a charset other than UTF-8, or "
             "a malformed type");
  CHECK_BODY("text field with a malformed type",
             PART("Content-Type: text/plain; charset=\"utf-8\r\n" DISP("name=\"a\""), "x") CLOSE,
             "multipart part 1 header Content-Type: a text field in a charset other than UTF-8, or "
             "a malformed type");
  CHECK_BODY("base64 part",
             PART(DISP("name=\"a\"") "Content-Transfer-Encoding: base64\r\n", "wK8=") CLOSE,
             "multipart part 1 header Content-Transfer-Encoding: an encoding other than 7bit, 8bit "
             "or binary");

  /* The limits: a line of 4096 bytes passes, 4097 do not; 16 lines pass, 17
   * do not; 1000 parts pass, 1001 do not. */
  static char body[1 << 17];
  for (int extra = 0; extra <= 1; extra++) {
    size_t n = (size_t)sprintf(body, "--" BOUNDARY "\r\nContent-Disposition: form-data; name=\"");
    size_t pad = 4096 - strlen("Content-Disposition: form-data; name=\"\"") + (size_t)extra;
    memset(body + n, 'a', pad);
    n += pad;
    n += (size_t)sprintf(body + n, "\"\r\n\r\nv\r\n" CLOSE);
    check_body(extra ? "header line of 4097 bytes" : "header line of 4096 bytes", BOUNDARY, body, n,
               extra ? "multipart part 1: a header line over 4096 bytes at byte 4103" : NULL, 8192);
  }
  for (int lines = 16; lines <= 17; lines++) {
    size_t n = (size_t)sprintf(body, "--" BOUNDARY "\r\n" DISP("name=\"a\""));
    for (int i = 1; i < lines; i++) n += (size_t)sprintf(body + n, "X-%d: v\r\n", i);
    n += (size_t)sprintf(body + n, "\r\nv\r\n" CLOSE);
    check_body(lines == 16 ? "16 header lines" : "17 header lines", BOUNDARY, body, n,
               lines == 16 ? NULL : "multipart part 1: more than 16 header lines", 8192);
  }
  for (int parts = 1000; parts <= 1001; parts++) {
    size_t n = 0;
    for (int i = 0; i < parts; i++) n += (size_t)sprintf(body + n, FIELD("a", "b"));
    n += (size_t)sprintf(body + n, CLOSE);
    check_body(parts == 1000 ? "1000 parts" : "1001 parts", BOUNDARY, body, n,
               parts == 1000 ? NULL : "multipart: more than 1000 parts at byte 54006", 0);
  }
}

/* A delimiter's CR or LF as the last byte of a chunk the scan reads whole
 * (every size of file before it, cut at every byte): the file's bytes are
 * not checked, so a delimiter missed there would hide the text field after
 * it. */
static void test_delimiter_at_chunk_end(void) {
  static char body[1024];
  for (size_t pad = 0; pad <= 140; pad++) {
    size_t n =
        (size_t)sprintf(body, "--" BOUNDARY "\r\n" DISP("name=\"f\"; filename=\"x\"") "\r\n");
    memset(body + n, 'x', pad);
    n += pad;
    n += (size_t)sprintf(body + n, "\r\n" FIELD("b", "\xC0\xAF") CLOSE);
    check_body("a delimiter at a chunk's end", BOUNDARY, body, n,
               "multipart part 2 field: overlong at byte 0 (C0 AF) [overlong_form U+002F]", 8192);
  }
}

/* ---- Clean forms ---- */

static void test_clean(void) {
  CHECK_BODY(
      "a browser's form",
      FIELD("title", "Hello") FIELD("text", "line 1\r\nline 2\r\n-- \r\n--\r\n- a --XyZ\r\n--Xy")
          FILE_PART("photo.jpg", "\xFF\xD8\xFF\xE0\0\x10JFIF\r\n--X\r\n--Xy\r\r\n\n\r-\n-")
              FIELD("empty", "") CLOSE,
      NULL);
  CHECK_BODY("no parts", CLOSE, NULL);
  CHECK_BODY("no CRLF after the closing boundary", FIELD("a", "b") "--" BOUNDARY "--", NULL);
  CHECK_BODY("padding after the closing boundary", FIELD("a", "b") "--" BOUNDARY "-- \t\r\n", NULL);
  CHECK_BODY("quoted-pairs and a Windows path", FILE_PART("C:\\\\x\\\"y\\\".txt", "") CLOSE, NULL);
  CHECK_BODY("browser escapes", FILE_PART("a%22b.txt", "") CLOSE, NULL);
  CHECK_BODY(
      "token values, case, spaces and ';'",
      PART("content-disposition:FORM-DATA ;NAME=a;  Filename=b.txt ; ;\r\n"
           "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: BINARY\r\n",
           "x") CLOSE,
      NULL);
  CHECK_BODY(
      "a file in another charset, a field in UTF-8",
      PART(DISP("name=\"f\"; filename=\"a.txt\"") "Content-Type: text/plain; charset=latin1\r\n",
           "\xE9") PART(DISP("name=\"t\"") "Content-Type: text/plain;charset=\"UTF-8\"\r\n", "ok")
          CLOSE,
      NULL);
  CHECK_BODY("filename* in UTF-8",
             PART(DISP("name=\"f\"; filename=\"a.txt\"; filename*=UTF-8'ja'%E6%97%A5.txt"), "")
                 CLOSE,
             NULL);
  CHECK_BODY("'=?' alone in a file name", FILE_PART("a=?b.txt", "") CLOSE, NULL);
  CHECK_BODY("no file chosen", FILE_PART("", "") CLOSE, NULL);
  CHECK_BODY("a BOM at a field's start", FIELD("a", "\xEF\xBB\xBFok") CLOSE, NULL);
  static const char webkit[] =
      "------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n" DISP("name=\"a\"") "\r\n"
      "-------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n"
      "------WebKitFormBoundary7MA4YWxkTrZu0gW--\r\n";
  check_body("a WebKit boundary", "----WebKitFormBoundary7MA4YWxkTrZu0gW", webkit,
             sizeof webkit - 1, NULL, 8192);
}

/* Every line of the multilingual file as a text field and as a file name (cut
 * at a character boundary to 200 bytes), in one form. */
static void test_multilingual(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "cannot read %s\n", path);
    failures++;
    return;
  }
  static char body[1 << 16];
  char line[4096];
  size_t n = 0, lines = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    size_t len = strcspn(line, "\r\n");
    if (len == 0 || line[0] == '#') continue;
    /* A name or file name is a header value's middle, where "field" denies
     * a BOM: the line's leading one stays in the field's value only. */
    size_t bom = len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    size_t name = utf8guard_truncate(line + bom, len - bom, 200, UTF8GUARD_TRUNCATE_WELL_FORMED);
    n += (size_t)snprintf(body + n, sizeof body - n,
                          "--" BOUNDARY "\r\n" DISP("name=\"%.*s\"") "\r\n%.*s\r\n"
                          "--" BOUNDARY "\r\n" DISP("name=\"f\"; filename=\"%.*s.txt\"")
                          "Content-Type: text/plain\r\n\r\n%.*s\r\n",
                          (int)name, line + bom, (int)len, line, (int)name, line + bom, (int)len,
                          line);
    lines++;
  }
  fclose(f);
  n += (size_t)snprintf(body + n, sizeof body - n, CLOSE);
  CHECK(lines >= 9);
  check_body("multilingual form", BOUNDARY, body, n, NULL, 0);
  /* With a bidi control in the last file name, the same form is refused. */
  char* last = strstr(body + n / 2, "filename=\"");
  while (last != NULL && strstr(last + 1, "filename=\"") != NULL)
    last = strstr(last + 1, "filename=\"");
  CHECK(last != NULL);
  if (last != NULL) {
    memmove(last + 13, last + 10, n - (size_t)(last + 10 - body));
    memcpy(last + 10, "\xE2\x80\xAE", 3);
    n += 3;
    char out[UG_FINDING_MAX];
    CHECK(run(BOUNDARY, 3, body, n, cuts, 0, out) == 1 &&
          strstr(out, "header Content-Disposition: disallowed bidi U+202E") != NULL);
  }
}

/* ---- The scan ---- */

static size_t scan_reference(const char* p, size_t len) {
  for (size_t i = 0; i < len; i++)
    if ((p[i] == '\r' || p[i] == '\n') && (i + 1 == len || p[i + 1] == '-')) return i;
  return len;
}

typedef size_t (*scan_kernel)(const unsigned char* p, size_t len);

static size_t kernel_scalar(const unsigned char* p, size_t len) { return scan_scalar(p, 0, len); }

static void test_scan_kernel(const char* name, scan_kernel scan) {
  static unsigned char buf[600];
  static const char alphabet[] = "\r\n-a\x0B\x0F";
  for (int round = 0; round < 20000; round++) {
    size_t len = (size_t)(rng() % 520), from = (size_t)(rng() % 64);
    int sparse = (int)(rng() % 3);
    for (size_t i = 0; i < from + len; i++)
      buf[i] = (unsigned char)(sparse ? (rng() % 64 == 0 ? alphabet[rng() % 6] : 'x')
                                      : alphabet[rng() % 6]);
    size_t want = scan_reference((const char*)buf + from, len), got = scan(buf + from, len);
    if (got != want) {
      fprintf(stderr, "scan (%s) of %zu bytes: got %zu, want %zu\n", name, len, got, want);
      failures++;
      return;
    }
  }
  /* Each length up to past two 128-byte blocks, with a lone CR or LF at the
   * end, or one CR or LF and '-' at each place: every block edge. */
  for (size_t len = 1; len <= 300; len++) {
    for (size_t at = 0; at < len; at++) {
      memset(buf, 'x', len);
      buf[at] = at % 2 ? '\r' : '\n';
      if (at + 1 < len) buf[at + 1] = '-';
      size_t got = scan(buf, len);
      if (got != at) {
        fprintf(stderr, "scan (%s) of %zu bytes, break at %zu: got %zu\n", name, len, at, got);
        failures++;
        return;
      }
    }
  }
}

static void test_scan(void) {
  test_scan_kernel("scalar", kernel_scalar);
#ifdef UG_MULTIPART_X86
  test_scan_kernel("sse2", scan_sse2);
  if (__builtin_cpu_supports("avx2")) test_scan_kernel("avx2", scan_avx2);
  if (__builtin_cpu_supports("avx512bw")) test_scan_kernel("avx512", scan_avx512);
#endif
#ifdef UG_MULTIPART_NEON
  test_scan_kernel("neon", scan_neon);
#endif
  char buf[8] = "ab\r-";
  CHECK(ug_multipart_scan(buf, 4) == 2 && ug_multipart_scan(buf, 3) == 2);
  CHECK(ug_multipart_scan(buf, 2) == 2);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: multipart_test MULTILINGUAL\n");
    return 2;
  }
  default_rules();
  test_scan();
  test_attacks();
  test_rules();
  test_malformed();
  test_delimiter_at_chunk_end();
  test_clean();
  test_multilingual(argv[1]);
  if (failures) {
    fprintf(stderr, "multipart_test: %d failures\n", failures);
    return 1;
  }
  puts("multipart_test: ok");
  return 0;
}
