/* multipart.h - a multipart/form-data body (RFC 7578, RFC 2046 section 5.1)
 * checked as it streams, in plain C over request_check.h: constant memory (a
 * struct the caller owns, no allocation), any chunking (a boundary, a CRLF or
 * a part header may be split at any byte; 1-byte feeds give the answer of one
 * feed).
 *
 * What is checked, under three rules the caller passes (each checked as raw
 * bytes: a rule's |encoding| is not read):
 *  - header: every part header's value, whole; the name and filename
 *    parameters of Content-Disposition, unquoted and percent-decoded (a file
 *    name "..%C0%AF.." is refused, as an application that decodes it would
 *    see an overlong '/'); filename* and any other NAME* parameter decoded per
 *    RFC 8187 (charset'language'value, checked percent-decoded, where a '%'
 *    without two hex digits is refused too). The only charset taken in an
 *    RFC 8187 value is UTF-8: another one is a finding (RFC 7578 section 4.2
 *    forbids filename* in forms, and a guard cannot vouch for bytes in a
 *    charset it does not read).
 *  - field: the body of a part without filename or filename* (a text field),
 *    raw, as browsers send it.
 *  - file: the body of a part with either (off: its bytes are only searched
 *    for the boundary).
 *
 * Malformed multipart is a finding, never a bypass, since the application's
 * parser may read it otherwise:
 *  - a boundary parameter missing, or not 1 to 70 of RFC 2046's bchars
 *    (letters, digits, '()+_,-./:=? and a space, not last);
 *  - any byte before the first boundary (RFC 2046 allows a preamble, browsers
 *    never send one, and parsers disagree on where it ends);
 *  - a delimiter after a bare LF or a bare CR (parsers that accept it see a
 *    part the others do not), or followed by anything but optional spaces or
 *    tabs and CRLF, or "--";
 *  - in part headers: a boundary line (the blank line is missing), a line
 *    ending in a bare LF or holding a bare CR, a line
 *    over UG_MULTIPART_LINE_MAX bytes, more than UG_MULTIPART_HEADERS_MAX
 *    lines, a folded line, a line without ':', a name that is not an RFC 9110
 *    token; no Content-Disposition or two of them, a disposition other than
 *    form-data, no name parameter, a parameter given twice, malformed
 *    parameters or quoting, an RFC 2231 continuation (NAME*0...), and a
 *    Content-Transfer-Encoding other than 7bit, 8bit or binary (an
 *    application that decodes base64 or quoted-printable sees other bytes);
 *  - more than UG_MULTIPART_PARTS_MAX parts;
 *  - no closing boundary at the end, or anything after it but optional spaces
 *    or tabs and one CRLF.
 *
 * A finding reads "PART: MESSAGE" (request_check.h), PART being:
 *   multipart part N header NAME               a header's whole value
 *   multipart part N header Content-Disposition PARAM
 *                                              a parameter's decoded value
 *   multipart part N field / multipart part N file
 *                                              a part's body
 *   multipart / multipart part N               malformed multipart
 * Parts count from 1. A rule's MESSAGE is utf8guard_describe's (or
 * utf8guard_describe_percent's), its offset counted from the first byte of the
 * checked piece: the header value after the ':' and its whitespace, the
 * parameter's value unquoted (for NAME*, the value after charset'language'),
 * the part's body after the blank line. A malformed body's MESSAGE is a fixed
 * sentence, ending in "at byte N" (counted from the body's first byte) where
 * one byte is to blame. Header names appear escaped (ug_header_label); no
 * finding carries a client's raw bytes.
 *
 * The first finding in the body's order is the one handed out: a text
 * field's finding that waits for the bytes its message shows (request_check.h,
 * ug_stream) comes before a malformed delimiter after it, and is handed out
 * then with the bytes it has.
 */
#ifndef UTF8GUARD_NGINX_MULTIPART_H
#define UTF8GUARD_NGINX_MULTIPART_H

#include <stdbool.h>
#include <stddef.h>

#include "request_check.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UG_MULTIPART_BOUNDARY_MAX 70 /* RFC 2046 */
#define UG_MULTIPART_LINE_MAX 4096   /* bytes in one part header line, without its CRLF */
#define UG_MULTIPART_HEADERS_MAX 16  /* header lines in one part */
#define UG_MULTIPART_PARTS_MAX 1000  /* parts in one body */

/* The checker's state. The fields are private. */
typedef struct ug_multipart {
  ug_rule header_rule, field_rule, file_rule;
  ug_stream body; /* the current part's body, when its rule is on */
  bool body_on;
  bool file; /* the current part has filename or filename* */
  unsigned char dash_boundary[2 + UG_MULTIPART_BOUNDARY_MAX]; /* "--" boundary */
  size_t dash_boundary_len;
  int phase;
  int lead;           /* the line break before a delimiter being matched */
  size_t lead_offset; /* its first byte's offset */
  size_t matched;     /* bytes of dash_boundary matched after it */
  size_t offset;      /* bytes of the body consumed */
  size_t part;        /* parts begun */
  size_t header_lines;
  unsigned seen; /* Content-Disposition and its parameters seen in this part */
  size_t line_len;
  char line[UG_MULTIPART_LINE_MAX];
} ug_multipart;

/* ug_multipart_boundary_valid says whether boundary[0..len) is a boundary
 * RFC 2046 allows: 1 to 70 bchars, the last not a space. */
bool ug_multipart_boundary_valid(const char* boundary, size_t len);

/* ug_multipart_init starts a body whose Content-Type's boundary parameter
 * (unquoted) is boundary[0..len): (NULL, 0) when it has none. A missing or
 * invalid boundary is the body's finding, handed out by the first feed or
 * finish. The rules are copied. */
void ug_multipart_init(ug_multipart* m, const char* boundary, size_t len, const ug_rule* header,
                       const ug_rule* field, const ug_rule* file);

/* ug_multipart_feed checks the next chunk of the body. It returns true, once
 * per body, when the first finding is ready, and fills |*finding|; after it,
 * every call returns false and reads nothing. */
bool ug_multipart_feed(ug_multipart* m, const char* data, size_t len, ug_finding* finding);

/* ug_multipart_finish ends the body and returns true if a finding not yet
 * handed out is ready (a body that ends before its closing boundary is one). */
bool ug_multipart_finish(ug_multipart* m, ug_finding* finding);

/* ug_multipart_scan is the search a file's body takes: the offset of the first
 * CR or LF in data[0..len) that is followed by '-' or ends the data (where a
 * delimiter may begin), or |len| when there is none. Vectorized on x86-64
 * (AVX-512BW or AVX2 where the CPU has them, else SSE2; byte by byte
 * elsewhere), so that a file's bytes cost no work each. */
size_t ug_multipart_scan(const char* data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
