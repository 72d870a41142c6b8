/* request_filter.c - the UTF-8 check of a WAF or reverse-proxy module (C99).
 *
 * Servers act on percent-decoded bytes. IIS 4 and 5 decoded "..%c0%af.." to
 * ".." C0 AF "..", read the overlong C0 AF as "/" after the ".." check had
 * passed, and left the web root (CVE-2000-0884, used by Nimda). So a filter
 * validates after decoding and rejects, never repairs: bytes the filter and
 * the backend could read differently are the attack. Overlongs "MUST NOT" be
 * decoded (RFC 3629, 10); utf8guard_validate says what and where, for the log.
 * Header values are checked as they arrive, with no decoding, under the
 * "field" profile: well-formed CR, LF, NUL, ESC, C1 or bidi controls in a
 * header value are header injection (CWE-93) or log forging, so they are
 * refused in the same pass. */
#include <utf8guard/utf8guard.h>

#include <stdio.h>
#include <string.h>

enum { PASS = 0, REJECT = 400 };

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* percent_decode decodes in[0..len) into out[0..len) and returns the decoded
 * size, or (size_t)-1 for a malformed escape such as "%zz" or a final "%4". */
static size_t percent_decode(const char* in, size_t len, char* out) {
  size_t n = 0;
  for (size_t i = 0; i < len; ++i) {
    if (in[i] != '%') {
      out[n++] = in[i];
      continue;
    }
    int hi = i + 2 < len ? hex_digit(in[i + 1]) : -1, lo = hi < 0 ? -1 : hex_digit(in[i + 2]);
    if (lo < 0) return (size_t)-1;
    out[n++] = (char)(hi * 16 + lo);
    i += 2;
  }
  return n;
}

/* check logs and returns the verdict on one field's bytes under |policy|;
 * |why| gets the error or the denied character. */
static int check(const char* field, const char* bytes, size_t len, utf8guard_policy policy,
                 utf8guard_result* why) {
  *why = utf8guard_validate_policy(bytes, len, policy);
  if (why->kind == UTF8GUARD_ERROR_NONE) {
    printf("pass   %s\n", field);
    return PASS;
  }
  printf("reject %s: %s", field, utf8guard_error_name(why->kind));
  if (why->kind == UTF8GUARD_ERROR_DISALLOWED)
    printf(" %s U+%04X", utf8guard_category_name(why->category), (unsigned)why->code_point);
  printf(" at byte %zu (", why->offset);
  for (size_t i = 0; i < why->length; ++i)
    printf(i ? " %02X" : "%02X", (unsigned)(unsigned char)bytes[why->offset + i]);
  printf(")\n");
  return REJECT;
}

/* filter_request_line percent-decodes a request line, then checks it. */
static int filter_request_line(const char* line, utf8guard_result* why) {
  char decoded[1024];
  size_t len = strlen(line);
  size_t n = len <= sizeof decoded ? percent_decode(line, len, decoded) : (size_t)-1;
  if (n == (size_t)-1) {
    printf("reject request line: malformed percent escape or too long\n");
    return REJECT;
  }
  return check("request line (decoded)", decoded, n, UTF8GUARD_PROFILE_STRICT, why);
}

int main(void) {
  utf8guard_result iis = {0}, clean = {0}, header = {0}, split = {0}, name = {0};
  /* The IIS payload: rejected, and the log points at the C0 after "GET /scripts/..". */
  int a =
      filter_request_line("GET /scripts/..%c0%af../winnt/system32/cmd.exe?/c+dir HTTP/1.0", &iis);
  /* A clean request with percent-encoded UTF-8 ("Café", "naïve") passes. */
  int b = filter_request_line("GET /wiki/Caf%C3%A9?q=na%C3%AFve HTTP/1.1", &clean);
  /* A Latin-1 byte (FC, "ü") in a raw header value is not UTF-8. */
  const char* user = "J\xFCrgen";
  int c = check("header X-User", user, strlen(user), UTF8GUARD_PROFILE_FIELD, &header);
  /* Response splitting: a CR LF in a value the server echoes into its headers. */
  const char* lang = "en\r\nSet-Cookie: admin=1";
  int d = check("header Accept-Language", lang, strlen(lang), UTF8GUARD_PROFILE_FIELD, &split);
  /* "Jürgen" in UTF-8 is a fine header value. */
  const char* good = "J\xC3\xBCrgen";
  int e = check("header X-User", good, strlen(good), UTF8GUARD_PROFILE_FIELD, &name);

  int ok = a == REJECT && iis.kind == UTF8GUARD_ERROR_OVERLONG && iis.offset == 15 && b == PASS &&
           c == REJECT && header.kind == UTF8GUARD_ERROR_INVALID_BYTE && header.offset == 1 &&
           d == REJECT && split.kind == UTF8GUARD_ERROR_DISALLOWED && split.offset == 2 &&
           split.category == UTF8GUARD_CATEGORY_NEWLINE && split.code_point == 0x0D && e == PASS;
  puts(ok ? "request_filter: ok" : "request_filter: FAILED");
  return ok ? 0 : 1;
}
