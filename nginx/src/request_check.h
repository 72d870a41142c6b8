/* request_check.h - the rule core: what an edge guard decides about a
 * request, in plain C over the library's C API, for every adapter (the nginx
 * module, the Python extension): which part of a request is checked and under
 * which rule (and the rules' defaults, stated here only), how a directive's
 * value reads, what a Content-Type means and which rule it selects, which
 * shapes of a request are findings of their own (Content-Type repeated or
 * malformed, a Content-Encoding the guard cannot read, a header name that is
 * no token), and the words of a finding. The adapters only feed it the bytes
 * they hold and act on the answers; everything here runs without them
 * (nginx/tests/, fuzz/).
 *
 * A finding reads "PART: MESSAGE", where MESSAGE is what the CLI prints after
 * "PATH:LINE:COLUMN: " (utf8guard_describe, or its percent or JSON form, with
 * the hint) and PART is "path", "query", "header NAME" or "body"; the offset
 * counts from the part's first byte. A finding on the request's shape reads
 * "header NAME: WHAT at byte N (HEX)" (ug_check_media, ...). No finding
 * carries a client's raw bytes. */
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
  UG_SLOT_HEADERS = 1,    /* every header name and value, cookies included;
                             the header values of multipart parts */
  UG_SLOT_BODY_FORM = 2,  /* application/x-www-form-urlencoded, percent-decoded;
                             the text fields of multipart/form-data, raw */
  UG_SLOT_BODY_JSON = 3,  /* JSON, JSON Lines, JSON text sequences */
  UG_SLOT_BODY_TEXT = 4,  /* text/... */
  UG_SLOT_BODY_OTHER = 5, /* a body of any other media type */
  UG_SLOT_BODY_NONE = 6,  /* a body without a Content-Type */
  UG_SLOT_BODY_FILE = 7,  /* the files of multipart/form-data (parts with a filename) */
  UG_SLOT_COUNT = 8
} ug_slot;

/* How a part's bytes are read: as themselves, percent-decoded (the target,
 * form bodies), or as JSON text (its escapes decoded). */
typedef enum ug_encoding {
  UG_ENCODING_RAW = UTF8GUARD_FORM_RAW,
  UG_ENCODING_PERCENT = UTF8GUARD_FORM_PERCENT, /* utf8guard_percent_* */
  UG_ENCODING_JSON =
      UTF8GUARD_FORM_JSON /* utf8guard_json_*: escapes meet the rule as the characters they are */
} ug_encoding;

/* A part's rule: off, or checked under |policy|, read as |encoding| (fixed
 * per slot). */
typedef struct ug_rule {
  bool on;
  ug_encoding encoding;
  utf8guard_policy policy;
} ug_rule;

/* ug_slot_directive returns the directive that sets |slot|'s rule
 * ("utf8guard_target", ...), or NULL for a slot out of range. */
const char* ug_slot_directive(ug_slot slot);

/* ug_rule_default returns |slot|'s rule when no directive sets it: the target
 * under "url"; headers under "field"; form bodies under "url,-newline" (a
 * text area's line breaks are data); JSON under "json"; text under "strict";
 * a body without a Content-Type under "strict"; other bodies and multipart
 * files off. */
ug_rule ug_rule_default(ug_slot slot);

/* ug_rule_parse reads a directive's value for |slot|: "off", or a policy in
 * utf8guard_policy_parse's words ("field,-newline", "strict", "nul,bidi").
 * On success it stores the rule and returns true; otherwise it stores where
 * the first bad item lies in text[0..len) and returns false. */
bool ug_rule_parse(ug_slot slot, const char* text, size_t len, ug_rule* rule, size_t* error_offset,
                   size_t* error_length);

/* ---- Tokens (RFC 9110 5.6.2), shared with the multipart checker ---- */

/* ug_token_end returns the offset of the first byte at or after |i| in
 * text[0..len) that is no tchar (len when all are). */
size_t ug_token_end(const char* text, size_t len, size_t i);

/* ug_ows_end returns the offset of the first byte at or after |i| in
 * text[0..len) that is neither a space nor a tab (len when all are). */
size_t ug_ows_end(const char* text, size_t len, size_t i);

/* ug_equal_nocase says whether text[0..len) is |lower_lit| (written in lower
 * case) with ASCII letters in any case. */
bool ug_equal_nocase(const char* text, size_t len, const char* lower_lit);

/* ---- What a Content-Type means (RFC 9110 8.3: type "/" subtype
 * *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] ), names without
 * case, quoted-pairs unescaped) ---- */

typedef enum ug_media_kind {
  UG_MEDIA_NONE = 0,      /* no Content-Type header */
  UG_MEDIA_MALFORMED = 1, /* not a media type by RFC 9110 */
  UG_MEDIA_FORM = 2,      /* application/x-www-form-urlencoded */
  UG_MEDIA_JSON = 3,      /* application/json, TYPE/SUBTYPE+json, JSON Lines, JSON text
                             sequences, text/json */
  UG_MEDIA_TEXT = 4,      /* any other text/SUBTYPE */
  UG_MEDIA_MULTIPART = 5, /* multipart/form-data with a boundary */
  UG_MEDIA_OTHER = 6      /* any other media type */
} ug_media_kind;

typedef enum ug_charset {
  UG_CHARSET_NONE = 0, /* no charset parameter */
  UG_CHARSET_UTF8 = 1, /* UTF-8 (or an alias a decoder takes for it: utf8, utf_8, u8,
                          cp65001, ...) or US-ASCII, a subset of it */
  UG_CHARSET_OTHER = 2 /* any other */
} ug_charset;

/* RFC 2046: a boundary is 1 to 70 characters. */
#define UG_BOUNDARY_MAX 70

typedef struct ug_media {
  ug_media_kind kind;
  ug_charset charset;                 /* the last charset parameter's */
  size_t boundary_len;                /* multipart: the boundary, unquoted */
  char boundary[UG_BOUNDARY_MAX + 1]; /* NUL-terminated */
  size_t error_offset;                /* malformed: the first byte that does not fit */
} ug_media;

/* ug_media_parse reads the value of a Content-Type header, value[0..len)
 * (NULL: no header), into |*media|. A value that is not a media type by
 * RFC 9110, a parameter named twice, or multipart/form-data without a
 * boundary of 1 to 70 characters is UG_MEDIA_MALFORMED, with the offset of
 * the byte that does not fit. Returns whether it is not malformed. */
bool ug_media_parse(const char* value, size_t len, ug_media* media);

/* ug_media_slot returns the slot whose rule checks a whole body of this media
 * type. Form, JSON and text bodies are checked whatever charset they declare
 * (RFC 8259 8.1: JSON between systems is UTF-8; forms are decoded as UTF-8),
 * but when |text_declared| is true a text body that declares a charset other
 * than UTF-8 (UG_CHARSET_OTHER) takes the "other" rule (the operator's
 * choice, utf8guard_text_charset declared). A body without a Content-Type
 * takes its own rule ("none"), and so does one whose Content-Type is
 * malformed (which the caller refuses, or logs and then checks under that
 * rule: ug_check_media). multipart/form-data returns UG_SLOT_COUNT: it is
 * read part by part (headers, form and file rules). */
ug_slot ug_media_slot(const ug_media* media, bool text_declared);

/* ug_body_slot is ug_media_parse then ug_media_slot with |text_declared|
 * false: the slot of a body whose Content-Type is type[0..len) (NULL: none). */
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

/* The findings that are no part's bytes but the request's shape. Each
 * writes "PART: MESSAGE" to |*finding| and returns true when there is one:
 *   header Content-Type: malformed media type at byte N (HEX)
 *   header Content-Type: 2 headers (parsers disagree on which one counts)
 *   header Content-Encoding: body coding "gzip" cannot be checked
 *   header NAME: name is no token at byte N (HEX)
 * (HEX: up to 4 bytes from N, never a client's raw bytes). */

/* ug_check_media: a malformed Content-Type (value[0..len) parsed as
 * |*media|), or |count| Content-Type headers where there must be at most one. */
bool ug_check_media(const char* value, size_t len, const ug_media* media, size_t count,
                    ug_finding* finding);

/* ug_coding_readable says whether a Content-Encoding value, value[0..len),
 * leaves the body as its bytes: empty, or "identity" items only
 * (comma-separated, any case). */
bool ug_coding_readable(const char* value, size_t len);

/* ug_check_coding: a Content-Encoding the guard cannot read (any coding but
 * identity: gzip, deflate, br, ...), with the first such coding named (or
 * hex when it is no token). */
bool ug_check_coding(const char* value, size_t len, ug_finding* finding);

/* ug_header_name_valid says whether name[0..len) is a field name by RFC 9110
 * (a token: 1*tchar); if not, stores where the first bad byte is (len for an
 * empty name). */
bool ug_header_name_valid(const char* name, size_t len, size_t* bad_offset);

/* ug_check_header_name: a header name that is no token (nginx passes them
 * with "ignore_invalid_headers off"). */
bool ug_check_header_name(const char* name, size_t len, ug_finding* finding);

/* ug_part_clean says whether data[0..len) holds nothing |rule| reports (or
 * the rule is off): the yes/no answer, inline, for the parts of every request
 * (most of them clean); ug_check_part then says what a part that is not
 * clean holds. */
static inline bool ug_part_clean(const ug_rule* rule, const char* data, size_t len) {
  if (!rule->on) return true;
  switch (rule->encoding) {
    case UG_ENCODING_PERCENT: return utf8guard_percent_is_valid(data, len, rule->policy);
    case UG_ENCODING_JSON: return utf8guard_json_is_valid(data, len, rule->policy);
    case UG_ENCODING_RAW:
    default: return utf8guard_is_valid_policy(data, len, rule->policy);
  }
}

/* ug_check_part checks a whole part, data[0..len), under |rule|. It returns
 * true and fills |*finding| with the first error or denied character, or
 * returns false when there is none (or the rule is off). */
bool ug_check_part(const ug_rule* rule, const char* label, const char* data, size_t len,
                   ug_finding* finding);

/* A body as it streams in: constant memory, any chunking. The first finding
 * is kept with the bytes around it that its message shows, in the library's
 * finding window (utf8guard_finding_window), so it is ready (its text final,
 * equal to ug_check_part's over the whole body) once the bytes the message
 * reads after it have arrived, or at the end. */
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
    utf8guard_json_stream json;
  } check;
  size_t fed;                      /* bytes fed so far */
  utf8guard_encoded_result found;  /* the first finding (raw: .error) */
  utf8guard_finding_window window; /* the bytes its message reads */
  ug_stream_state state;
  bool finished; /* ug_stream_finish has ended the body */
} ug_stream;

/* ug_stream_init starts a body checked under |rule| (which must be on). */
void ug_stream_init(ug_stream* s, const ug_rule* rule);

/* ug_stream_feed checks the next chunk. It returns true, once per stream,
 * when the first finding is ready, and fills |*finding| ("body: ..."). */
bool ug_stream_feed(ug_stream* s, const char* data, size_t len, ug_finding* finding);

/* ug_stream_finish ends the body (an unfinished sequence is "incomplete") and
 * returns true if a finding not yet handed out is ready. */
bool ug_stream_finish(ug_stream* s, ug_finding* finding);

/* ug_stream_describe writes the message of the stream's finding over the
 * bytes its window holds ("LABEL: ..."): final once it is ready. */
void ug_stream_describe(const ug_stream* s, const char* label, ug_finding* finding);

#ifdef __cplusplus
}
#endif

#endif
