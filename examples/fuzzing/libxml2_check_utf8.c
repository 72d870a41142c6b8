/* libxml2_check_utf8.c - libFuzzer under utf8guard's oracle against libxml2's
 * xmlCheckUTF8 (libxml2-dev). libxml2 documents the function as "not
 * super-strict": it checks the bit pattern of 1- to 4-byte sequences only, so
 * it accepts overlongs, surrogates and values up to U+1FFFFF. Built twice:
 *  - strict (no TOLERATE): the oracle must abort, naming what libxml2 let
 *    through (ctest expects that abort);
 *  - TOLERATE=<flags> (libxml2's documented laxness): must run clean. */
#include <libxml/xmlstring.h>
#include <stdlib.h>
#include <string.h>
#include <utf8guard/fuzz.h>

#ifndef TOLERATE
#define TOLERATE 0
#endif

UTF8GUARD_FUZZ_LIBFUZZER_MUTATOR

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  /* xmlCheckUTF8 reads up to a NUL: give it one, and judge what it saw. */
  const uint8_t* nul = memchr(data, 0, size);
  const size_t seen = nul != NULL ? (size_t)(nul - data) : size;
  xmlChar* text = malloc(seen + 1);
  if (text == NULL) return 0;
  memcpy(text, data, seen);
  text[seen] = 0;
  const int valid = xmlCheckUTF8(text) == 1;
  utf8guard_fuzz_check("libxml2 xmlCheckUTF8", (const char*)text, seen, valid,
                       UTF8GUARD_FUZZ_NO_OFFSET, TOLERATE);
  free(text);
  return 0;
}
