/* utf8guard.h - the C API of utf8guard: strict UTF-8 validation (RFC 3629,
 * Unicode Table 3-7), exact error reports, and U+FFFD sanitizing.
 *
 * Conventions, stated once (after BoringSSL's API-CONVENTIONS.md):
 *  - Inputs are (pointer, length) pairs. (NULL, 0) is always allowed and means
 *    the empty input; so is (NULL, 0) for an output buffer.
 *  - Caller bugs fail closed. A NULL pointer with a non-zero length or
 *    capacity, a NULL pointer where a function needs one (an object, a sink,
 *    a callback, a place for its answer), and a misused streaming object (see
 *    "Streaming objects") are caller bugs. No function dereferences such an
 *    argument, and none answers "valid" or "OK" for it: a yes/no function
 *    answers false; a function returning a utf8guard_result returns kind
 *    UTF8GUARD_ERROR_INVALID_ARGUMENT with offset 0 (for a stream, offset 0
 *    of the refused chunk: the stream's position) and length 0; a function
 *    returning a status returns UTF8GUARD_STATUS_INVALID_ARGUMENT, writes no output
 *    and stores 0 in the sizes it reports. This check comes before every
 *    other outcome of the call, but a streaming object keeps its first
 *    failure. The pointers that may be NULL say so.
 *  - Nothing here allocates, prints, aborts or keeps global error state.
 *    Validation never reads outside [data, data + len).
 *  - Every function is safe to call from any number of threads at once, provided
 *    a streaming object (utf8guard_validator, utf8guard_sanitizer) is used by one
 *    thread at a time.
 *  - Offsets and lengths are size_t and count bytes from the start of the whole
 *    input, also when it is fed in chunks.
 *  - No C++ exception ever crosses this interface.
 *  - Sizes follow snprintf: a function that writes into a caller's buffer
 *    always reports the size its whole output needs, also when the buffer is
 *    too small (then UTF8GUARD_STATUS_BUFFER_TOO_SMALL, or a returned size
 *    above the capacity), so one call with a zero capacity asks the size.
 *  - One vocabulary: every function is utf8guard_ followed by its C++ name.
 *    Where C++ overloads a name, C adds what tells the overloads apart: the
 *    argument's type (_policy), or _name for to_string. The functions of an
 *    encoded form are utf8guard_<form>_<verb>, in C++ <form>::<verb>.
 *
 * Compiles as C99 and as C++. */
#ifndef UTF8GUARD_H
#define UTF8GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "utf8guard/export.h"
#include "utf8guard/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__cplusplus) && __cplusplus >= 201703L
#define UTF8GUARD_NODISCARD [[nodiscard]]
#elif defined(__GNUC__) || defined(__clang__)
#define UTF8GUARD_NODISCARD __attribute__((warn_unused_result))
#else
#define UTF8GUARD_NODISCARD
#endif

/* utf8guard_error is the kind of an ill-formed sequence. The numbering is
 * stable and equals utf8guard::error in the C++ API. */
typedef enum utf8guard_error {
  UTF8GUARD_ERROR_NONE = 0,
  UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION = 1, /* 80..BF where a sequence must start */
  UTF8GUARD_ERROR_OVERLONG = 2,                /* C0, C1; E0 80..9F; F0 80..8F */
  UTF8GUARD_ERROR_SURROGATE = 3,               /* ED A0..BF */
  UTF8GUARD_ERROR_TOO_LARGE = 4,               /* F4 90..BF */
  UTF8GUARD_ERROR_INVALID_BYTE = 5,            /* F5..FF */
  UTF8GUARD_ERROR_TRUNCATED = 6,               /* a valid lead cut by a non-continuation */
  UTF8GUARD_ERROR_INCOMPLETE = 7,              /* the input ends inside a valid sequence */
  UTF8GUARD_ERROR_DISALLOWED = 8,              /* well-formed, but denied by the policy */
  UTF8GUARD_ERROR_INVALID_ARGUMENT = 9         /* a caller bug, not the input (conventions) */
} utf8guard_error;

/* utf8guard_category is one category of a policy: a fixed set of scalar
 * values a caller may deny. The categories are disjoint, and each is one bit,
 * so a set of them (a utf8guard_policy) is their bitwise OR. The values are
 * stable. BAD_ESCAPE and DOUBLE_ENCODING belong to percent-encoded input and
 * match nothing elsewhere. */
typedef enum utf8guard_category {
  UTF8GUARD_CATEGORY_NONE = 0,
  UTF8GUARD_CATEGORY_NUL = 1 << 0,             /* U+0000 */
  UTF8GUARD_CATEGORY_CONTROL = 1 << 1,         /* U+0001..0008, U+000E..001F, U+007F */
  UTF8GUARD_CATEGORY_NEWLINE = 1 << 2,         /* U+000A..000D, U+0085, U+2028, U+2029 */
  UTF8GUARD_CATEGORY_C1 = 1 << 3,              /* U+0080..009F but U+0085 */
  UTF8GUARD_CATEGORY_BIDI = 1 << 4,            /* Bidi_Control (Trojan Source) */
  UTF8GUARD_CATEGORY_NONCHARACTER = 1 << 5,    /* U+FDD0..FDEF, U+nFFFE, U+nFFFF */
  UTF8GUARD_CATEGORY_PRIVATE_USE = 1 << 6,     /* U+E000..F8FF, planes 15 and 16 */
  UTF8GUARD_CATEGORY_BOM = 1 << 7,             /* U+FEFF, but at byte 0 of the input */
  UTF8GUARD_CATEGORY_REPLACEMENT = 1 << 8,     /* U+FFFD */
  UTF8GUARD_CATEGORY_BAD_ESCAPE = 1 << 9,      /* percent mode: '%' without two hex digits */
  UTF8GUARD_CATEGORY_DOUBLE_ENCODING = 1 << 10 /* percent mode: %25 followed by two hex digits */
} utf8guard_category;

/* UTF8GUARD_CATEGORY_COUNT is the number of categories: bits 0..COUNT-1. */
#define UTF8GUARD_CATEGORY_COUNT 11

/* utf8guard_policy is the set of denied categories, an OR of
 * utf8guard_category bits; 0 (UTF8GUARD_PROFILE_STRICT) denies nothing. */
typedef uint32_t utf8guard_policy;

/* The named profiles (utf8guard_profile_from_name knows them by name), as
 * plain constants so that they fit any integer context. */
#define UTF8GUARD_PROFILE_STRICT 0x0u  /* nothing: RFC 3629 alone */
#define UTF8GUARD_PROFILE_SOURCE 0x9Bu /* nul control c1 bidi bom */
#define UTF8GUARD_PROFILE_FIELD 0xBFu  /* nul control newline c1 bidi noncharacter bom */
#define UTF8GUARD_PROFILE_JSON 0x20u   /* noncharacter */
#define UTF8GUARD_PROFILE_URL 0x61Fu   /* nul control newline c1 bidi bad_escape double_encoding */

/* utf8guard_result describes the first maximal subpart (Unicode 3.9) of an
 * input, or the first character a policy denies, whichever comes first.
 * |kind| is UTF8GUARD_ERROR_NONE for well-formed input, and then every other
 * field is zero. Otherwise |offset| is the index of the first byte and
 * |length| the size in bytes: 1..3 for a maximal subpart, 1..4 for a denied
 * character (kind UTF8GUARD_ERROR_DISALLOWED), which alone has a |category|
 * (one bit) and a |code_point|; for the other kinds they are zero. The kind
 * UTF8GUARD_ERROR_INVALID_ARGUMENT says that the call was refused before the
 * input was read: its |length| is 0. */
typedef struct utf8guard_result {
  utf8guard_error kind;
  size_t offset;
  size_t length;
  utf8guard_category category;
  uint32_t code_point;
} utf8guard_result;

/* utf8guard_status is the outcome of an operation that can fail for reasons
 * other than the input's encoding. */
typedef enum utf8guard_status {
  UTF8GUARD_STATUS_OK = 0,
  UTF8GUARD_STATUS_BUFFER_TOO_SMALL = 1, /* the output buffer cannot hold the result */
  UTF8GUARD_STATUS_OVERFLOW = 2,         /* a size does not fit in size_t */
  UTF8GUARD_STATUS_ILL_FORMED = 3,       /* the input is not well-formed (decode/encode) */
  UTF8GUARD_STATUS_SINK_FAILED = 4,      /* the output callback asked to stop */
  UTF8GUARD_STATUS_INVALID_ARGUMENT = 5  /* a caller bug: the call was refused (conventions) */
} utf8guard_status;

/* utf8guard_is_valid returns whether data[0..len) is well-formed UTF-8. It is
 * the fastest entry point. It returns false for (NULL, len > 0). */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT bool utf8guard_is_valid(const char* data, size_t len);

/* utf8guard_validate returns the first error of data[0..len), or a result
 * whose kind is UTF8GUARD_ERROR_NONE. For (NULL, len > 0) it returns
 * UTF8GUARD_ERROR_INVALID_ARGUMENT at offset 0. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_result utf8guard_validate(const char* data,
                                                                         size_t len);

/* utf8guard_error_name returns the stable lowercase name of |kind|
 * ("none", "unexpected_continuation", "overlong", "surrogate", "too_large",
 * "invalid_byte", "truncated", "incomplete", "disallowed", "invalid_argument"), or
 * "unknown" for any other value. The string is static. */
UTF8GUARD_EXPORT const char* utf8guard_error_name(utf8guard_error kind);

/* ---- Policies ---------------------------------------------------------------
 * A policy denies categories of well-formed characters. Every entry point
 * below that takes a utf8guard_policy reports (or, sanitizing, replaces) a
 * denied character like an ill-formed subpart, in input order; with policy 0
 * it behaves exactly as its policy-free counterpart. */

/* utf8guard_category_name returns the stable lowercase name of one category
 * ("nul", "control", "newline", "c1", "bidi", "noncharacter", "private_use",
 * "bom", "replacement", "bad_escape", "double_encoding"), "none" for
 * UTF8GUARD_CATEGORY_NONE, or "unknown" for anything else. Static. */
UTF8GUARD_EXPORT const char* utf8guard_category_name(utf8guard_category category);

/* utf8guard_category_from_name returns the category named name[0..len), or
 * UTF8GUARD_CATEGORY_NONE if there is none of that name (so for
 * (NULL, len > 0)). */
UTF8GUARD_EXPORT utf8guard_category utf8guard_category_from_name(const char* name, size_t len);

/* utf8guard_profile_name returns the name of profile |index| ("strict",
 * "source", "field", "json", "url"), or NULL when |index| is out of range. */
UTF8GUARD_EXPORT const char* utf8guard_profile_name(size_t index);

/* utf8guard_profile_from_name stores in |*policy| the profile named
 * name[0..len) and returns true, or returns false, storing nothing (so for
 * (NULL, len > 0) and a NULL |policy|). */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT bool utf8guard_profile_from_name(const char* name, size_t len,
                                                                      utf8guard_policy* policy);

/* utf8guard_policy_parse reads a policy written as text, the way the CLI's
 * --profile and --deny spell it: names of profiles and categories separated by
 * commas, each optionally preceded by '+' (add its categories, the default) or
 * '-' (remove them), applied from left to right. "field,-newline" is the field
 * profile that allows line breaks; "nul,bidi" denies two categories; "" (and
 * "strict") denies nothing. Names are exact and lowercase, with no spaces.
 * It returns true and stores the policy in |*policy|; or returns false,
 * leaving |*policy| alone, and stores in |*error_offset| and |*error_length|
 * (either may be NULL) where text[0..len) holds the first item that is no
 * name (an empty item has length 0). (NULL, len > 0) and a NULL |policy| are
 * refused: false, with offset and length 0. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT bool utf8guard_policy_parse(const char* text, size_t len,
                                                                 utf8guard_policy* policy,
                                                                 size_t* error_offset,
                                                                 size_t* error_length);

/* utf8guard_is_valid_policy returns whether data[0..len) is well-formed and
 * holds no character that |policy| denies; false for (NULL, len > 0). */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT bool utf8guard_is_valid_policy(const char* data, size_t len,
                                                                    utf8guard_policy policy);

/* utf8guard_validate_policy returns the first maximal subpart or denied
 * character of data[0..len), or a result of kind NONE; for (NULL, len > 0),
 * UTF8GUARD_ERROR_INVALID_ARGUMENT at offset 0. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_result
utf8guard_validate_policy(const char* data, size_t len, utf8guard_policy policy);

/* ---- Hints ------------------------------------------------------------------
 * A hint names, for one ill-formed subpart, the encoder that typically writes
 * such bytes and the value they were meant to carry (CESU-8, Modified UTF-8,
 * WTF-8, overlong forms, RFC 2279 forms, Windows-1252, UTF-16). */
typedef enum utf8guard_hint_kind {
  UTF8GUARD_HINT_NONE = 0,
  UTF8GUARD_HINT_UTF16_BOM = 1,            /* offset 0, the input starts FE FF or FF FE */
  UTF8GUARD_HINT_MODIFIED_UTF8_NUL = 2,    /* C0 80: Java's Modified UTF-8 for U+0000 */
  UTF8GUARD_HINT_OVERLONG_FORM = 3,        /* a longer form than the value needs */
  UTF8GUARD_HINT_CESU8_PAIR = 4,           /* a surrogate pair, each half encoded alone */
  UTF8GUARD_HINT_SURROGATE_CODE_POINT = 5, /* a lone surrogate (WTF-8, half a CESU-8 pair) */
  UTF8GUARD_HINT_BEYOND_UNICODE = 6,       /* a value above U+10FFFF (RFC 2279 forms) */
  UTF8GUARD_HINT_WINDOWS1252 = 7           /* one high byte between ASCII bytes */
} utf8guard_hint_kind;

/* utf8guard_hint: |kind| and, when |has_value|, the value the bytes carry
 * (above U+10FFFF only for BEYOND_UNICODE). */
typedef struct utf8guard_hint {
  utf8guard_hint_kind kind;
  uint32_t value;
  bool has_value;
} utf8guard_hint;

/* utf8guard_explain returns the hint for the ill-formed subpart at |offset|
 * of data[0..len) (kind NONE when no rule matches, |offset| >= |len|, or
 * for (NULL, len > 0), which it does not read). It
 * is a pure function of the bytes: it reads only data[0..len), allocates
 * nothing, and works for an offset from any entry point. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_hint utf8guard_explain(const char* data, size_t len,
                                                                      size_t offset);

/* utf8guard_hint_name returns the stable lowercase name of |kind|
 * ("none", "utf16_bom", "modified_utf8_nul", "overlong_form", "cesu8_pair",
 * "surrogate_code_point", "beyond_unicode", "windows1252"), or "unknown". */
UTF8GUARD_EXPORT const char* utf8guard_hint_name(utf8guard_hint_kind kind);

/* ---- Messages ---------------------------------------------------------------
 * utf8guard_describe writes the message for one result, the text the CLI
 * prints after "PATH:LINE:COLUMN: ":
 *   KIND at byte OFFSET (HEX BYTES)
 *   disallowed CATEGORY U+XXXX at byte OFFSET (HEX BYTES)
 * HEX BYTES are the input's bytes from OFFSET, the subpart or character and
 * what follows, 4 in all (fewer at the input's end), as uppercase hex pairs.
 * With UTF8GUARD_DESCRIBE_HINT an ill-formed subpart that has a hint gets
 * " [HINT U+XXXX]", or " [HINT]" when the hint has no value (utf8guard_explain).
 * A result of kind NONE is "none"; INVALID_ARGUMENT is
 * "invalid_argument at byte OFFSET".
 *
 * data[0..len) holds the input's bytes from offset |base| on: 0 when it is the
 * whole input; a stream passes the bytes it kept around the error, at least
 * UTF8GUARD_DESCRIBE_BEHIND before and UTF8GUARD_DESCRIBE_AHEAD from the
 * error's offset where the input has them, for the bytes and the hint to be
 * those of the whole input. Only bytes inside data[0..len) are read; the end
 * of the window is taken as the end of the input.
 *
 * Like snprintf, it writes at most |cap| bytes to |out|, the last a NUL, and
 * returns the length of the whole message without its NUL; a |cap| of
 * UTF8GUARD_DESCRIBE_MAX always suffices. (NULL, len > 0) and (NULL, cap > 0)
 * are refused: it returns 0 and writes nothing. */
#define UTF8GUARD_DESCRIBE_HINT 1u
#define UTF8GUARD_DESCRIBE_MAX 128
#define UTF8GUARD_DESCRIBE_BEHIND 3
#define UTF8GUARD_DESCRIBE_AHEAD 6
UTF8GUARD_EXPORT size_t utf8guard_describe(const char* data, size_t len, size_t base,
                                           utf8guard_result result, unsigned flags, char* out,
                                           size_t cap);

/* ---- Truncation -------------------------------------------------------------
 * utf8guard_truncate returns the length of the longest prefix of
 * data[0..len) of at most |max| bytes that never splits a character. With
 * UTF8GUARD_TRUNCATE_WELL_FORMED the prefix is also well-formed: it ends
 * before the input's first ill-formed subpart. With
 * UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED each maximal subpart counts as one unit,
 * as sanitizing sees it: the prefix keeps the subparts before the cut and
 * never splits one, so sanitizing the prefix gives a prefix of the sanitized
 * input. 0 for (NULL, len > 0) and for a mode that is neither. */
typedef enum utf8guard_truncate_mode {
  UTF8GUARD_TRUNCATE_WELL_FORMED = 0,
  UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED = 1
} utf8guard_truncate_mode;

UTF8GUARD_NODISCARD UTF8GUARD_EXPORT size_t utf8guard_truncate(const char* data, size_t len,
                                                               size_t max,
                                                               utf8guard_truncate_mode mode);

/* utf8guard_status_name returns a static lowercase name for |status| ("ok",
 * "buffer_too_small", "overflow", "ill_formed", "sink_failed",
 * "invalid_argument"), or "unknown" for any other value. */
UTF8GUARD_EXPORT const char* utf8guard_status_name(utf8guard_status status);

/* ---- Streaming objects ----------------------------------------------------
 * utf8guard_validator, utf8guard_sanitizer and utf8guard_error_scanner take an input
 * in chunks. Their fields are private, and each has the same life:
 *  - _init starts a new input: first, and at any time after, also in the
 *    middle of an input or after a failure. It is the only way back from a
 *    failure. _init(NULL) does nothing.
 *  - _feed takes the next chunk, _finish ends the input. A second _finish
 *    returns what the first returned and calls nothing.
 *  - An object keeps its first failure: once a _feed or _finish has failed (an
 *    error for the validator, a status other than UTF8GUARD_STATUS_OK for the others),
 *    every later _feed and _finish returns that same answer, reads nothing
 *    and calls nothing.
 *  - A caller bug fails the object (unless it has failed already: the first
 *    failure stands): a (NULL, len > 0) chunk, a NULL sink or callback, and a
 *    _feed after _finish. The validator's error is then
 *    UTF8GUARD_ERROR_INVALID_ARGUMENT at the stream's position (the number of
 *    bytes fed before the refused call), length 0; the others' status is
 *    UTF8GUARD_STATUS_INVALID_ARGUMENT.
 *  - An object _init has not set up (for example one filled with zeros: _init
 *    stores a check value in a private field) is refused by every call, which
 *    writes nothing to it: _feed and _finish return INVALID_ARGUMENT (the
 *    validator's at offset 0), and the counts return SIZE_MAX. So does a NULL
 *    object.
 * The counts (utf8guard_sanitizer_replacements, utf8guard_error_scanner_errors)
 * never return 0 for an object they cannot read, since 0 would read as a
 * clean input. */

/* ---- Streaming validation ------------------------------------------------
 * utf8guard_validator validates input that arrives in chunks, in constant
 * memory: it carries at most 3 bytes of an unfinished sequence between calls.
 * An error is reported by the call that delivers the byte making the input
 * impossible (ED then A0 is a surrogate as soon as A0 arrives); "incomplete" is
 * reported only by utf8guard_validator_finish. After an error every further
 * call returns the same error without reading its input. */
typedef struct utf8guard_validator {
  size_t priv_position;        /* bytes fed so far */
  utf8guard_result priv_error; /* first error, sticky */
  unsigned char priv_carry[4]; /* unfinished sequence, at most 3 bytes, and a hint */
  unsigned char priv_carry_len;
  utf8guard_policy priv_policy; /* denied categories */
  uint32_t priv_state;          /* set by init: open, finished, failed */
} utf8guard_validator;

/* utf8guard_validator_init resets |v| to the start of a new input, with no
 * policy. */
UTF8GUARD_EXPORT void utf8guard_validator_init(utf8guard_validator* v);

/* utf8guard_validator_init_policy resets |v| to the start of a new input
 * whose characters |policy| may deny; a violation is reported by the call
 * that completes the character. */
UTF8GUARD_EXPORT void utf8guard_validator_init_policy(utf8guard_validator* v,
                                                      utf8guard_policy policy);

/* utf8guard_validator_feed validates the next chunk and returns the first
 * error seen so far (kind NONE if there is none yet). A refused call returns
 * UTF8GUARD_ERROR_INVALID_ARGUMENT ("Streaming objects"). */
UTF8GUARD_EXPORT utf8guard_result utf8guard_validator_feed(utf8guard_validator* v, const char* data,
                                                           size_t len);

/* utf8guard_validator_finish ends the input and returns its first error,
 * including an "incomplete" sequence left at the end. Called again, it
 * returns the same result. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_result
utf8guard_validator_finish(utf8guard_validator* v);

/* ---- Sanitizing -----------------------------------------------------------
 * Sanitizing replaces every maximal subpart with U+FFFD (EF BF BD) and copies
 * every well-formed byte unchanged; the output equals Python's
 * bytes.decode('utf-8', 'replace').encode('utf-8'). */

/* utf8guard_sanitize_bound stores in |*bound| the largest output that
 * sanitizing |len| input bytes can produce (3 * len), or returns
 * UTF8GUARD_STATUS_OVERFLOW if that does not fit in size_t. A NULL |bound| is
 * UTF8GUARD_STATUS_INVALID_ARGUMENT. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_sanitize_bound(size_t len,
                                                                               size_t* bound);

/* utf8guard_sanitize writes the sanitized form of data[0..len) to
 * out[0..cap) and stores its size in |*written| (which may be NULL). If
 * |replacements| is not NULL it receives the number of U+FFFD inserted. When
 * |cap| is too small it returns UTF8GUARD_STATUS_BUFFER_TOO_SMALL, writing
 * nothing meaningful, and still stores the exact size needed and the count of
 * replacements; a |cap| of utf8guard_sanitize_bound(len) always suffices. It
 * returns UTF8GUARD_STATUS_INVALID_ARGUMENT for (NULL, len > 0) or
 * (NULL, cap > 0), with |*written| and |*replacements| 0. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_sanitize(
    const char* data, size_t len, char* out, size_t cap, size_t* written, size_t* replacements);

/* utf8guard_sanitize_policy is utf8guard_sanitize that also replaces each
 * character |policy| denies with one U+FFFD (and counts it). */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status
utf8guard_sanitize_policy(const char* data, size_t len, char* out, size_t cap, size_t* written,
                          size_t* replacements, utf8guard_policy policy);

/* utf8guard_sink receives sanitized output. It returns true to continue and
 * false to stop (for example on a write error). */
typedef bool (*utf8guard_sink)(void* ctx, const char* data, size_t len);

/* utf8guard_sanitizer sanitizes a stream in constant memory (see "Streaming
 * objects" for its life and its misuse). */
typedef struct utf8guard_sanitizer {
  size_t priv_position;
  size_t priv_replacements;
  unsigned char priv_carry[4];
  unsigned char priv_carry_len;
  utf8guard_policy priv_policy;
  uint32_t priv_state;
} utf8guard_sanitizer;

/* utf8guard_sanitizer_init resets |s| to the start of a new stream. */
UTF8GUARD_EXPORT void utf8guard_sanitizer_init(utf8guard_sanitizer* s);

/* utf8guard_sanitizer_init_policy resets |s| to the start of a new stream in
 * which each character |policy| denies also becomes one U+FFFD. */
UTF8GUARD_EXPORT void utf8guard_sanitizer_init_policy(utf8guard_sanitizer* s,
                                                      utf8guard_policy policy);

/* utf8guard_sanitizer_feed sanitizes the next chunk, passing output to |sink|
 * (|ctx| is passed through and may be NULL). Bytes of an unfinished sequence
 * at the end of the chunk are held back until the next call. Returns
 * UTF8GUARD_STATUS_SINK_FAILED if the sink returned false, and
 * UTF8GUARD_STATUS_INVALID_ARGUMENT for a refused call ("Streaming objects"); either
 * fails |s|. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_sanitizer_feed(
    utf8guard_sanitizer* s, const char* data, size_t len, utf8guard_sink sink, void* ctx);

/* utf8guard_sanitizer_finish ends the stream: an unfinished sequence becomes
 * one U+FFFD. Statuses as for utf8guard_sanitizer_feed; called again after
 * UTF8GUARD_STATUS_OK, it returns UTF8GUARD_STATUS_OK and writes nothing. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status
utf8guard_sanitizer_finish(utf8guard_sanitizer* s, utf8guard_sink sink, void* ctx);

/* utf8guard_sanitizer_replacements returns how many U+FFFD |s| has written,
 * or SIZE_MAX for a NULL or uninitialised |s|. */
UTF8GUARD_EXPORT size_t utf8guard_sanitizer_replacements(const utf8guard_sanitizer* s);

/* ---- Every error of a stream ----------------------------------------------
 * utf8guard_error_scanner reports every maximal subpart of a stream, in order: the
 * same subparts sanitizing replaces. Offsets are absolute. An unfinished
 * sequence at the end is reported as "incomplete" by utf8guard_error_scanner_finish.
 * See "Streaming objects" for its life and its misuse. */
typedef bool (*utf8guard_error_callback)(void* ctx, utf8guard_result error);

typedef struct utf8guard_error_scanner {
  size_t priv_position;
  size_t priv_errors;
  unsigned char priv_carry[4];
  unsigned char priv_carry_len;
  utf8guard_policy priv_policy;
  uint32_t priv_state;
} utf8guard_error_scanner;

/* utf8guard_error_scanner_init resets |s| to the start of a new stream. */
UTF8GUARD_EXPORT void utf8guard_error_scanner_init(utf8guard_error_scanner* s);

/* utf8guard_error_scanner_init_policy resets |s| to the start of a new stream in
 * which each character |policy| denies is also reported, in input order. */
UTF8GUARD_EXPORT void utf8guard_error_scanner_init_policy(utf8guard_error_scanner* s,
                                                          utf8guard_policy policy);

/* utf8guard_error_scanner_feed scans the next chunk, calling |on_error| for each
 * error found (|ctx| is passed through and may be NULL). Returns
 * UTF8GUARD_STATUS_SINK_FAILED if the callback returned false, and
 * UTF8GUARD_STATUS_INVALID_ARGUMENT for a refused call ("Streaming objects"); either
 * fails |s|. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status
utf8guard_error_scanner_feed(utf8guard_error_scanner* s, const char* data, size_t len,
                             utf8guard_error_callback on_error, void* ctx);

/* utf8guard_error_scanner_finish ends the stream, reporting an unfinished sequence.
 * Statuses as for utf8guard_error_scanner_feed; called again after UTF8GUARD_STATUS_OK, it
 * returns UTF8GUARD_STATUS_OK and reports nothing. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_error_scanner_finish(
    utf8guard_error_scanner* s, utf8guard_error_callback on_error, void* ctx);

/* utf8guard_error_scanner_errors returns how many errors |s| has reported, or
 * SIZE_MAX for a NULL or uninitialised |s|. */
UTF8GUARD_EXPORT size_t utf8guard_error_scanner_errors(const utf8guard_error_scanner* s);

/* ---- Encoded input: percent-encoded and JSON text -------------------------
 * Some input arrives encoded: escapes stand for bytes or characters. The
 * functions of an encoded form check the decoded bytes, under a policy,
 * without building them, and report where the input itself was bad. Their
 * names follow one pattern, utf8guard_<form>_<verb> (utf8guard_percent_validate,
 * utf8guard_json_validate), and their results one type:
 *
 * Offsets count encoded bytes: |error.offset| is where the first decoded byte
 * of the subpart or character comes from (the first byte of its escape, or
 * the raw byte), |error.length| the encoded bytes that carry its decoded
 * bytes. |decoded_offset| and |decoded_length| place the same bytes in the
 * decoded stream. The bom rule's byte 0 is decoded byte 0. */
typedef struct utf8guard_encoded_result {
  utf8guard_result error; /* offsets in encoded bytes */
  size_t decoded_offset;  /* the same bytes, in the decoded stream */
  size_t decoded_length;
} utf8guard_encoded_result;
typedef utf8guard_encoded_result utf8guard_percent_result; /* the older name */

typedef bool (*utf8guard_encoded_callback)(void* ctx, utf8guard_encoded_result error);
typedef utf8guard_encoded_callback utf8guard_percent_callback; /* the older name */

/* UTF8GUARD_DEPRECATED marks a name kept for one release. */
#if defined(UTF8GUARD_NO_DEPRECATION_WARNINGS)
#define UTF8GUARD_DEPRECATED(msg)
#elif defined(__GNUC__) || defined(__clang__)
#define UTF8GUARD_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define UTF8GUARD_DEPRECATED(msg)
#endif

/* ---- Percent-encoded input ------------------------------------------------
 * URL components and form data arrive percent-encoded: %XX (two hex digits,
 * either case) stands for the byte XX, every other byte for itself (raw UTF-8
 * stays raw, '+' stays '+'). %C0 alone is 3 encoded bytes long, %E2%80%AE 9.
 * Two categories belong to encoded input: UTF8GUARD_CATEGORY_BAD_ESCAPE, a
 * '%' not followed by two hex digits (length 1; when not denied, the '%' is
 * a literal byte), and UTF8GUARD_CATEGORY_DOUBLE_ENCODING, a %25 whose
 * decoded '%' is followed by two decoded hex digits, so that a second decode
 * makes another byte (length 3). Both report code point U+0025. */

/* utf8guard_percent_is_valid returns whether data[0..len), percent-decoded,
 * is well-formed UTF-8 with no character |policy| denies. False for
 * (NULL, len > 0). */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT bool utf8guard_percent_is_valid(const char* data, size_t len,
                                                                     utf8guard_policy policy);

/* utf8guard_percent_validate returns the first error of data[0..len),
 * percent-decoded, as above; kind INVALID_ARGUMENT for (NULL, len > 0). */
UTF8GUARD_EXPORT utf8guard_encoded_result utf8guard_percent_validate(const char* data, size_t len,
                                                                     utf8guard_policy policy);

/* utf8guard_percent_decode writes data[0..len) percent-decoded to
 * out[0..cap) and stores the number of bytes in |*written|; a bad escape's '%'
 * is copied as it is. Decoding never grows, so a |cap| of |len| suffices. When
 * |cap| is too small it returns UTF8GUARD_STATUS_BUFFER_TOO_SMALL, writing
 * nothing meaningful, and stores the size needed in |*written|. Returns
 * UTF8GUARD_STATUS_INVALID_ARGUMENT for (NULL, len > 0), (NULL, cap > 0) or a
 * NULL |written|. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status
utf8guard_percent_decode(const char* data, size_t len, char* out, size_t cap, size_t* written);

/* utf8guard_percent_describe is utf8guard_describe for a result of
 * percent-encoded input: data[0..len) holds the encoded bytes from encoded
 * offset |base| on, and the library decodes what it shows: HEX BYTES are the
 * decoded bytes of the subpart or character and what follows, and the hint is
 * that of the decoded bytes. A stream keeps UTF8GUARD_DESCRIBE_PERCENT_BEHIND
 * encoded bytes before the error's offset and UTF8GUARD_DESCRIBE_PERCENT_AHEAD
 * from it (three per decoded byte). */
#define UTF8GUARD_DESCRIBE_PERCENT_BEHIND 9
#define UTF8GUARD_DESCRIBE_PERCENT_AHEAD 18
UTF8GUARD_EXPORT size_t utf8guard_percent_describe(const char* data, size_t len, size_t base,
                                                   utf8guard_encoded_result result, unsigned flags,
                                                   char* out, size_t cap);

/* utf8guard_percent_explain is utf8guard_explain for a result of
 * percent-encoded input, over the same window as utf8guard_percent_describe:
 * the hint of the decoded bytes at the error. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_hint utf8guard_percent_explain(
    const char* data, size_t len, size_t base, utf8guard_encoded_result result);

/* The older names of the four above, kept for one release. */
UTF8GUARD_DEPRECATED("use utf8guard_percent_is_valid")
UTF8GUARD_EXPORT bool utf8guard_is_valid_percent_encoded(const char* data, size_t len,
                                                         utf8guard_policy policy);
UTF8GUARD_DEPRECATED("use utf8guard_percent_validate")
UTF8GUARD_EXPORT utf8guard_encoded_result
utf8guard_validate_percent_encoded(const char* data, size_t len, utf8guard_policy policy);
UTF8GUARD_DEPRECATED("use utf8guard_percent_describe")
UTF8GUARD_EXPORT size_t utf8guard_describe_percent(const char* data, size_t len, size_t base,
                                                   utf8guard_encoded_result result, unsigned flags,
                                                   char* out, size_t cap);
UTF8GUARD_NODISCARD UTF8GUARD_DEPRECATED("use utf8guard_percent_explain") UTF8GUARD_EXPORT
    utf8guard_hint utf8guard_explain_percent(const char* data, size_t len, size_t base,
                                             utf8guard_encoded_result result);

/* utf8guard_percent_stream checks percent-encoded input that arrives in
 * chunks, in constant memory: an escape may be split across chunks (%C | 3%A9)
 * and offsets stay absolute. Used through the validator functions it keeps the
 * first error, as utf8guard_validator does; through the scanner functions it
 * reports every error, as utf8guard_error_scanner does. An error is reported by the
 * call that delivers the byte deciding it (a bad escape or a double encoding
 * may take two more bytes). Its life and misuse are those of "Streaming
 * objects"; a stream set up by one init is refused by the other's functions.
 * The fields are private. */
typedef struct utf8guard_percent_stream {
  utf8guard_error_scanner priv_decoded; /* the decoded bytes' scanner */
  utf8guard_encoded_result priv_error;  /* first error, sticky (validator) */
  size_t priv_position;                 /* encoded bytes fed */
  size_t priv_errors;                   /* errors reported (scanner) */
  size_t priv_recent[3];                /* encoded offsets of the last decoded bytes */
  size_t priv_double_offset;            /* the last %25, while its digits are awaited */
  size_t priv_double_decoded;
  utf8guard_policy priv_policy;
  uint32_t priv_state;
  unsigned char priv_recent_width[3]; /* their encoded lengths, 1 or 3 */
  unsigned char priv_pending[2];      /* an escape cut by the chunk's end */
  unsigned char priv_pending_len;
  unsigned char priv_double_digits; /* 0: none; 1, 2: after a %25, digits seen + 1 */
  unsigned char priv_scanner;       /* 1 when set up by the scanner's init */
} utf8guard_percent_stream;

/* utf8guard_percent_validator_init resets |s| to the start of a new input
 * whose decoded characters |policy| may deny. */
UTF8GUARD_EXPORT void utf8guard_percent_validator_init(utf8guard_percent_stream* s,
                                                       utf8guard_policy policy);

/* utf8guard_percent_validator_feed checks the next chunk and returns the
 * first error so far; finish also reports an escape or a sequence left open
 * at the end, and returns the same result when called again. */
UTF8GUARD_EXPORT utf8guard_encoded_result
utf8guard_percent_validator_feed(utf8guard_percent_stream* s, const char* data, size_t len);
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_encoded_result
utf8guard_percent_validator_finish(utf8guard_percent_stream* s);

/* utf8guard_percent_scanner_init resets |s| to the start of a new stream
 * whose every error goes to the callback of feed and finish, in order. */
UTF8GUARD_EXPORT void utf8guard_percent_scanner_init(utf8guard_percent_stream* s,
                                                     utf8guard_policy policy);

/* Statuses as for utf8guard_error_scanner_feed and utf8guard_error_scanner_finish. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status
utf8guard_percent_scanner_feed(utf8guard_percent_stream* s, const char* data, size_t len,
                               utf8guard_encoded_callback on_error, void* ctx);
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_percent_scanner_finish(
    utf8guard_percent_stream* s, utf8guard_encoded_callback on_error, void* ctx);

/* utf8guard_percent_scanner_errors returns how many errors |s| has reported,
 * or SIZE_MAX for a NULL or uninitialised |s|. */
UTF8GUARD_EXPORT size_t utf8guard_percent_scanner_errors(const utf8guard_percent_stream* s);

/* ---- JSON text -------------------------------------------------------------
 * JSON text is checked with its escapes decoded, and the decoded characters
 * held to the rules of raw bytes (Table 3-7, then the policy). The check does
 * not parse JSON's structure: in valid JSON a backslash stands only inside a
 * string, so every backslash starts an escape.
 *
 * A raw byte is itself. \" \\ \/ \b \f \n \r \t are 2 encoded bytes, one
 * character (\\ starts nothing). \uXXXX (4 hex digits, either case) is a
 * UTF-16 unit: a high surrogate escape immediately followed by a low one is
 * one character (12 bytes: \ud83d\ude00 is U+1F600), any other escape its
 * BMP character (6 bytes). An escape decodes to a whole character: it never
 * completes or continues a raw sequence.
 *
 * Findings, in input order, offsets as utf8guard_encoded_result's:
 *  - a raw ill-formed subpart, as raw input;
 *  - a lone surrogate escape (a low one not preceded by a high one, a high one
 *    not immediately followed by a low one): kind SURROGATE under every
 *    policy, at its backslash, length 6; its decoded bytes are the 3 bytes of
 *    the unit's generalized UTF-8 (ED A0 80 for \ud800);
 *  - a bad escape (a backslash not followed by one of "\/bfnrtu, or \u not
 *    followed by 4 hex digits): category UTF8GUARD_CATEGORY_BAD_ESCAPE, kind
 *    DISALLOWED, code point U+005C, length 1, when the policy denies it;
 *    otherwise the backslash is a literal byte and the bytes after it are read
 *    as themselves;
 *  - an escaped character the policy denies: kind DISALLOWED, at its
 *    backslash, length 2, 6 or 12.
 * UTF8GUARD_CATEGORY_DOUBLE_ENCODING matches nothing in JSON text. */

/* utf8guard_json_is_valid returns whether data[0..len), JSON text, holds
 * no ill-formed subpart, no lone surrogate escape and no character or bad
 * escape |policy| denies. False for (NULL, len > 0). */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT bool utf8guard_json_is_valid(const char* data, size_t len,
                                                                  utf8guard_policy policy);

/* utf8guard_json_validate returns the first finding of data[0..len), as
 * above; kind INVALID_ARGUMENT for (NULL, len > 0). */
UTF8GUARD_EXPORT utf8guard_encoded_result utf8guard_json_validate(const char* data, size_t len,
                                                                  utf8guard_policy policy);

/* utf8guard_json_sanitize_bound stores in |*bound| the largest output that
 * sanitizing |len| bytes of JSON text can produce (6 * len), or returns
 * UTF8GUARD_STATUS_OVERFLOW if that does not fit in size_t. A NULL |bound| is
 * UTF8GUARD_STATUS_INVALID_ARGUMENT. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_json_sanitize_bound(size_t len,
                                                                                    size_t* bound);

/* utf8guard_json_sanitize writes data[0..len), JSON text, to out[0..cap) as
 * JSON text with every finding replaced, and stores its size in |*written|
 * (which may be NULL): a raw ill-formed subpart or denied raw character
 * becomes U+FFFD (EF BF BD), as utf8guard_sanitize_policy writes it; a lone
 * surrogate escape, a denied escaped character and a denied bad escape's
 * backslash become the 6 bytes \ufffd (the bytes after a bad escape's
 * backslash are copied). Everything else is copied. Sizes and statuses as
 * for utf8guard_sanitize; a |cap| of utf8guard_json_sanitize_bound(len)
 * always suffices. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_json_sanitize(
    const char* data, size_t len, utf8guard_policy policy, char* out, size_t cap, size_t* written);

/* utf8guard_json_describe is utf8guard_describe for a result of JSON text:
 * data[0..len) holds the encoded bytes from encoded offset |base| on, and
 * the library decodes what it shows: HEX BYTES are the decoded bytes of the
 * finding and what follows (a lone surrogate as its generalized UTF-8), and
 * the hint is that of the decoded bytes. A finding at an escape shows the
 * escape as written and its code point after its kind and category:
 * "surrogate \ud800 U+D800 at byte 7 (ED A0 80 79)",
 * "disallowed bidi \u202e U+202E at byte 7 (E2 80 AE 79)". A stream keeps
 * UTF8GUARD_DESCRIBE_JSON_BEHIND encoded bytes before the finding's offset
 * and UTF8GUARD_DESCRIBE_JSON_AHEAD from it. */
#define UTF8GUARD_DESCRIBE_JSON_BEHIND 3
#define UTF8GUARD_DESCRIBE_JSON_AHEAD 48
UTF8GUARD_EXPORT size_t utf8guard_json_describe(const char* data, size_t len, size_t base,
                                                utf8guard_encoded_result result, unsigned flags,
                                                char* out, size_t cap);

/* utf8guard_json_explain is utf8guard_explain for a result of JSON text,
 * over the same window as utf8guard_json_describe: the hint of the decoded
 * bytes at the finding (surrogate_code_point U+D800 for \ud800). */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_hint
utf8guard_json_explain(const char* data, size_t len, size_t base, utf8guard_encoded_result result);

/* utf8guard_json_truncate is utf8guard_truncate for JSON text: it never cuts
 * inside an escape or an escaped pair either, and in
 * UTF8GUARD_TRUNCATE_WELL_FORMED mode the prefix has no finding under the
 * empty policy (no lone surrogate escape). */
UTF8GUARD_EXPORT size_t utf8guard_json_truncate(const char* data, size_t len, size_t max,
                                                utf8guard_truncate_mode mode);

/* utf8guard_json_stream checks JSON text that arrives in chunks, in constant
 * memory, as utf8guard_percent_stream does percent-encoded input: an escape
 * may be split across chunks, offsets stay absolute, and a finding is
 * reported by the call that delivers the byte deciding it (a high surrogate
 * escape may take the next 6 bytes; at most 11 bytes are held). The fields
 * are private. */
typedef struct utf8guard_json_stream {
  utf8guard_error_scanner priv_decoded; /* the decoded bytes' scanner */
  utf8guard_encoded_result priv_error;  /* first error, sticky (validator) */
  size_t priv_position;                 /* encoded bytes fed */
  size_t priv_errors;                   /* errors reported (scanner) */
  size_t priv_recent[3];                /* encoded offsets of the last decoded bytes */
  utf8guard_policy priv_policy;
  uint32_t priv_state;
  unsigned char priv_recent_width[3]; /* their encoded lengths */
  unsigned char priv_pending[11];     /* an escape cut by the chunk's end */
  unsigned char priv_pending_len;
  unsigned char priv_scanner; /* 1 when set up by the scanner's init */
} utf8guard_json_stream;

/* utf8guard_json_validator_init resets |s| to the start of a new input
 * whose decoded characters |policy| may deny. */
UTF8GUARD_EXPORT void utf8guard_json_validator_init(utf8guard_json_stream* s,
                                                    utf8guard_policy policy);

/* utf8guard_json_validator_feed checks the next chunk and returns the first
 * finding so far; finish also reports an escape or a sequence left open at
 * the end, and returns the same result when called again. */
UTF8GUARD_EXPORT utf8guard_encoded_result utf8guard_json_validator_feed(utf8guard_json_stream* s,
                                                                        const char* data,
                                                                        size_t len);
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_encoded_result
utf8guard_json_validator_finish(utf8guard_json_stream* s);

/* utf8guard_json_scanner_init resets |s| to the start of a new stream whose
 * every finding goes to the callback of feed and finish, in order. */
UTF8GUARD_EXPORT void utf8guard_json_scanner_init(utf8guard_json_stream* s,
                                                  utf8guard_policy policy);

/* Statuses as for utf8guard_error_scanner_feed and utf8guard_error_scanner_finish. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status
utf8guard_json_scanner_feed(utf8guard_json_stream* s, const char* data, size_t len,
                            utf8guard_encoded_callback on_error, void* ctx);
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_json_scanner_finish(
    utf8guard_json_stream* s, utf8guard_encoded_callback on_error, void* ctx);

/* utf8guard_json_scanner_errors returns how many findings |s| has reported,
 * or SIZE_MAX for a NULL or uninitialised |s|. */
UTF8GUARD_EXPORT size_t utf8guard_json_scanner_errors(const utf8guard_json_stream* s);

/* ---- Finding windows -------------------------------------------------------
 * utf8guard_finding_window keeps, for input that arrives in chunks, the bytes
 * the message of one finding reads: the describe window of the input's form
 * (UTF8GUARD_DESCRIBE_BEHIND before the finding's offset and
 * UTF8GUARD_DESCRIBE_AHEAD from it; the _PERCENT_ and _JSON_ constants for
 * those forms), or without UTF8GUARD_DESCRIBE_HINT the bytes that carry the 4
 * the message shows from the offset (4 input bytes, 12 percent-encoded ones,
 * 30 of JSON text: three escapes and an escaped pair). Every streaming caller keeps its findings'
 * bytes with it (the CLI, the nginx module, the Python and Node streams), so that all of them show
 * the same message, and it is the message of the whole input:
 *  - _feed takes every chunk of the input, in order. Before a finding it
 *    keeps the last UTF8GUARD_FINDING_WINDOW_HISTORY bytes fed; after one,
 *    the bytes of its window.
 *  - _mark(offset) says where the finding is. Call it before feeding the
 *    chunk whose check reported it: a stream reports a finding when the
 *    byte deciding it arrives, so its offset may lie in that chunk or up to
 *    UTF8GUARD_FINDING_WINDOW_LATE bytes before it. The first mark stands.
 *  - _finish says the input has ended (a finding its _finish reported is
 *    marked before or after it).
 *  - _ready says that the window holds every byte the message reads: the
 *    AHEAD bytes from the finding's offset have been fed, or the input has
 *    ended. Then utf8guard_describe with those flags (and explain, with
 *    UTF8GUARD_DESCRIBE_HINT), or the form's, over _bytes gives what it gives
 *    over the whole input, wherever the chunks were cut. Before that, _bytes
 *    holds the bytes fed so far, but for a percent escape their end cuts,
 *    which the message would otherwise show as a literal '%'.
 * A window is one finding's: a caller that reports several keeps one window
 * for the stream and gives each finding a copy of it (a plain struct), marked
 * with that finding's offset. Offsets count from the first byte fed. Memory is
 * constant, nothing is allocated, and a NULL window or a (NULL, len > 0) chunk
 * is ignored. The fields are private. */
typedef enum utf8guard_form {
  UTF8GUARD_FORM_RAW = 0,     /* the bytes are the text (utf8guard_describe) */
  UTF8GUARD_FORM_PERCENT = 1, /* percent-encoded (utf8guard_percent_describe) */
  UTF8GUARD_FORM_JSON = 2     /* JSON text (utf8guard_json_describe) */
} utf8guard_form;

#define UTF8GUARD_FINDING_WINDOW_HISTORY 64
#define UTF8GUARD_FINDING_WINDOW_LATE 32
#define UTF8GUARD_FINDING_WINDOW_MAX \
  (UTF8GUARD_DESCRIBE_JSON_BEHIND + UTF8GUARD_DESCRIBE_JSON_AHEAD)

typedef struct utf8guard_finding_window {
  size_t priv_fed;    /* bytes fed so far */
  size_t priv_offset; /* the finding's offset, once marked */
  size_t priv_base;   /* offset of priv_bytes[0] */
  unsigned char priv_history[UTF8GUARD_FINDING_WINDOW_HISTORY]; /* the last bytes fed */
  unsigned char priv_bytes[UTF8GUARD_FINDING_WINDOW_MAX];       /* the finding's window */
  unsigned char priv_history_len;
  unsigned char priv_len;
  unsigned char priv_behind; /* the form's describe window */
  unsigned char priv_ahead;
  unsigned char priv_marked;
  unsigned char priv_ended;
  unsigned char priv_form;
} utf8guard_finding_window;

/* utf8guard_finding_window_init starts |w| for a new input of |form| (an
 * unknown form is taken as UTF8GUARD_FORM_RAW), whose finding will be
 * described with |flags| (UTF8GUARD_DESCRIBE_HINT or 0). */
UTF8GUARD_EXPORT void utf8guard_finding_window_init(utf8guard_finding_window* w,
                                                    utf8guard_form form, unsigned flags);

/* utf8guard_finding_window_mark places the finding at |offset|: its window
 * starts the form's BEHIND bytes before it, or at the oldest byte kept. It
 * returns false, changing nothing, when a finding is marked already. */
UTF8GUARD_EXPORT bool utf8guard_finding_window_mark(utf8guard_finding_window* w, size_t offset);

/* utf8guard_finding_window_feed takes the next chunk of the input. */
UTF8GUARD_EXPORT void utf8guard_finding_window_feed(utf8guard_finding_window* w, const char* data,
                                                    size_t len);

/* utf8guard_finding_window_finish ends the input. */
UTF8GUARD_EXPORT void utf8guard_finding_window_finish(utf8guard_finding_window* w);

/* utf8guard_finding_window_marked says whether a finding is marked;
 * utf8guard_finding_window_ready whether its message is final. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT bool utf8guard_finding_window_marked(
    const utf8guard_finding_window* w);
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT bool utf8guard_finding_window_ready(
    const utf8guard_finding_window* w);

/* utf8guard_finding_window_bytes returns the finding's window, the |data| and
 * |base| that describe and explain take, and stores its length in |*len|
 * (which may be NULL), and the offset of its first byte in |*base| (which may
 * be NULL): an empty window at offset 0 when no finding is marked. */
UTF8GUARD_EXPORT const char* utf8guard_finding_window_bytes(const utf8guard_finding_window* w,
                                                            size_t* len, size_t* base);

/* ---- Code points ---------------------------------------------------------- */

/* utf8guard_decode_one decodes the sequence at the start of data[0..len). On
 * success it stores the scalar value in |*code_point| and returns a result of
 * kind NONE whose |length| is the sequence's size (1..4); on error it returns
 * the error at offset 0 and leaves |*code_point| unchanged. An empty input is
 * an "incomplete" error of length 0. (NULL, len > 0) and a NULL |code_point|
 * are UTF8GUARD_ERROR_INVALID_ARGUMENT. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_result utf8guard_decode_one(const char* data,
                                                                           size_t len,
                                                                           uint32_t* code_point);

/* utf8guard_decode decodes all of data[0..len) into out[0..cap). It stores
 * the number of code points the whole decode writes in |*count| (which may be
 * NULL) and, if |error| is not NULL, the first error. It returns
 * UTF8GUARD_STATUS_BUFFER_TOO_SMALL when |cap| is less than that count (|len|
 * always suffices), else UTF8GUARD_STATUS_ILL_FORMED at the first error (the
 * code points before it are written).
 * For (NULL, len > 0) or (NULL, cap > 0) it returns UTF8GUARD_STATUS_INVALID_ARGUMENT,
 * with |*count| 0 and |*error| of kind UTF8GUARD_ERROR_INVALID_ARGUMENT. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_decode(const char* data, size_t len,
                                                                       uint32_t* out, size_t cap,
                                                                       size_t* count,
                                                                       utf8guard_result* error);

/* utf8guard_encode_one writes the shortest UTF-8 form of |code_point| to
 * out[0..4) and returns its length (1..4), or 0 if |code_point| is not a
 * Unicode scalar value (a surrogate, or above U+10FFFF) or |out| is NULL. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT size_t utf8guard_encode_one(uint32_t code_point, char out[4]);

/* utf8guard_encode encodes code_points[0..count) into out[0..cap), storing
 * the number of bytes the whole encode writes in |*written| (which may be
 * NULL). It returns UTF8GUARD_STATUS_BUFFER_TOO_SMALL when |cap| is less than
 * that (4 * count suffices), else UTF8GUARD_STATUS_ILL_FORMED at the first
 * value that is not a scalar value (the values before it are written; its
 * index is stored in |*bad_index| if that is not NULL; the status
 * BUFFER_TOO_SMALL stores it too).
 * For (NULL, count > 0) or (NULL, cap > 0) it returns
 * UTF8GUARD_STATUS_INVALID_ARGUMENT, with |*written| 0 and |*bad_index| unchanged. */
UTF8GUARD_NODISCARD UTF8GUARD_EXPORT utf8guard_status utf8guard_encode(const uint32_t* code_points,
                                                                       size_t count, char* out,
                                                                       size_t cap, size_t* written,
                                                                       size_t* bad_index);

/* ---- Kernels and version -------------------------------------------------- */

/* utf8guard_active_kernel returns the name of the kernel validation uses
 * ("scalar", "sse42", "avx2", "avx512bw", "avx512", "neon"), resolving it on
 * first use. */
UTF8GUARD_EXPORT const char* utf8guard_active_kernel(void);

/* utf8guard_kernel_count returns how many kernels are compiled in. */
UTF8GUARD_EXPORT size_t utf8guard_kernel_count(void);

/* utf8guard_kernel_name returns the name of compiled kernel |index|, or NULL
 * (leaving |*usable| unchanged) if |index| is out of range; |*usable| (if not
 * NULL) says whether this CPU can run it. */
UTF8GUARD_EXPORT const char* utf8guard_kernel_name(size_t index, bool* usable);

/* utf8guard_set_kernel makes every later call in the process use the kernel
 * |name| ("best" selects the fastest usable one). It returns false, changing
 * nothing, if no such kernel is compiled in, this CPU cannot run it, or |name|
 * is NULL. */
UTF8GUARD_EXPORT bool utf8guard_set_kernel(const char* name);

/* utf8guard_kernel_env_error returns NULL when the environment variable
 * UTF8GUARD_KERNEL is unset or names a usable kernel. Otherwise it returns a
 * static message saying why the request was ignored; validation then uses the
 * best usable kernel. The library never prints it: callers such as the CLI do. */
UTF8GUARD_EXPORT const char* utf8guard_kernel_env_error(void);

/* utf8guard_version returns the library's semantic version, e.g. "1.0.0". */
UTF8GUARD_EXPORT const char* utf8guard_version(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* UTF8GUARD_H */
