/* request_filter.c - the UTF-8 check of a web server, proxy or WAF (C99).
 *
 * Servers act on percent-decoded bytes. IIS 4 and 5 decoded "..%c0%af.." to
 * ".." C0 AF "..", read the overlong C0 AF as "/" after the ".." check had
 * passed, and left the web root (CVE-2000-0884, used by Nimda). So the
 * request target is validated as it will be decoded, under the "url" profile
 * (no NUL, controls, line breaks or bidi controls, no bad or double
 * escapes), without decoding it into a buffer; header values as they arrive
 * under "field" (a CR LF is header injection, CWE-93). A bad request is
 * refused, never repaired, and logged with utf8guard's own message, which
 * shows bytes as hex; the logged value is cut at a character boundary. */
#include <utf8guard/utf8guard.h>

#include <stdio.h>
#include <string.h>

enum { PASS = 0, REJECT = 400, LOGGED_VALUE = 24 };

/* log_reject writes one log line: the part, utf8guard's message, and the
 * value cut to LOGGED_VALUE bytes (sanitized, as a log must not hold raw
 * hostile bytes). */
static void log_reject(const char* part, const char* message, const char* value, size_t len) {
  char shown[LOGGED_VALUE * 3];
  size_t cut = utf8guard_truncate(value, len, LOGGED_VALUE, UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED);
  size_t written = 0;
  if (utf8guard_sanitize_policy(value, cut, shown, sizeof shown, &written, NULL,
                                UTF8GUARD_PROFILE_FIELD) != UTF8GUARD_STATUS_OK)
    written = 0;
  printf("reject %s: %s; value \"%.*s\"%s\n", part, message, (int)written, shown,
         cut < len ? "..." : "");
}

static int check_target(const char* target, utf8guard_encoded_result* why) {
  char message[UTF8GUARD_DESCRIBE_MAX];
  size_t len = strlen(target);
  *why = utf8guard_percent_validate(target, len, UTF8GUARD_PROFILE_URL);
  if (why->error.kind == UTF8GUARD_ERROR_NONE) return PASS;
  utf8guard_percent_describe(target, len, 0, *why, UTF8GUARD_DESCRIBE_HINT, message,
                             sizeof message);
  log_reject("target", message, target, len);
  return REJECT;
}

static int check_header(const char* name, const char* value, utf8guard_result* why) {
  char message[UTF8GUARD_DESCRIBE_MAX];
  size_t len = strlen(value);
  *why = utf8guard_validate_policy(value, len, UTF8GUARD_PROFILE_FIELD);
  if (why->kind == UTF8GUARD_ERROR_NONE) return PASS;
  utf8guard_describe(value, len, 0, *why, UTF8GUARD_DESCRIBE_HINT, message, sizeof message);
  log_reject(name, message, value, len);
  return REJECT;
}

int main(void) {
  utf8guard_encoded_result iis, clean, nul;
  utf8guard_result user, split, name;
  /* The IIS payload: rejected at the %c0 after "/scripts/..". */
  int a = check_target("/scripts/..%c0%af../winnt/system32/cmd.exe?/c+dir", &iis);
  /* Percent-encoded UTF-8 ("Café", "naïve") passes. */
  int b = check_target("/wiki/Caf%C3%A9?q=na%C3%AFve", &clean);
  /* %00 truncates paths in C backends: the url profile denies it. */
  int c = check_target("/download?file=report.pdf%00.txt", &nul);
  /* A Latin-1 byte (FC, "ü") in a header value is not UTF-8. */
  int d = check_header("X-User", "J\xFCrgen", &user);
  /* Response splitting: CR LF in a value the server echoes into its headers. */
  int e = check_header("Accept-Language", "en\r\nSet-Cookie: admin=1", &split);
  /* "Jürgen" in UTF-8 is a fine header value. */
  int f = check_header("X-User", "J\xC3\xBCrgen", &name);

  int ok = a == REJECT && iis.error.kind == UTF8GUARD_ERROR_OVERLONG && iis.error.offset == 11 &&
           b == PASS && c == REJECT && nul.error.kind == UTF8GUARD_ERROR_DISALLOWED &&
           nul.error.category == UTF8GUARD_CATEGORY_NUL && nul.error.offset == 25 && d == REJECT &&
           user.kind == UTF8GUARD_ERROR_INVALID_BYTE && user.offset == 1 && e == REJECT &&
           split.category == UTF8GUARD_CATEGORY_NEWLINE && split.offset == 2 && f == PASS;
  puts(ok ? "request_filter: ok" : "request_filter: FAILED");
  return ok ? 0 : 1;
}
