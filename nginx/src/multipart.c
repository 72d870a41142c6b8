/* multipart.c - a multipart/form-data body checked as it streams
 * (multipart.h). */
#include "multipart.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define UG_MULTIPART_X86 1
#elif defined(__aarch64__) && defined(__ARM_NEON) && (defined(__GNUC__) || defined(__clang__))
#include <arm_neon.h>
#define UG_MULTIPART_NEON 1
#endif

/* Where the body stands. */
enum phase {
  P_START,         /* matching the first "--boundary" from byte 0 */
  P_AFTER,         /* after a delimiter: "--", padding or CRLF */
  P_CLOSE_DASH,    /* after a delimiter and one '-' */
  P_PADDING_CR,    /* the CR after a delimiter */
  P_HEADERS,       /* in a part header line */
  P_HEADER_CR,     /* its CR */
  P_BODY,          /* in a part's body */
  P_CLOSE_PADDING, /* spaces or tabs after the closing delimiter */
  P_CLOSE_CR,      /* their CR */
  P_END,           /* after the closing delimiter's CRLF */
  P_DONE,          /* finished clean */
  P_FOUND,         /* the finding has been handed out */
  P_NO_BOUNDARY,   /* no boundary parameter: the first call reports it */
  P_BAD_BOUNDARY   /* one RFC 2046 does not allow: likewise */
};

/* The line break before a delimiter being matched in a part's body. */
enum lead {
  LEAD_NONE,   /* no match in progress */
  LEAD_CR,     /* a CR, not yet known to be a CRLF */
  LEAD_CRLF,   /* CR LF: a delimiter */
  LEAD_LF,     /* a bare LF */
  LEAD_BARE_CR /* a CR followed by '-' */
};

/* Content-Disposition, its parameters and the kind of part seen, per part. */
enum seen {
  SEEN_DISPOSITION = 1u << 0,
  SEEN_NAME = 1u << 1,
  SEEN_FILENAME = 1u << 2,
  SEEN_FILENAME_EXT = 1u << 3,
  SEEN_FOREIGN_TYPE = 1u << 4 /* a Content-Type with another charset, or malformed */
};

/* ---- The scan over a part's body ---- */

static bool is_break(unsigned char c) { return c == '\r' || c == '\n'; }

static size_t scan_scalar(const unsigned char* p, size_t i, size_t len) {
  for (; i < len; i++)
    if (is_break(p[i]) && (i + 1 == len || p[i + 1] == '-')) return i;
  return len;
}

#ifdef UG_MULTIPART_X86
/* The positions of p[0..16) that are CR or LF and followed by '-'. */
static unsigned pairs_sse2(const unsigned char* p) {
  __m128i a = _mm_loadu_si128((const __m128i*)p);
  __m128i b = _mm_loadu_si128((const __m128i*)(p + 1));
  __m128i brk =
      _mm_or_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(a, _mm_set1_epi8('\n')));
  return (unsigned)_mm_movemask_epi8(_mm_and_si128(brk, _mm_cmpeq_epi8(b, _mm_set1_epi8('-'))));
}

static size_t scan_sse2(const unsigned char* p, size_t len) {
  size_t i = 0;
  for (; i + 17 <= len; i += 16) {
    unsigned mask = pairs_sse2(p + i);
    if (mask != 0) return i + (size_t)__builtin_ctz(mask);
  }
  return scan_scalar(p, i, len);
}

__attribute__((target("avx2"))) static __m256i pairs_avx2(const unsigned char* p) {
  __m256i a = _mm256_loadu_si256((const __m256i*)p);
  __m256i b = _mm256_loadu_si256((const __m256i*)(p + 1));
  __m256i brk = _mm256_or_si256(_mm256_cmpeq_epi8(a, _mm256_set1_epi8('\r')),
                                _mm256_cmpeq_epi8(a, _mm256_set1_epi8('\n')));
  return _mm256_and_si256(brk, _mm256_cmpeq_epi8(b, _mm256_set1_epi8('-')));
}

__attribute__((target("avx2"))) static size_t scan_avx2(const unsigned char* p, size_t len) {
  if (len < 34) return scan_scalar(p, 0, len);
  size_t i = 0;
  /* 64 bytes a step, one test for both halves. */
  for (; i + 65 <= len; i += 64) {
    __m256i lo = pairs_avx2(p + i);
    __m256i hi = pairs_avx2(p + i + 32);
    if (!_mm256_testz_si256(_mm256_or_si256(lo, hi), _mm256_or_si256(lo, hi))) {
      unsigned m = (unsigned)_mm256_movemask_epi8(lo);
      if (m != 0) return i + (size_t)__builtin_ctz(m);
      return i + 32 + (size_t)__builtin_ctz((unsigned)_mm256_movemask_epi8(hi));
    }
  }
  for (; i + 33 <= len; i += 32) {
    unsigned m = (unsigned)_mm256_movemask_epi8(pairs_avx2(p + i));
    if (m != 0) return i + (size_t)__builtin_ctz(m);
  }
  /* The rest, i..len-2, with one window that ends at the last byte (a scalar
   * tail would cost a chunk of nginx's more than its vectors), and the last
   * byte, which ends the data. */
  size_t last = len - 33;
  uint64_t m = (uint64_t)(uint32_t)_mm256_movemask_epi8(pairs_avx2(p + last)) >> (i - last);
  if (m != 0) return i + (size_t)__builtin_ctzll(m);
  return is_break(p[len - 1]) ? len - 1 : len;
}

/* The first candidate among the bits of |c| (bytes 08..0F followed by '-',
 * from data[at]): one that is a CR or LF. */
static size_t first_break(const unsigned char* p, size_t at, uint64_t c) {
  for (; c != 0; c &= c - 1) {
    size_t j = at + (size_t)__builtin_ctzll(c);
    if (is_break(p[j])) return j;
  }
  return SIZE_MAX;
}

/* 128 bytes a step, with two compares a vector: (byte | 7) == 0x0F takes CR
 * and LF (and 08..0F, rare, sorted out after), and '-' in the next byte is
 * the dash mask shifted, so that no load straddles a cache line. */
__attribute__((target("avx512bw"))) static size_t scan_avx512(const unsigned char* p, size_t len) {
  const __m512i seven = _mm512_set1_epi8(7), low = _mm512_set1_epi8(0x0F);
  const __m512i dash = _mm512_set1_epi8('-');
  uint64_t carry = 0; /* the byte before data[i] is in 08..0F */
  size_t i = 0;
  /* A block is read only when a byte follows it, which the carry needs. */
  for (; i + 128 < len; i += 128) {
    __m512i a0 = _mm512_loadu_si512((const void*)(p + i));
    __m512i a1 = _mm512_loadu_si512((const void*)(p + i + 64));
    uint64_t b0 = _mm512_cmpeq_epi8_mask(_mm512_or_si512(a0, seven), low);
    uint64_t b1 = _mm512_cmpeq_epi8_mask(_mm512_or_si512(a1, seven), low);
    uint64_t d0 = _mm512_cmpeq_epi8_mask(a0, dash);
    uint64_t d1 = _mm512_cmpeq_epi8_mask(a1, dash);
    uint64_t c0 = b0 & (d0 >> 1 | d1 << 63), c1 = b1 & (d1 >> 1);
    if (((carry & d0) | c0 | c1) != 0) {
      if ((carry & d0) != 0 && is_break(p[i - 1])) return i - 1;
      size_t j = first_break(p, i, c0);
      if (j == SIZE_MAX) j = first_break(p, i + 64, c1);
      if (j != SIZE_MAX) return j;
    }
    carry = b1 >> 63;
  }
  if (carry != 0 && p[i] == '-' && is_break(p[i - 1])) return i - 1;
  return i + scan_avx2(p + i, len - i); /* the last 128 bytes or fewer */
}
#endif

#ifdef UG_MULTIPART_NEON
/* The positions of p[0..16) that are CR or LF and followed by '-', as 4 bits
 * each (a NEON compare narrowed by 4 bits a lane). */
static uint64_t pairs_neon(const unsigned char* p) {
  uint8x16_t a = vld1q_u8(p), b = vld1q_u8(p + 1);
  uint8x16_t brk = vorrq_u8(vceqq_u8(a, vdupq_n_u8('\r')), vceqq_u8(a, vdupq_n_u8('\n')));
  uint8x16_t m = vandq_u8(brk, vceqq_u8(b, vdupq_n_u8('-')));
  return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(m), 4)), 0);
}

static size_t scan_neon(const unsigned char* p, size_t len) {
  if (len < 18) return scan_scalar(p, 0, len);
  size_t i = 0;
  for (; i + 33 <= len; i += 32) {
    uint64_t lo = pairs_neon(p + i), hi = pairs_neon(p + i + 16);
    if ((lo | hi) != 0)
      return lo != 0 ? i + (size_t)__builtin_ctzll(lo) / 4
                     : i + 16 + (size_t)__builtin_ctzll(hi) / 4;
  }
  for (; i + 17 <= len; i += 16) {
    uint64_t m = pairs_neon(p + i);
    if (m != 0) return i + (size_t)__builtin_ctzll(m) / 4;
  }
  /* The rest, i..len-2, with one window that ends at the last byte, then the
   * last byte (as scan_avx2). */
  size_t last = len - 17;
  if (i - last < 16) {
    uint64_t m = pairs_neon(p + last) >> (4 * (i - last));
    if (m != 0) return i + (size_t)__builtin_ctzll(m) / 4;
  }
  return is_break(p[len - 1]) ? len - 1 : len;
}
#endif

size_t ug_multipart_scan(const char* data, size_t len) {
  const unsigned char* p = (const unsigned char*)data;
#ifdef UG_MULTIPART_X86
  if (__builtin_cpu_supports("avx512bw")) return scan_avx512(p, len);
  if (__builtin_cpu_supports("avx2")) return scan_avx2(p, len);
  return scan_sse2(p, len);
#elif defined(UG_MULTIPART_NEON)
  return scan_neon(p, len);
#else
  return scan_scalar(p, 0, len);
#endif
}

/* ---- Characters ---- */

/* RFC 2046 5.1.1: bcharsnospace, and the space. */
static bool is_bchar(unsigned char c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return c != 0 && strchr("'()+_,-./:=? ", c) != NULL;
}

static bool is_space(char c) { return c == ' ' || c == '\t'; }

bool ug_multipart_boundary_valid(const char* boundary, size_t len) {
  if (boundary == NULL || len == 0 || len > UG_MULTIPART_BOUNDARY_MAX) return false;
  for (size_t i = 0; i < len; i++)
    if (!is_bchar((unsigned char)boundary[i])) return false;
  return boundary[len - 1] != ' ';
}

/* ---- Findings ---- */

/* Writes "PART: MESSAGE" for malformed multipart: PART is "multipart",
 * "multipart part N" when |part| is not 0, and "multipart part N WHAT" with
 * |what|; MESSAGE ends in " at byte AT" when |at| is not NO_OFFSET. */
#define NO_OFFSET ((size_t)-1)
static bool malformed(ug_multipart* m, ug_finding* finding, size_t part, const char* what,
                      const char* message, size_t at) {
  char label[UG_FINDING_MAX], where[48] = "";
  if (part == 0)
    snprintf(label, sizeof label, "multipart");
  else
    snprintf(label, sizeof label, "multipart part %zu%s%s", part, what ? " " : "",
             what ? what : "");
  if (at != NO_OFFSET) snprintf(where, sizeof where, " at byte %zu", at);
  int n = snprintf(finding->text, sizeof finding->text, "%.*s: %s%s",
                   UG_FINDING_MAX - UTF8GUARD_DESCRIBE_MAX - 3, label, message, where);
  finding->len = n < 0                              ? 0
                 : (size_t)n < sizeof finding->text ? (size_t)n
                                                    : sizeof finding->text - 1;
  m->phase = P_FOUND;
  return true;
}

/* The label of part |part|'s piece |what| ("header NAME", "field", ...). */
static void part_label(char* out, size_t cap, size_t part, const char* what) {
  snprintf(out, cap, "multipart part %zu %s", part, what);
}

/* Rewrites a ug_stream finding's "body: MESSAGE" as "LABEL: MESSAGE", the
 * label cut as request_check.c cuts labels. */
static void relabel(ug_finding* finding, const char* label) {
  char message[UG_FINDING_MAX];
  const char* colon = strstr(finding->text, ": ");
  snprintf(message, sizeof message, "%s", colon != NULL ? colon + 2 : finding->text);
  size_t n = strlen(label);
  if (n > UG_FINDING_MAX - UTF8GUARD_DESCRIBE_MAX - 3)
    n = UG_FINDING_MAX - UTF8GUARD_DESCRIBE_MAX - 3;
  int m = snprintf(finding->text, sizeof finding->text, "%.*s: %s", (int)n, label, message);
  finding->len = m < 0                              ? 0
                 : (size_t)m < sizeof finding->text ? (size_t)m
                                                    : sizeof finding->text - 1;
}

/* The current part's body finding, relabelled, when its stream says it is
 * ready. */
static bool body_found(ug_multipart* m, ug_finding* finding) {
  char label[64];
  part_label(label, sizeof label, m->part, m->file ? "file" : "field");
  relabel(finding, label);
  m->phase = P_FOUND;
  return true;
}

/* Malformed multipart met while a part's body finding waits for the bytes
 * its message shows: the body's finding comes first in the body, so it is
 * the one handed out, with the bytes it has. */
static bool fail(ug_multipart* m, ug_finding* finding, size_t part, const char* what,
                 const char* message, size_t at) {
  if (m->body_on && m->body.state == UG_STREAM_PENDING && ug_stream_finish(&m->body, finding))
    return body_found(m, finding);
  return malformed(m, finding, part, what, message, at);
}

/* ---- A part's body ---- */

static bool body_feed(ug_multipart* m, const unsigned char* data, size_t len, ug_finding* finding) {
  if (!m->body_on || len == 0) return false;
  return ug_stream_feed(&m->body, (const char*)data, len, finding) && body_found(m, finding);
}

/* The bytes a failed delimiter match held back are the body's. */
static bool flush_lead(ug_multipart* m, ug_finding* finding) {
  static const unsigned char crlf[2] = {'\r', '\n'};
  int lead = m->lead;
  m->lead = LEAD_NONE;
  if (!m->body_on) return false;
  size_t n = lead == LEAD_CRLF ? 2 : 1;
  const unsigned char* text = lead == LEAD_LF ? crlf + 1 : crlf;
  return body_feed(m, text, n, finding) || body_feed(m, m->dash_boundary, m->matched, finding);
}

/* A part's body ends at a delimiter. */
static bool body_end(ug_multipart* m, ug_finding* finding) {
  if (m->body_on && ug_stream_finish(&m->body, finding)) return body_found(m, finding);
  m->body_on = false;
  return false;
}

/* ---- Part headers ---- */

#define STR_(x) #x
#define STR(x) STR_(x)
#define CD "header Content-Disposition"

/* Checks a parameter's value, data[0..len), percent-decoded under |policy|. */
static bool check_param(ug_multipart* m, const char* param, size_t param_len,
                        utf8guard_policy policy, const char* data, size_t len,
                        ug_finding* finding) {
  char label[UG_FINDING_MAX];
  ug_rule rule = {m->header_rule.on, UG_ENCODING_PERCENT, policy};
  snprintf(label, sizeof label, "multipart part %zu " CD " %.*s", m->part, (int)param_len, param);
  if (!ug_check_part(&rule, label, data, len, finding)) return false;
  m->phase = P_FOUND;
  return true;
}

/* An RFC 8187 value, charset'language'value, checked decoded. */
static bool check_ext_value(ug_multipart* m, const char* param, size_t param_len, const char* v,
                            size_t n, ug_finding* finding) {
  char what[UG_FINDING_MAX];
  snprintf(what, sizeof what, CD " %.*s", (int)param_len, param);
  const char* q1 = memchr(v, '\'', n);
  const char* q2 = q1 != NULL ? memchr(q1 + 1, '\'', n - (size_t)(q1 + 1 - v)) : NULL;
  if (q2 == NULL)
    return fail(m, finding, m->part, what, "not an RFC 8187 value (charset'language'value)",
                NO_OFFSET);
  if (!ug_equal_nocase(v, (size_t)(q1 - v), "utf-8"))
    return fail(m, finding, m->part, what, "a charset other than UTF-8", NO_OFFSET);
  const char* value = q2 + 1;
  return check_param(m, param, param_len, m->header_rule.policy | UTF8GUARD_CATEGORY_BAD_ESCAPE,
                     value, (size_t)(v + n - value), finding);
}

/* Whether data[0..len) holds "=?" and later "?=": an RFC 2047 encoded word,
 * which RFC 2047 keeps out of quoted strings but some servers decode in file
 * names, where its base64 or quoted-printable would hide any bytes. */
static bool encoded_word(const char* data, size_t len) {
  for (size_t i = 0; i + 1 < len; i++) {
    if (data[i] != '=' || data[i + 1] != '?') continue;
    for (size_t j = i + 2; j + 1 < len; j++)
      if (data[j] == '?' && data[j + 1] == '=') return true;
    return false;
  }
  return false;
}

/* Content-Disposition: form-data *( OWS ";" OWS [ NAME "=" VALUE ] ), VALUE a
 * token or a quoted string (RFC 9110 5.6.4, 5.6.6). Quoted strings are
 * unquoted in place: the line's bytes are read once, left to right, and an
 * unquoted value never outgrows its quoted form. */
static bool check_disposition(ug_multipart* m, char* v, size_t n, ug_finding* finding) {
  static const char bad_params[] = "malformed parameters";
  static const char open_quote[] = "an unterminated quoted string";
  size_t part = m->part;
  size_t i = 0;
  i = ug_token_end(v, n, i);
  if (!ug_equal_nocase(v, i, "form-data"))
    return fail(m, finding, part, CD, "a disposition other than form-data", NO_OFFSET);
  for (;;) {
    i = ug_ows_end(v, n, i);
    if (i == n) break;
    if (v[i] != ';') return fail(m, finding, part, CD, bad_params, NO_OFFSET);
    i++;
    i = ug_ows_end(v, n, i);
    if (i == n || v[i] == ';') continue;
    size_t name_at = i;
    i = ug_token_end(v, n, i);
    const char* name = v + name_at;
    size_t name_len = i - name_at;
    if (name_len == 0 || i == n || v[i] != '=')
      return fail(m, finding, part, CD, bad_params, NO_OFFSET);
    i++;
    char* value = v + i;
    size_t value_len;
    if (i < n && v[i] == '"') {
      size_t w = i, r = i + 1;
      for (;;) {
        if (r == n) return fail(m, finding, part, CD, open_quote, NO_OFFSET);
        if (v[r] == '"') break;
        if (v[r] == '\\' && ++r == n) return fail(m, finding, part, CD, open_quote, NO_OFFSET);
        v[w++] = v[r++];
      }
      value_len = w - i;
      i = r + 1;
    } else {
      i = ug_token_end(v, n, i);
      value_len = (size_t)(v + i - value);
      if (value_len == 0) return fail(m, finding, part, CD, bad_params, NO_OFFSET);
    }
    const char* star = memchr(name, '*', name_len);
    if (star != NULL && star != name + name_len - 1)
      return fail(m, finding, part, CD, "an RFC 2231 continuation", NO_OFFSET);
    unsigned bit = ug_equal_nocase(name, name_len, "name")        ? SEEN_NAME
                   : ug_equal_nocase(name, name_len, "filename")  ? SEEN_FILENAME
                   : ug_equal_nocase(name, name_len, "filename*") ? SEEN_FILENAME_EXT
                                                                  : 0;
    if ((m->seen & bit) != 0)
      return fail(m, finding, part, CD, "a parameter given twice", NO_OFFSET);
    m->seen |= bit;
    if (star != NULL) {
      if (check_ext_value(m, name, name_len, value, value_len, finding)) return true;
    } else if (bit == SEEN_NAME || bit == SEEN_FILENAME) {
      const char* param = bit == SEEN_NAME ? "name" : "filename";
      char what[40];
      snprintf(what, sizeof what, CD " %s", param);
      if (encoded_word(value, value_len))
        return fail(m, finding, part, what, "an RFC 2047 encoded word", NO_OFFSET);
      if (check_param(m, param, strlen(param), m->header_rule.policy, value, value_len, finding))
        return true;
    }
  }
  if ((m->seen & SEEN_NAME) == 0) return fail(m, finding, part, CD, "no name parameter", NO_OFFSET);
  return false;
}

/* One part header line, m->line[0..line_len) (not empty), without its CRLF. */
static bool header_line(ug_multipart* m, ug_finding* finding) {
  char* line = m->line;
  size_t n = m->line_len;
  size_t part = m->part;
  if (is_space(line[0])) return fail(m, finding, part, NULL, "a folded header line", NO_OFFSET);
  /* A boundary with a ':' would read as a header line. */
  if (n >= m->dash_boundary_len && memcmp(line, m->dash_boundary, m->dash_boundary_len) == 0)
    return fail(m, finding, part, NULL, "a boundary before the blank line ending the headers",
                NO_OFFSET);
  const char* colon = memchr(line, ':', n);
  if (colon == NULL) return fail(m, finding, part, NULL, "a header line without ':'", NO_OFFSET);
  size_t name_len = (size_t)(colon - line);
  if (!ug_header_name_valid(line, name_len, NULL))
    return fail(m, finding, part, NULL, "a header name that is not a token", NO_OFFSET);
  size_t from = ug_ows_end(line, n, name_len + 1), to = n;
  while (to > from && is_space(line[to - 1])) to--;

  char label[UG_FINDING_MAX], header[80]; /* labels are cut shorter still */
  ug_header_label(line, name_len, header, sizeof header);
  snprintf(label, sizeof label, "multipart part %zu %s", part, header);
  ug_rule raw = m->header_rule;
  raw.encoding = UG_ENCODING_RAW;
  if (ug_check_part(&raw, label, line + from, to - from, finding)) {
    m->phase = P_FOUND;
    return true;
  }
  if (ug_equal_nocase(line, name_len, "content-disposition")) {
    if ((m->seen & SEEN_DISPOSITION) != 0)
      return fail(m, finding, part, NULL, "two Content-Disposition headers", NO_OFFSET);
    m->seen |= SEEN_DISPOSITION;
    return check_disposition(m, line + from, to - from, finding);
  }
  if (ug_equal_nocase(line, name_len, "content-type")) {
    ug_media media;
    if (!ug_media_parse(line + from, to - from, &media) || media.charset == UG_CHARSET_OTHER)
      m->seen |= SEEN_FOREIGN_TYPE;
  }
  if (ug_equal_nocase(line, name_len, "content-transfer-encoding")) {
    const char* v = line + from;
    size_t vn = to - from;
    if (!ug_equal_nocase(v, vn, "7bit") && !ug_equal_nocase(v, vn, "8bit") &&
        !ug_equal_nocase(v, vn, "binary"))
      return fail(m, finding, part, "header Content-Transfer-Encoding",
                  "an encoding other than 7bit, 8bit or binary", NO_OFFSET);
  }
  return false;
}

/* The blank line after a part's headers: its body begins. */
static bool headers_end(ug_multipart* m, ug_finding* finding) {
  if ((m->seen & SEEN_DISPOSITION) == 0)
    return fail(m, finding, m->part, NULL, "no Content-Disposition header", NO_OFFSET);
  /* filename* alone does not make a file: parsers that read only filename
   * (PHP) take the part for a text field. */
  m->file = (m->seen & SEEN_FILENAME) != 0;
  /* Some servers decode a text field in its part's charset (UTF-7 among
   * them), where ASCII bytes can spell any character. */
  if (!m->file && (m->seen & SEEN_FOREIGN_TYPE) != 0)
    return fail(m, finding, m->part, "header Content-Type",
                "a text field in a charset other than UTF-8, or a malformed type", NO_OFFSET);
  ug_rule rule = m->file ? m->file_rule : m->field_rule;
  rule.encoding = UG_ENCODING_RAW;
  m->body_on = rule.on;
  if (rule.on) ug_stream_init(&m->body, &rule);
  m->lead = LEAD_NONE;
  m->matched = 0;
  return false;
}

/* ---- The body ---- */

void ug_multipart_init(ug_multipart* m, const char* boundary, size_t len, const ug_rule* header,
                       const ug_rule* field, const ug_rule* file) {
  m->header_rule = *header;
  m->field_rule = *field;
  m->file_rule = *file;
  m->body_on = false;
  m->file = false;
  m->phase = P_START;
  m->lead = LEAD_NONE;
  m->lead_offset = 0;
  m->matched = 0;
  m->offset = 0;
  m->part = 0;
  m->header_lines = 0;
  m->seen = 0;
  m->line_len = 0;
  m->dash_boundary_len = 0;
  if (!ug_multipart_boundary_valid(boundary, len)) {
    m->phase = boundary == NULL || len == 0 ? P_NO_BOUNDARY : P_BAD_BOUNDARY;
    return;
  }
  m->dash_boundary[0] = '-';
  m->dash_boundary[1] = '-';
  memcpy(m->dash_boundary + 2, boundary, len);
  m->dash_boundary_len = len + 2;
}

static bool boundary_finding(ug_multipart* m, ug_finding* finding) {
  return malformed(m, finding, 0, NULL,
                   m->phase == P_BAD_BOUNDARY
                       ? "a boundary parameter RFC 2046 does not allow (1 to 70 letters, digits "
                         "or '()+_,-./:=? and spaces, not last)"
                       : "no boundary parameter",
                   NO_OFFSET);
}

/* Matches the byte |c| in a part's body after a line break (m->lead). It
 * returns 1 when |c| was taken, 0 when the match failed (the held bytes went
 * to the body, |c| is to be read again), and -1 with a finding. */
static int match_delimiter(ug_multipart* m, unsigned char c, ug_finding* finding) {
  if (m->lead == LEAD_CR) {
    if (c == '\n') {
      m->lead = LEAD_CRLF;
      return 1;
    }
    if (c == '-') {
      m->lead = LEAD_BARE_CR;
      m->matched = 1;
      return 1;
    }
    return flush_lead(m, finding) ? -1 : 0;
  }
  if (c != m->dash_boundary[m->matched]) return flush_lead(m, finding) ? -1 : 0;
  if (++m->matched < m->dash_boundary_len) return 1;
  if (m->lead != LEAD_CRLF) {
    fail(m, finding, 0, NULL,
         m->lead == LEAD_LF ? "a boundary after a bare LF" : "a boundary after a bare CR",
         m->lead_offset);
    return -1;
  }
  m->lead = LEAD_NONE;
  if (body_end(m, finding)) return -1;
  m->phase = P_AFTER;
  return 1;
}

/* Reads a part's body from data[*i..len): the scan skips to where a delimiter
 * may begin (a CR or LF followed by '-'), and the bytes before it go to the
 * body's rule, but for the CR of a CRLF, held with the LF. */
static bool body_bytes(ug_multipart* m, const unsigned char* data, size_t len, size_t* i,
                       ug_finding* finding) {
  while (*i < len && m->phase == P_BODY) {
    if (m->lead != LEAD_NONE) {
      int r = match_delimiter(m, data[*i], finding);
      if (r < 0) return true;
      if (r > 0) {
        (*i)++;
        m->offset++;
      }
      continue;
    }
    size_t from = *i;
    size_t at = from + ug_multipart_scan((const char*)data + from, len - from);
    size_t end = at;
    int lead = LEAD_CR;
    if (at < len && data[at] == '\n') {
      lead = LEAD_LF;
      if (at > from && data[at - 1] == '\r') {
        lead = LEAD_CRLF;
        end = at - 1;
      }
    }
    if (body_feed(m, data + from, end - from, finding)) return true;
    m->offset += end - from;
    if (at == len) {
      *i = len;
      break;
    }
    m->lead = lead;
    m->lead_offset = m->offset;
    m->matched = 0;
    m->offset += at + 1 - end;
    *i = at + 1;
  }
  return false;
}

bool ug_multipart_feed(ug_multipart* m, const char* data, size_t len, ug_finding* finding) {
  const unsigned char* p = (const unsigned char*)data;
  if (m->phase == P_DONE || m->phase == P_FOUND) return false;
  if (m->phase > P_FOUND) return boundary_finding(m, finding);
  size_t i = 0;
  while (i < len) {
    if (m->phase == P_BODY) {
      if (body_bytes(m, p, len, &i, finding)) return true;
      continue;
    }
    unsigned char c = p[i];
    size_t at = m->offset;
    switch (m->phase) {
      case P_START:
        if (c != m->dash_boundary[m->matched])
          return fail(m, finding, 0, NULL, "data before the first boundary", 0);
        if (++m->matched == m->dash_boundary_len) m->phase = P_AFTER;
        break;
      case P_AFTER:
        /* RFC 2046 lets spaces and tabs pad a delimiter, but parsers that
         * do not take them read the next part as the last one's bytes. */
        if (c == '-')
          m->phase = P_CLOSE_DASH;
        else if (c == '\r')
          m->phase = P_PADDING_CR;
        else if (is_space((char)c))
          return fail(m, finding, 0, NULL, "spaces or tabs after a boundary", at);
        else
          return fail(m, finding, 0, NULL, "bytes after a boundary", at);
        break;
      case P_CLOSE_DASH:
        if (c != '-') return fail(m, finding, 0, NULL, "bytes after a boundary", at);
        m->phase = P_CLOSE_PADDING;
        break;
      case P_PADDING_CR:
        if (c != '\n') return fail(m, finding, 0, NULL, "bytes after a boundary", at);
        if (m->part == UG_MULTIPART_PARTS_MAX)
          return fail(m, finding, 0, NULL, "more than " STR(UG_MULTIPART_PARTS_MAX) " parts", at);
        m->part++;
        m->header_lines = 0;
        m->seen = 0;
        m->line_len = 0;
        m->phase = P_HEADERS;
        break;
      case P_HEADERS:
        if (c == '\r') {
          m->phase = P_HEADER_CR;
        } else if (c == '\n') {
          return fail(m, finding, m->part, NULL, "a header line ending in a bare LF", at);
        } else if (m->line_len == UG_MULTIPART_LINE_MAX) {
          return fail(m, finding, m->part, NULL,
                      "a header line over " STR(UG_MULTIPART_LINE_MAX) " bytes", at);
        } else {
          m->line[m->line_len++] = (char)c;
        }
        break;
      case P_HEADER_CR:
        if (c != '\n') return fail(m, finding, m->part, NULL, "a bare CR in a header line", at - 1);
        m->phase = P_HEADERS;
        if (m->line_len == 0) {
          if (headers_end(m, finding)) return true;
          m->phase = P_BODY;
        } else {
          if (++m->header_lines > UG_MULTIPART_HEADERS_MAX)
            return fail(m, finding, m->part, NULL,
                        "more than " STR(UG_MULTIPART_HEADERS_MAX) " header lines", NO_OFFSET);
          if (header_line(m, finding)) return true;
          m->line_len = 0;
        }
        break;
      case P_CLOSE_PADDING:
        if (c == '\r')
          m->phase = P_CLOSE_CR;
        else if (!is_space((char)c))
          return fail(m, finding, 0, NULL, "data after the closing boundary", at);
        break;
      case P_CLOSE_CR:
        if (c != '\n') return fail(m, finding, 0, NULL, "data after the closing boundary", at);
        m->phase = P_END;
        break;
      default: /* P_END */ return fail(m, finding, 0, NULL, "data after the closing boundary", at);
    }
    i++;
    m->offset++;
  }
  return false;
}

bool ug_multipart_finish(ug_multipart* m, ug_finding* finding) {
  if (m->phase == P_DONE || m->phase == P_FOUND) return false;
  if (m->phase > P_FOUND) return boundary_finding(m, finding);
  if (m->phase == P_END || m->phase == P_CLOSE_PADDING) {
    m->phase = P_DONE;
    return false;
  }
  if (m->phase == P_CLOSE_CR)
    return fail(m, finding, 0, NULL, "data after the closing boundary", m->offset - 1);
  return fail(m, finding, 0, NULL, "no closing boundary at the end of the body", m->offset);
}
