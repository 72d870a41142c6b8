/* common.h - what the functions (module.c) and the streams (stream.c) of the
 * utf8guard extension share: input buffers, policies by name, and the Python
 * objects that carry a finding (Result, Hint, DecodeError). */
#ifndef UTF8GUARD_PY_COMMON_H
#define UTF8GUARD_PY_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <utf8guard/utf8guard.h>

/* Inputs at least this long are checked with the GIL released: below it the
 * release and the re-acquire cost more than other threads gain. */
#define UG_NOGIL_MIN ((Py_ssize_t)1 << 16)

/* UG_CALL runs |statement| (a call into the library over |len| input bytes),
 * with the GIL released when |len| reaches UG_NOGIL_MIN. */
#define UG_CALL(len, statement)         \
  do {                                  \
    if ((len) >= UG_NOGIL_MIN) {        \
      Py_BEGIN_ALLOW_THREADS statement; \
      Py_END_ALLOW_THREADS              \
    } else {                            \
      statement;                        \
    }                                   \
  } while (0)

/* An input as (pointer, length); |view.obj| is set when a buffer is held. */
typedef struct {
  const char* data;
  Py_ssize_t len;
  Py_buffer view;
} ug_input;

/* ug_input_get reads |obj| without copying it: bytes directly, anything else
 * through the buffer protocol (bytearray, memoryview, mmap, array). Returns
 * -1 with TypeError set for anything without a contiguous buffer (str). */
int ug_input_get(PyObject* obj, ug_input* in);
void ug_input_release(ug_input* in);

/* ug_policy_from reads profile=, deny= and policy= (each may be NULL or
 * None): profile is a profile name; deny a category name, a comma-separated
 * string of them, or an iterable of names, added to the profile; policy
 * instead of profile, a spec such as "url,-newline" (profile and category
 * names, each added, or removed with '-', left to right) or the bits of
 * policy_bits(). Returns -1 with ValueError or TypeError. */
int ug_policy_from(PyObject* profile, PyObject* deny, PyObject* spec, utf8guard_policy* policy);

/* ug_kwargs matches keyword arguments of a METH_FASTCALL|METH_KEYWORDS call
 * against |names| (NULL-terminated) and stores each value (borrowed) in
 * |values|, which the caller has set to NULL. Returns -1 with TypeError for
 * an unknown or repeated keyword. */
int ug_kwargs(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, const char* const* names,
              PyObject** values, const char* func);

/* The Python classes of utf8guard/_types.py, registered at import. */
typedef struct {
  PyObject* result_type;  /* Result */
  PyObject* hint_type;    /* Hint */
  PyObject* decode_error; /* DecodeError */
  PyObject* stream_error; /* StreamError */
  PyObject* clean;        /* the Result of a clean input */
} ug_types;
extern ug_types ug_registered;

/* ug_hint_object: a Hint for |h|, or a new reference to None. */
PyObject* ug_hint_object(utf8guard_hint h);

/* ug_result_object builds the Result of |r| found in data[0..len), the
 * input's bytes from absolute offset |base| on (a stream passes the bytes it
 * kept around the finding). For percent-encoded input |percent| is the whole
 * report, |r| its error, and data are the encoded bytes. */
PyObject* ug_result_object(const char* data, size_t len, size_t base, utf8guard_result r,
                           const utf8guard_encoded_result* percent);

extern PyTypeObject ug_validator_type;

#endif
