/* fuzz.h - utf8guard's helpers for other projects' fuzzing jobs (the library
 * utf8guard_fuzz: CMake target utf8guard::fuzz, pkg-config utf8guard-fuzz):
 *
 *  - a mutator that edits UTF-8 at character boundaries and injects the forms
 *    decoders get wrong (overlong delimiters, CESU-8, surrogates, values above
 *    U+10FFFF, RFC 2279 5- and 6-byte forms, cut sequences before a
 *    delimiter, ...), for libFuzzer, AFL++ or any loop of your own;
 *  - a differential oracle: give it your decoder's verdict on an input, and it
 *    aborts with a report when that verdict is not the strict one, less the
 *    differences you declare as tolerated.
 *
 * The conventions of utf8guard.h hold, except that utf8guard_fuzz_check
 * prints and aborts: that is its purpose. Compiles as C99 and as C++. */
#ifndef UTF8GUARD_FUZZ_H
#define UTF8GUARD_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "utf8guard/utf8guard.h"

/* The fuzzing library has its own export switch: on Windows a DLL build of it
 * exports while it imports libutf8guard. */
#if defined(_WIN32) && defined(UTF8GUARD_SHARED)
#ifdef UTF8GUARD_FUZZ_BUILDING
#define UTF8GUARD_FUZZ_EXPORT __declspec(dllexport)
#else
#define UTF8GUARD_FUZZ_EXPORT __declspec(dllimport)
#endif
#else
#define UTF8GUARD_FUZZ_EXPORT UTF8GUARD_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The mutator ----------------------------------------------------------- */

/* utf8guard_fuzz_fallback is an engine's own byte-level mutator, with
 * libFuzzer's LLVMFuzzerMutate signature: it mutates data[0..size) in place
 * within max_size bytes and returns the new size. */
typedef size_t (*utf8guard_fuzz_fallback)(uint8_t* data, size_t size, size_t max_size);

/* utf8guard_fuzz_mutate applies one mutation to data[0..size) in place and
 * returns the new size, which never exceeds |max_size| (size <= max_size is
 * required). Most mutations work on whole characters (a character is a
 * well-formed sequence or a maximal subpart): they insert, replace, delete,
 * duplicate, swap or re-encode as overlong the character at a boundary, or
 * inject a hostile form there. The same input and seed give the same output. */
UTF8GUARD_FUZZ_EXPORT size_t utf8guard_fuzz_mutate(uint8_t* data, size_t size, size_t max_size,
                                                   unsigned int seed);

/* utf8guard_fuzz_mutate_ex is utf8guard_fuzz_mutate with two extras: a share
 * of the calls goes to |fallback| (when not NULL; otherwise to a byte-level
 * mutation of the library's own), so that the engine's mutations still run;
 * and, when |what| is not NULL, |*what| receives the static name of the
 * mutation applied (e.g. "overlong_delimiter", for AFL++'s describe). */
UTF8GUARD_FUZZ_EXPORT size_t utf8guard_fuzz_mutate_ex(uint8_t* data, size_t size, size_t max_size,
                                                      unsigned int seed,
                                                      utf8guard_fuzz_fallback fallback,
                                                      const char** what);

/* UTF8GUARD_FUZZ_LIBFUZZER_MUTATOR defines libFuzzer's LLVMFuzzerCustomMutator
 * in the file that uses it (once per fuzz target), with LLVMFuzzerMutate as the
 * fallback. The library itself never names a libFuzzer symbol, so it links into
 * any program. */
#ifdef __cplusplus
#define UTF8GUARD_FUZZ_EXTERN_C extern "C"
#else
#define UTF8GUARD_FUZZ_EXTERN_C
#endif
#define UTF8GUARD_FUZZ_LIBFUZZER_MUTATOR                                                        \
  UTF8GUARD_FUZZ_EXTERN_C size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size); \
  UTF8GUARD_FUZZ_EXTERN_C size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size,            \
                                                         size_t max_size, unsigned int seed);   \
  UTF8GUARD_FUZZ_EXTERN_C size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size,            \
                                                         size_t max_size, unsigned int seed) {  \
    return utf8guard_fuzz_mutate_ex(data, size, max_size, seed, LLVMFuzzerMutate, NULL);        \
  }

/* ---- The differential oracle ----------------------------------------------- */

/* Tolerance flags: the documented differences of the decoder under test that
 * the oracle forgives. A tolerated form may be accepted or rejected (at its
 * first byte); anything else must get the strict verdict. */
enum {
  /* non-shortest forms in 2, 3 or 4 bytes: C0 AF, E0 80 AF, F0 80 80 AF */
  UTF8GUARD_FUZZ_ACCEPTS_OVERLONG = 1u << 0,
  /* C0 80 alone, the Modified UTF-8 (Java) NUL */
  UTF8GUARD_FUZZ_ACCEPTS_MODIFIED_UTF8_NUL = 1u << 1,
  /* any encoded surrogate ED A0..BF xx, lone or paired (WTF-8, CESU-8) */
  UTF8GUARD_FUZZ_ACCEPTS_SURROGATES = 1u << 2,
  /* a high surrogate directly followed by a low one, as 6 bytes (CESU-8) */
  UTF8GUARD_FUZZ_ACCEPTS_CESU8_PAIRS = 1u << 3,
  /* 4-byte values U+110000..U+1FFFFF: F4 90..BF xx xx, F5..F7 xx xx xx */
  UTF8GUARD_FUZZ_ACCEPTS_ABOVE_10FFFF = 1u << 4,
  /* the RFC 2279 5- and 6-byte forms: F8..FB + 4, FC..FD + 5 continuations */
  UTF8GUARD_FUZZ_ACCEPTS_5_6_BYTE = 1u << 5,
  /* U+0000 is refused (C-string APIs; glib's g_utf8_validate) */
  UTF8GUARD_FUZZ_REJECTS_NUL = 1u << 8,
  /* the 66 noncharacters U+FDD0..U+FDEF and U+nFFFE, U+nFFFF are refused */
  UTF8GUARD_FUZZ_REJECTS_NONCHARACTERS = 1u << 9
};

/* UTF8GUARD_FUZZ_NO_OFFSET stands for "the decoder does not say where". */
#define UTF8GUARD_FUZZ_NO_OFFSET SIZE_MAX

/* utf8guard_fuzz_agrees returns whether a decoder's verdict on data[0..len) is
 * one a strict decoder with the |tolerate|d differences may give: |valid|, or
 * not valid with the first error at |offset| (UTF8GUARD_FUZZ_NO_OFFSET when
 * the decoder gives no offset). */
UTF8GUARD_NODISCARD UTF8GUARD_FUZZ_EXPORT bool utf8guard_fuzz_agrees(const char* data, size_t len,
                                                                     bool valid, size_t offset,
                                                                     unsigned int tolerate);

/* utf8guard_fuzz_report writes the disagreement report for that verdict to
 * out[0..cap) as a NUL-terminated string (cut to fit) and returns its full
 * length without the NUL, like snprintf; it writes "" and returns 0 when the
 * verdicts agree. |decoder| names the decoder in the report (NULL: "decoder"). */
UTF8GUARD_FUZZ_EXPORT size_t utf8guard_fuzz_report(char* out, size_t cap, const char* decoder,
                                                   const char* data, size_t len, bool valid,
                                                   size_t offset, unsigned int tolerate);

/* utf8guard_fuzz_check does nothing when the verdicts agree; otherwise it
 * prints the report to stderr and calls abort(), which every fuzzing engine
 * records as a crash with the input saved. */
UTF8GUARD_FUZZ_EXPORT void utf8guard_fuzz_check(const char* decoder, const char* data, size_t len,
                                                bool valid, size_t offset, unsigned int tolerate);

#ifdef __cplusplus
}
#endif

#endif /* UTF8GUARD_FUZZ_H */
