/* request_check.h - what ngx_http_utf8guard_module decides, in plain C:
 * which parts of a request are checked and under which rule, how a directive's
 * value reads, which rule a body's media type selects, and the text of a
 * finding. The nginx module only feeds it the bytes nginx holds and acts on
 * the answers; everything here runs without nginx (tests/, fuzz/).
 *
 * A finding reads "PART: MESSAGE", where MESSAGE is what the CLI prints after
 * "PATH:LINE:COLUMN: " (utf8guard_describe, with the hint) and PART is
 * "path", "query", "header NAME" or "body"; the offset counts from the
 * part's first byte. */
#ifndef UTF8GUARD_NGINX_REQUEST_CHECK_H
#define UTF8GUARD_NGINX_REQUEST_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <utf8guard/utf8guard.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The checked parts, each with its own rule (one directive each). */
typedef enum ug_slot {
  UG_SLOT_TARGET = 0,     /* path and query, percent-decoded */
  UG_SLOT_HEADERS = 1,    /* every header value, cookies included */
  UG_SLOT_BODY_FORM = 2,  /* application/x-www-form-urlencoded, percent-decoded */
  UG_SLOT_BODY_JSON = 3,  /* application/json, application/...+json */
  UG_SLOT_BODY_TEXT = 4,  /* text/... */
  UG_SLOT_BODY_OTHER = 5, /* any other body, or one without a Content-Type */
  UG_SLOT_COUNT = 6
} ug_slot;

/* A part's rule: off, or checked under |policy|, as raw bytes or
 * percent-decoded (fixed per slot: the target and form bodies are
 * percent-encoded by their definition). */
typedef struct ug_rule {
  bool on;
  bool percent;
  utf8guard_policy policy;
} ug_rule;

/* ug_slot_name returns the directive that sets |slot|'s rule
 * ("utf8guard_target", ...), or NULL for a slot out of range. */
const char* ug_slot_directive(ug_slot slot);

/* ug_rule_default returns |slot|'s rule when no directive sets it: the target
 * under "url"; headers under "field"; form bodies under "url,-newline" (a
 * text area's line breaks are data); JSON under "json"; text under "strict";
 * other bodies off. */
ug_rule ug_rule_default(ug_slot slot);

/* ug_rule_parse reads a directive's value for |slot|: "off", or a policy in
 * utf8guard_policy_parse's words ("field,-newline", "strict", "nul,bidi").
 * On success it stores the rule and returns true; otherwise it stores where
 * the first bad item lies in text[0..len) and returns false. */
bool ug_rule_parse(ug_slot slot, const char* text, size_t len, ug_rule* rule, size_t* error_offset,
                   size_t* error_length);

/* ug_body_slot returns the slot of a body whose Content-Type header is
 * type[0..len) (NULL or empty: none). The media type is matched without case
 * and without its parameters; a charset parameter other than utf-8 or
 * us-ascii makes the body UG_SLOT_BODY_OTHER, as its bytes are not meant to
 * be UTF-8. */
ug_slot ug_body_slot(const char* type, size_t len);

/* A finding's text: "PART: MESSAGE", NUL-terminated. */
#define UG_FINDING_MAX (UTF8GUARD_DESCRIBE_MAX + 64)
typedef struct ug_finding {
  char text[UG_FINDING_MAX];
  size_t len;
} ug_finding;

/* ug_part_label writes the PART of a header's finding, "header NAME", to
 * out[0..cap) (NUL-terminated) and returns its length. Bytes of the name
 * outside printable ASCII appear as \xHH, and a long name is cut with "...":
 * a log line never carries a client's raw bytes. */
size_t ug_header_label(const char* name, size_t len, char* out, size_t cap);

/* ug_part_clean says whether data[0..len) holds nothing |rule| reports (or
 * the rule is off): the yes/no answer, inline, for the parts of every request
 * (most of them clean); ug_check_part then says what a part that is not
 * clean holds. */
static inline bool ug_part_clean(const ug_rule* rule, const char* data, size_t len) {
  if (!rule->on) return true;
  return rule->percent ? utf8guard_percent_is_valid(data, len, rule->policy)
                       : utf8guard_is_valid_policy(data, len, rule->policy);
}

/* ug_check_part checks a whole part, data[0..len), under |rule|. It returns
 * true and fills |*finding| with the first error or denied character, or
 * returns false when there is none (or the rule is off). */
bool ug_check_part(const ug_rule* rule, const char* label, const char* data, size_t len,
                   ug_finding* finding);

/* A body as it streams in: constant memory, any chunking. The first finding
 * is kept with the bytes around it that its message shows, so it is ready
 * (its text final, equal to ug_check_part's over the whole body) once the
 * bytes the message reads after it have arrived (UTF8GUARD_DESCRIBE_AHEAD,
 * or UTF8GUARD_DESCRIBE_PERCENT_AHEAD in percent mode), or at the end. */
#define UG_STREAM_BEHIND 32
#define UG_STREAM_AHEAD 32
typedef enum ug_stream_state {
  UG_STREAM_CLEAN = 0,   /* no finding so far */
  UG_STREAM_PENDING = 1, /* a finding, waiting for the bytes its message shows */
  UG_STREAM_FOUND = 2    /* the finding has been handed out */
} ug_stream_state;

typedef struct ug_stream {
  ug_rule rule;
  union {
    utf8guard_validator raw;
    utf8guard_percent_stream percent;
  } check;
  size_t fed;                                  /* bytes fed so far */
  unsigned char history[2 * UG_STREAM_BEHIND]; /* the last bytes fed */
  size_t history_len;
  utf8guard_encoded_result found;                           /* the first finding (raw: .error) */
  unsigned char window[UG_STREAM_BEHIND + UG_STREAM_AHEAD]; /* bytes around it */
  size_t window_base;                                       /* absolute offset of window[0] */
  size_t window_len;
  ug_stream_state state;
} ug_stream;

/* ug_stream_init starts a body checked under |rule| (which must be on). */
void ug_stream_init(ug_stream* s, const ug_rule* rule);

/* ug_stream_feed checks the next chunk. It returns true, once per stream,
 * when the first finding is ready, and fills |*finding| ("body: ..."). */
bool ug_stream_feed(ug_stream* s, const char* data, size_t len, ug_finding* finding);

/* ug_stream_finish ends the body (an unfinished sequence is "incomplete") and
 * returns true if a finding not yet handed out is ready. */
bool ug_stream_finish(ug_stream* s, ug_finding* finding);

#ifdef __cplusplus
}
#endif

#endif
