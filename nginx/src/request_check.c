/* request_check.c - the decisions of ngx_http_utf8guard_module
 * (request_check.h). */
#include "request_check.h"

#include <string.h>

static const char* const directives[UG_SLOT_COUNT] = {
    "utf8guard_target",    "utf8guard_headers",   "utf8guard_body_form",
    "utf8guard_body_json", "utf8guard_body_text", "utf8guard_body_other"};

/* The defaults, in utf8guard_policy_parse's words. */
static const char* const default_policies[UG_SLOT_COUNT] = {"url",  "field",  "url,-newline",
                                                            "json", "strict", NULL};

static bool slot_is_percent(ug_slot slot) {
  return slot == UG_SLOT_TARGET || slot == UG_SLOT_BODY_FORM;
}

const char* ug_slot_directive(ug_slot slot) {
  return (unsigned)slot < UG_SLOT_COUNT ? directives[slot] : NULL;
}

ug_rule ug_rule_default(ug_slot slot) {
  ug_rule rule = {false, false, UTF8GUARD_PROFILE_STRICT};
  if ((unsigned)slot >= UG_SLOT_COUNT || default_policies[slot] == NULL) return rule;
  const char* text = default_policies[slot];
  rule.on = utf8guard_policy_parse(text, strlen(text), &rule.policy, NULL, NULL);
  rule.percent = slot_is_percent(slot);
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
    rule->percent = slot_is_percent(slot);
    rule->policy = UTF8GUARD_PROFILE_STRICT;
    return true;
  }
  utf8guard_policy policy;
  if (!utf8guard_policy_parse(text, len, &policy, error_offset, error_length)) return false;
  rule->on = true;
  rule->percent = slot_is_percent(slot);
  rule->policy = policy;
  return true;
}

/* ---- Media types (RFC 9110 8.3.1: type/subtype *(; parameter)) ---- */

static unsigned char lower(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static bool equal_nocase(const char* a, size_t len, const char* lit) {
  size_t n = strlen(lit);
  if (len != n) return false;
  for (size_t i = 0; i < n; i++)
    if (lower((unsigned char)a[i]) != (unsigned char)lit[i]) return false;
  return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* Trims optional whitespace around text[*from..*to). */
static void trim(const char* text, size_t* from, size_t* to) {
  while (*from < *to && is_space(text[*from])) (*from)++;
  while (*to > *from && is_space(text[*to - 1])) (*to)--;
}

/* Whether the parameters in text[0..len) (after the media type's ';') name a
 * charset other than UTF-8 or US-ASCII. */
static bool foreign_charset(const char* text, size_t len) {
  size_t i = 0;
  while (i < len) {
    size_t end = i;
    while (end < len && text[end] != ';') end++;
    size_t eq = i;
    while (eq < end && text[eq] != '=') eq++;
    size_t name_from = i, name_to = eq;
    trim(text, &name_from, &name_to);
    if (eq < end && equal_nocase(text + name_from, name_to - name_from, "charset")) {
      size_t v_from = eq + 1, v_to = end;
      trim(text, &v_from, &v_to);
      if (v_to - v_from >= 2 && text[v_from] == '"' && text[v_to - 1] == '"') {
        v_from++;
        v_to--;
      }
      const char* v = text + v_from;
      size_t n = v_to - v_from;
      if (!equal_nocase(v, n, "utf-8") && !equal_nocase(v, n, "utf8") &&
          !equal_nocase(v, n, "us-ascii"))
        return true;
    }
    i = end + 1;
  }
  return false;
}

ug_slot ug_body_slot(const char* type, size_t len) {
  if (type == NULL || len == 0) return UG_SLOT_BODY_OTHER;
  size_t end = 0;
  while (end < len && type[end] != ';') end++;
  size_t from = 0, to = end;
  trim(type, &from, &to);
  if (end < len && foreign_charset(type + end + 1, len - end - 1)) return UG_SLOT_BODY_OTHER;
  const char* t = type + from;
  size_t n = to - from;
  if (equal_nocase(t, n, "application/x-www-form-urlencoded")) return UG_SLOT_BODY_FORM;
  if (equal_nocase(t, n, "application/json")) return UG_SLOT_BODY_JSON;
  /* Structured syntax suffix (RFC 6839): application/problem+json, ... */
  if (n > 17 && equal_nocase(t, 12, "application/") && equal_nocase(t + n - 5, 5, "+json"))
    return UG_SLOT_BODY_JSON;
  if (n > 5 && equal_nocase(t, 5, "text/")) return UG_SLOT_BODY_TEXT;
  return UG_SLOT_BODY_OTHER;
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

/* Writes "LABEL: " and the message of |r| over data[0..len), which starts at
 * absolute offset |base|. */
static void describe(ug_finding* finding, const char* label, bool percent, const char* data,
                     size_t len, size_t base, utf8guard_encoded_result r) {
  size_t n = strlen(label);
  if (n > UG_FINDING_MAX - UTF8GUARD_DESCRIBE_MAX - 3)
    n = UG_FINDING_MAX - UTF8GUARD_DESCRIBE_MAX - 3;
  memcpy(finding->text, label, n);
  finding->text[n++] = ':';
  finding->text[n++] = ' ';
  size_t cap = UG_FINDING_MAX - n;
  size_t m = percent ? utf8guard_percent_describe(data, len, base, r, UTF8GUARD_DESCRIBE_HINT,
                                                  finding->text + n, cap)
                     : utf8guard_describe(data, len, base, r.error, UTF8GUARD_DESCRIBE_HINT,
                                          finding->text + n, cap);
  finding->len = n + (m < cap ? m : cap - 1);
}

bool ug_check_part(const ug_rule* rule, const char* label, const char* data, size_t len,
                   ug_finding* finding) {
  if (rule == NULL || ug_part_clean(rule, data, len)) return false;
  utf8guard_encoded_result r;
  memset(&r, 0, sizeof r);
  if (rule->percent)
    r = utf8guard_percent_validate(data, len, rule->policy);
  else
    r.error = utf8guard_validate_policy(data, len, rule->policy);
  if (r.error.kind == UTF8GUARD_ERROR_NONE) return false;
  describe(finding, label, rule->percent, data, len, 0, r);
  return true;
}

/* ---- Bodies ---- */

void ug_stream_init(ug_stream* s, const ug_rule* rule) {
  memset(s, 0, sizeof *s);
  s->rule = *rule;
  if (rule->percent)
    utf8guard_percent_validator_init(&s->check.percent, rule->policy);
  else
    utf8guard_validator_init_policy(&s->check.raw, rule->policy);
}

/* Appends the bytes of data[0..len) (absolute offsets from |at|) that fall in
 * the finding's window. */
static void window_add(ug_stream* s, const unsigned char* data, size_t len, size_t at) {
  size_t end = s->window_base + sizeof s->window;
  size_t from = s->window_base + s->window_len; /* the next byte the window wants */
  if (at + len <= from || from >= end) return;
  size_t skip = from > at ? from - at : 0;
  size_t take = len - skip;
  if (take > end - from) take = end - from;
  memcpy(s->window + s->window_len, data + skip, take);
  s->window_len += take;
}

/* Whether the window holds every byte the finding's message reads. */
static bool window_full(const ug_stream* s) {
  size_t ahead = s->rule.percent ? UTF8GUARD_DESCRIBE_PERCENT_AHEAD : UTF8GUARD_DESCRIBE_AHEAD;
  return s->window_base + s->window_len >= s->found.error.offset + ahead ||
         s->window_len == sizeof s->window;
}

static bool hand_out(ug_stream* s, ug_finding* finding) {
  describe(finding, "body", s->rule.percent, (const char*)s->window, s->window_len, s->window_base,
           s->found);
  s->state = UG_STREAM_FOUND;
  return true;
}

/* Keeps the last bytes fed: the window of a finding reported by a later
 * chunk starts among them. */
static void history_add(ug_stream* s, const unsigned char* data, size_t len) {
  size_t cap = sizeof s->history;
  if (len >= cap) {
    memcpy(s->history, data + len - cap, cap);
    s->history_len = cap;
    return;
  }
  size_t keep = s->history_len + len > cap ? cap - len : s->history_len;
  memmove(s->history, s->history + s->history_len - keep, keep);
  memcpy(s->history + keep, data, len);
  s->history_len = keep + len;
}

/* A finding is known: its window starts UG_STREAM_BEHIND bytes before it
 * (or at byte 0) and takes what the history and this chunk hold. */
static void found(ug_stream* s, utf8guard_encoded_result r, const unsigned char* data, size_t len) {
  s->found = r;
  s->state = UG_STREAM_PENDING;
  size_t offset = r.error.offset;
  s->window_base = offset > UG_STREAM_BEHIND ? offset - UG_STREAM_BEHIND : 0;
  s->window_len = 0;
  size_t chunk_at = s->fed;
  if (s->window_base < chunk_at - s->history_len) s->window_base = chunk_at - s->history_len;
  window_add(s, s->history, s->history_len, chunk_at - s->history_len);
  window_add(s, data, len, chunk_at);
}

bool ug_stream_feed(ug_stream* s, const char* data, size_t len, ug_finding* finding) {
  const unsigned char* bytes = (const unsigned char*)data;
  if (s->state == UG_STREAM_FOUND || len == 0) return false;
  if (s->state == UG_STREAM_PENDING) {
    window_add(s, bytes, len, s->fed);
    s->fed += len;
    return window_full(s) && hand_out(s, finding);
  }
  utf8guard_encoded_result r;
  memset(&r, 0, sizeof r);
  if (s->rule.percent)
    r = utf8guard_percent_validator_feed(&s->check.percent, data, len);
  else
    r.error = utf8guard_validator_feed(&s->check.raw, data, len);
  if (r.error.kind != UTF8GUARD_ERROR_NONE)
    found(s, r, bytes, len);
  else
    history_add(s, bytes, len);
  s->fed += len;
  return s->state == UG_STREAM_PENDING && window_full(s) && hand_out(s, finding);
}

bool ug_stream_finish(ug_stream* s, ug_finding* finding) {
  if (s->state == UG_STREAM_CLEAN) {
    utf8guard_encoded_result r;
    memset(&r, 0, sizeof r);
    if (s->rule.percent)
      r = utf8guard_percent_validator_finish(&s->check.percent);
    else
      r.error = utf8guard_validator_finish(&s->check.raw);
    if (r.error.kind == UTF8GUARD_ERROR_NONE) return false;
    found(s, r, NULL, 0);
  }
  return s->state == UG_STREAM_PENDING && hand_out(s, finding);
}
