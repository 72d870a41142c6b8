/* request_check.c - the decisions of ngx_http_utf8guard_module
 * (request_check.h). */
#include "request_check.h"

#include <stdio.h>
#include <string.h>

static const char* const directives[UG_SLOT_COUNT] = {
    "utf8guard_target",    "utf8guard_headers",    "utf8guard_body_form", "utf8guard_body_json",
    "utf8guard_body_text", "utf8guard_body_other", "utf8guard_body_none", "utf8guard_body_file"};

/* The defaults, in utf8guard_policy_parse's words (NULL: off). */
static const char* const default_policies[UG_SLOT_COUNT] = {
    "url", "field", "url,-newline", "json,nul,bidi,bad_escape", "strict", NULL, "strict", NULL};

static ug_encoding slot_encoding(ug_slot slot) {
  switch (slot) {
    case UG_SLOT_TARGET:
    case UG_SLOT_BODY_FORM: return UG_ENCODING_PERCENT;
    case UG_SLOT_BODY_JSON: return UG_ENCODING_JSON;
    default: return UG_ENCODING_RAW;
  }
}

const char* ug_slot_directive(ug_slot slot) {
  return (unsigned)slot < UG_SLOT_COUNT ? directives[slot] : NULL;
}

ug_rule ug_rule_default(ug_slot slot) {
  ug_rule rule = {false, UG_ENCODING_RAW, UTF8GUARD_PROFILE_STRICT};
  if ((unsigned)slot >= UG_SLOT_COUNT) return rule;
  rule.encoding = slot_encoding(slot);
  const char* text = default_policies[slot];
  if (text != NULL) rule.on = utf8guard_policy_parse(text, strlen(text), &rule.policy, NULL, NULL);
  return rule;
}

bool ug_rule_parse(ug_slot slot, const char* text, size_t len, ug_rule* rule, size_t* error_offset,
                   size_t* error_length) {
  if ((unsigned)slot >= UG_SLOT_COUNT || rule == NULL || (text == NULL && len > 0)) {
    if (error_offset) *error_offset = 0;
    if (error_length) *error_length = 0;
    return false;
  }
  if (len == 3 && memcmp(text, "off", 3) == 0) {
    rule->on = false;
    rule->encoding = slot_encoding(slot);
    rule->policy = UTF8GUARD_PROFILE_STRICT;
    return true;
  }
  utf8guard_policy policy;
  if (!utf8guard_policy_parse(text, len, &policy, error_offset, error_length)) return false;
  rule->on = true;
  rule->encoding = slot_encoding(slot);
  rule->policy = policy;
  return true;
}

/* ---- Media types (RFC 9110 8.3.1, 5.6.2 tokens, 5.6.4 quoted strings) ---- */

static unsigned char lower(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

bool ug_equal_nocase(const char* text, size_t len, const char* lower_lit) {
  size_t n = strlen(lower_lit);
  if (len != n) return false;
  for (size_t i = 0; i < n; i++)
    if (lower((unsigned char)text[i]) != (unsigned char)lower_lit[i]) return false;
  return true;
}

/* tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" /
 * "_" / "`" / "|" / "~" / DIGIT / ALPHA */
static bool is_tchar(unsigned char c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool is_ows(char c) { return c == ' ' || c == '\t'; }

size_t ug_ows_end(const char* text, size_t len, size_t i) {
  while (i < len && is_ows(text[i])) i++;
  return i;
}

size_t ug_token_end(const char* text, size_t len, size_t i) {
  while (i < len && is_tchar((unsigned char)text[i])) i++;
  return i;
}

/* A parameter value the parser keeps (charset, boundary), unquoted. */
typedef struct value_buf {
  char text[UG_BOUNDARY_MAX + 1];
  size_t len;
  bool too_long;
} value_buf;

static void value_add(value_buf* v, char c) {
  if (v->len < UG_BOUNDARY_MAX)
    v->text[v->len++] = c;
  else
    v->too_long = true;
}

/* Reads a parameter value (token or quoted-string) from text[i..len) into
 * |*v|; returns the offset after it, or (size_t)-1 with *bad at the first
 * byte that does not fit. */
static size_t read_value(const char* text, size_t len, size_t i, value_buf* v, size_t* bad) {
  memset(v, 0, sizeof *v);
  if (i < len && text[i] == '"') {
    for (i++; i < len; i++) {
      unsigned char c = (unsigned char)text[i];
      if (c == '"') return i + 1;
      if (c == '\\') {
        if (i + 1 >= len) break;
        c = (unsigned char)text[++i];
        if (c != '\t' && (c < 0x20 || c == 0x7F)) {
          *bad = i;
          return (size_t)-1;
        }
      } else if (c != '\t' && (c < 0x20 || c == 0x7F)) {
        *bad = i;
        return (size_t)-1;
      }
      value_add(v, (char)c);
    }
    *bad = len; /* no closing quote */
    return (size_t)-1;
  }
  size_t end = ug_token_end(text, len, i);
  if (end == i) {
    *bad = i;
    return (size_t)-1;
  }
  for (size_t k = i; k < end; k++) value_add(v, text[k]);
  return end;
}

/* Names a decoder takes for UTF-8, compared with case, '-', '_', '.' and
 * spaces left out (Python's codec aliases, the WHATWG Encoding labels), and
 * US-ASCII, a subset of it. */
static ug_charset charset_of(const value_buf* v) {
  static const char* const utf8[] = {
      "utf8",  "u8",      "utf",           "cp65001",       "utf8ucs2",      "utf8ucs4",
      "ascii", "usascii", "unicode11utf8", "unicode20utf8", "xunicode20utf8"};
  char norm[UG_BOUNDARY_MAX + 1];
  size_t n = 0;
  if (v->too_long) return UG_CHARSET_OTHER;
  for (size_t i = 0; i < v->len; i++) {
    unsigned char c = lower((unsigned char)v->text[i]);
    if (c != '-' && c != '_' && c != '.' && c != ' ') norm[n++] = (char)c;
  }
  for (size_t i = 0; i < sizeof utf8 / sizeof utf8[0]; i++)
    if (n == strlen(utf8[i]) && memcmp(norm, utf8[i], n) == 0) return UG_CHARSET_UTF8;
  return UG_CHARSET_OTHER;
}

/* Subtypes of application/ and text/ that are JSON text, without their
 * structured syntax suffix "+json" (RFC 6839), which makes any type JSON. */
static const char* const json_subtypes[] = {"json",     "x-json",  "ndjson",    "x-ndjson",
                                            "jsonl",    "x-jsonl", "jsonlines", "x-jsonlines",
                                            "json-seq", "ldjson",  "x-ldjson"};

static ug_media_kind kind_of(const char* type, size_t type_len, const char* sub, size_t sub_len) {
  bool application = ug_equal_nocase(type, type_len, "application");
  bool text = ug_equal_nocase(type, type_len, "text");
  if (application && ug_equal_nocase(sub, sub_len, "x-www-form-urlencoded")) return UG_MEDIA_FORM;
  if (ug_equal_nocase(type, type_len, "multipart") && ug_equal_nocase(sub, sub_len, "form-data"))
    return UG_MEDIA_MULTIPART;
  if (sub_len > 5 && ug_equal_nocase(sub + sub_len - 5, 5, "+json")) return UG_MEDIA_JSON;
  if (application || text)
    for (size_t i = 0; i < sizeof json_subtypes / sizeof json_subtypes[0]; i++)
      if (ug_equal_nocase(sub, sub_len, json_subtypes[i])) return UG_MEDIA_JSON;
  return text ? UG_MEDIA_TEXT : UG_MEDIA_OTHER;
}

static bool malformed(ug_media* media, size_t at) {
  media->kind = UG_MEDIA_MALFORMED;
  media->error_offset = at;
  return false;
}

bool ug_media_parse(const char* value, size_t len, ug_media* media) {
  memset(media, 0, sizeof *media);
  if (value == NULL) {
    media->kind = UG_MEDIA_NONE;
    return true;
  }
  size_t i = ug_ows_end(value, len, 0);
  size_t type = i;
  i = ug_token_end(value, len, i);
  size_t type_len = i - type;
  if (type_len == 0 || i >= len || value[i] != '/') return malformed(media, i);
  size_t sub = ++i;
  i = ug_token_end(value, len, i);
  size_t sub_len = i - sub;
  if (sub_len == 0) return malformed(media, i);
  bool seen_charset = false, seen_boundary = false;
  for (;;) {
    i = ug_ows_end(value, len, i);
    if (i == len) break;
    if (value[i] != ';') return malformed(media, i);
    i = ug_ows_end(value, len, i + 1);
    if (i == len || value[i] == ';') continue; /* an empty parameter */
    size_t name = i;
    i = ug_token_end(value, len, i);
    if (i == name || i >= len || value[i] != '=') return malformed(media, i);
    size_t name_len = i - name;
    value_buf v;
    size_t bad = 0;
    size_t after = read_value(value, len, i + 1, &v, &bad);
    if (after == (size_t)-1) return malformed(media, bad);
    if (ug_equal_nocase(value + name, name_len, "charset")) {
      if (seen_charset) return malformed(media, name);
      seen_charset = true;
      media->charset = charset_of(&v);
    } else if (ug_equal_nocase(value + name, name_len, "boundary")) {
      if (seen_boundary) return malformed(media, name);
      seen_boundary = true;
      if (!v.too_long && v.len > 0) {
        memcpy(media->boundary, v.text, v.len);
        media->boundary[v.len] = '\0';
        media->boundary_len = v.len;
      }
    }
    i = after;
  }
  media->kind = kind_of(value + type, type_len, value + sub, sub_len);
  if (media->kind == UG_MEDIA_MULTIPART && media->boundary_len == 0) return malformed(media, len);
  return true;
}

ug_slot ug_media_slot(const ug_media* media, bool text_declared) {
  switch (media->kind) {
    case UG_MEDIA_FORM: return UG_SLOT_BODY_FORM;
    case UG_MEDIA_JSON: return UG_SLOT_BODY_JSON;
    case UG_MEDIA_TEXT:
      return text_declared && media->charset == UG_CHARSET_OTHER ? UG_SLOT_BODY_OTHER
                                                                 : UG_SLOT_BODY_TEXT;
    case UG_MEDIA_MULTIPART: return UG_SLOT_COUNT;
    case UG_MEDIA_OTHER: return UG_SLOT_BODY_OTHER;
    case UG_MEDIA_NONE:
    case UG_MEDIA_MALFORMED:
    default: return UG_SLOT_BODY_NONE;
  }
}

ug_slot ug_body_slot(const char* type, size_t len) {
  ug_media media;
  ug_media_parse(type, len, &media);
  return ug_media_slot(&media, false);
}

/* ---- Content-Encoding and header names ---- */

bool ug_coding_readable(const char* value, size_t len) {
  size_t i = 0;
  while (i < len) {
    size_t end = i;
    while (end < len && value[end] != ',') end++;
    size_t from = ug_ows_end(value, end, i), to = end;
    while (to > from && is_ows(value[to - 1])) to--;
    if (to > from && !ug_equal_nocase(value + from, to - from, "identity")) return false;
    i = end + 1;
  }
  return true;
}

bool ug_header_name_valid(const char* name, size_t len, size_t* bad_offset) {
  size_t end = ug_token_end(name, len, 0);
  if (end == len && len > 0) return true;
  if (bad_offset) *bad_offset = end;
  return false;
}

/* ---- Findings ---- */

size_t ug_header_label(const char* name, size_t len, char* out, size_t cap) {
  static const char hex[] = "0123456789ABCDEF";
  enum { SHOWN = 48 };
  char text[sizeof "header " + 4 * SHOWN + sizeof "..."];
  size_t n = 0;
  memcpy(text, "header ", 7);
  n = 7;
  for (size_t i = 0; i < len && i < SHOWN; i++) {
    unsigned char c = (unsigned char)name[i];
    if (c > 0x20 && c < 0x7F && c != '\\') {
      text[n++] = (char)c;
    } else {
      text[n++] = '\\';
      text[n++] = 'x';
      text[n++] = hex[c >> 4];
      text[n++] = hex[c & 15];
    }
  }
  if (len > SHOWN) {
    memcpy(text + n, "...", 3);
    n += 3;
  }
  if (cap > 0) {
    size_t copy = n < cap - 1 ? n : cap - 1;
    memcpy(out, text, copy);
    out[copy] = '\0';
  }
  return n;
}

/* Writes "LABEL: WHAT at byte N (HEX)": up to 4 bytes from data[at], or
 * "(end)" when |at| is the end. */
static void shape_finding(ug_finding* finding, const char* label, const char* what,
                          const char* data, size_t len, size_t at) {
  static const char hex[] = "0123456789ABCDEF";
  char bytes[4 * 3 + 1];
  size_t n = 0;
  for (size_t i = at; i < len && i < at + 4; i++) {
    unsigned char c = (unsigned char)data[i];
    if (n) bytes[n++] = ' ';
    bytes[n++] = hex[c >> 4];
    bytes[n++] = hex[c & 15];
  }
  bytes[n] = '\0';
  int m = snprintf(finding->text, UG_FINDING_MAX, "%s: %s at byte %zu (%s)", label, what, at,
                   n ? bytes : "end");
  finding->len = m < 0 ? 0 : (size_t)m < UG_FINDING_MAX ? (size_t)m : UG_FINDING_MAX - 1;
}

static void text_finding(ug_finding* finding, const char* text) {
  size_t n = strlen(text);
  if (n >= UG_FINDING_MAX) n = UG_FINDING_MAX - 1;
  memcpy(finding->text, text, n);
  finding->text[n] = '\0';
  finding->len = n;
}

bool ug_check_media(const char* value, size_t len, const ug_media* media, size_t count,
                    ug_finding* finding) {
  if (count > 1) {
    char text[96];
    snprintf(text, sizeof text,
             "header Content-Type: %zu headers (parsers disagree on which one counts)", count);
    text_finding(finding, text);
    return true;
  }
  if (media->kind != UG_MEDIA_MALFORMED) return false;
  shape_finding(finding, "header Content-Type", "malformed media type", value, len,
                media->error_offset);
  return true;
}

bool ug_check_coding(const char* value, size_t len, ug_finding* finding) {
  if (ug_coding_readable(value, len)) return false;
  size_t i = 0;
  for (;;) { /* the first coding that is not identity */
    size_t end = i;
    while (end < len && value[end] != ',') end++;
    size_t from = ug_ows_end(value, end, i), to = end;
    while (to > from && is_ows(value[to - 1])) to--;
    if (to > from && !ug_equal_nocase(value + from, to - from, "identity")) {
      if (ug_token_end(value, to, from) == to && to - from <= 32) {
        char text[128];
        snprintf(text, sizeof text,
                 "header Content-Encoding: body coding \"%.*s\" cannot be checked",
                 (int)(to - from), value + from);
        text_finding(finding, text);
      } else {
        shape_finding(finding, "header Content-Encoding", "body coding cannot be checked", value,
                      len, from);
      }
      return true;
    }
    i = end + 1;
  }
}

bool ug_check_header_name(const char* name, size_t len, ug_finding* finding) {
  size_t bad = 0;
  if (ug_header_name_valid(name, len, &bad)) return false;
  char label[sizeof "header " + 4 * 48 + sizeof "..."];
  ug_header_label(name, len, label, sizeof label);
  shape_finding(finding, label, "name is no token", name, len, bad);
  return true;
}

/* Writes "LABEL: " and the message of |r| over data[0..len), which starts at
 * absolute offset |base|. */
static void describe(ug_finding* finding, const char* label, ug_encoding encoding, const char* data,
                     size_t len, size_t base, utf8guard_encoded_result r) {
  size_t n = strlen(label);
  if (n > UG_FINDING_MAX - UTF8GUARD_DESCRIBE_MAX - 3)
    n = UG_FINDING_MAX - UTF8GUARD_DESCRIBE_MAX - 3;
  memcpy(finding->text, label, n);
  finding->text[n++] = ':';
  finding->text[n++] = ' ';
  size_t cap = UG_FINDING_MAX - n;
  size_t m;
  switch (encoding) {
    case UG_ENCODING_PERCENT:
      m = utf8guard_percent_describe(data, len, base, r, UTF8GUARD_DESCRIBE_HINT, finding->text + n,
                                     cap);
      break;
    case UG_ENCODING_JSON:
      m = utf8guard_json_describe(data, len, base, r, UTF8GUARD_DESCRIBE_HINT, finding->text + n,
                                  cap);
      break;
    case UG_ENCODING_RAW:
    default:
      m = utf8guard_describe(data, len, base, r.error, UTF8GUARD_DESCRIBE_HINT, finding->text + n,
                             cap);
      break;
  }
  finding->len = n + (m < cap ? m : cap - 1);
}

bool ug_check_part(const ug_rule* rule, const char* label, const char* data, size_t len,
                   ug_finding* finding) {
  if (rule == NULL || ug_part_clean(rule, data, len)) return false;
  utf8guard_encoded_result r;
  memset(&r, 0, sizeof r);
  if (rule->encoding == UG_ENCODING_PERCENT)
    r = utf8guard_percent_validate(data, len, rule->policy);
  else if (rule->encoding == UG_ENCODING_JSON)
    r = utf8guard_json_validate(data, len, rule->policy);
  else
    r.error = utf8guard_validate_policy(data, len, rule->policy);
  if (r.error.kind == UTF8GUARD_ERROR_NONE) return false;
  describe(finding, label, rule->encoding, data, len, 0, r);
  return true;
}

/* ---- Bodies ---- */

void ug_stream_init(ug_stream* s, const ug_rule* rule) {
  memset(s, 0, sizeof *s);
  s->rule = *rule;
  if (rule->encoding == UG_ENCODING_PERCENT)
    utf8guard_percent_validator_init(&s->check.percent, rule->policy);
  else if (rule->encoding == UG_ENCODING_JSON)
    utf8guard_json_validator_init(&s->check.json, rule->policy);
  else
    utf8guard_validator_init_policy(&s->check.raw, rule->policy);
  utf8guard_finding_window_init(&s->window, (utf8guard_form)rule->encoding,
                                UTF8GUARD_DESCRIBE_HINT);
}

void ug_stream_describe(const ug_stream* s, const char* label, ug_finding* finding) {
  size_t len = 0;
  size_t base = 0;
  const char* bytes = utf8guard_finding_window_bytes(&s->window, &len, &base);
  describe(finding, label, s->rule.encoding, bytes, len, base, s->found);
}

static bool hand_out(ug_stream* s, ug_finding* finding) {
  ug_stream_describe(s, "body", finding);
  s->state = UG_STREAM_FOUND;
  return true;
}

/* A finding is known: the window keeps the bytes its message reads. */
static void found(ug_stream* s, utf8guard_encoded_result r) {
  s->found = r;
  s->state = UG_STREAM_PENDING;
  (void)utf8guard_finding_window_mark(&s->window, r.error.offset);
}

bool ug_stream_feed(ug_stream* s, const char* data, size_t len, ug_finding* finding) {
  if (s->state == UG_STREAM_FOUND || s->finished || len == 0) return false;
  if (s->state == UG_STREAM_CLEAN) {
    utf8guard_encoded_result r;
    memset(&r, 0, sizeof r);
    if (s->rule.encoding == UG_ENCODING_PERCENT)
      r = utf8guard_percent_validator_feed(&s->check.percent, data, len);
    else if (s->rule.encoding == UG_ENCODING_JSON)
      r = utf8guard_json_validator_feed(&s->check.json, data, len);
    else
      r.error = utf8guard_validator_feed(&s->check.raw, data, len);
    if (r.error.kind != UTF8GUARD_ERROR_NONE) found(s, r);
  }
  utf8guard_finding_window_feed(&s->window, data, len);
  s->fed += len;
  return s->state == UG_STREAM_PENDING && utf8guard_finding_window_ready(&s->window) &&
         hand_out(s, finding);
}

bool ug_stream_finish(ug_stream* s, ug_finding* finding) {
  if (s->state == UG_STREAM_CLEAN) {
    utf8guard_encoded_result r;
    memset(&r, 0, sizeof r);
    if (s->rule.encoding == UG_ENCODING_PERCENT)
      r = utf8guard_percent_validator_finish(&s->check.percent);
    else if (s->rule.encoding == UG_ENCODING_JSON)
      r = utf8guard_json_validator_finish(&s->check.json);
    else
      r.error = utf8guard_validator_finish(&s->check.raw);
    if (r.error.kind != UTF8GUARD_ERROR_NONE) found(s, r);
  }
  utf8guard_finding_window_finish(&s->window);
  s->finished = true;
  return s->state == UG_STREAM_PENDING && hand_out(s, finding);
}
