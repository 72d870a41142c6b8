/* common.h - what the functions (module.c) and the streams (stream.c) of the
 * utf8guard extension share: input buffers, policies by name, and the Python
 * objects that carry a finding (Result, Hint, DecodeError). */
#ifndef UTF8GUARD_PY_COMMON_H
#define UTF8GUARD_PY_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <utf8guard/utf8guard.h>

#if PY_VERSION_HEX < 0x030A0000
/* Python 3.9 lacks these two (3.10 has them). */
static inline PyObject* Py_NewRef(PyObject* obj) {
  Py_INCREF(obj);
  return obj;
}
static inline int PyModule_AddObjectRef(PyObject* module, const char* name, PyObject* value) {
  Py_XINCREF(value);
  if (PyModule_AddObject(module, name, value) < 0) {
    Py_XDECREF(value);
    return -1;
  }
  return 0;
}
#endif

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
  PyObject* owned; /* the UTF-8 of a str, when it had to be encoded */
} ug_input;

/* ug_input_get reads |obj| without copying it: bytes directly, anything else
 * through the buffer protocol (bytearray, memoryview, mmap, array). With
 * |allow_str|, a str is read as its UTF-8 (a lone surrogate as the 3 bytes
 * of its generalized UTF-8, which every policy reports) and |*was_str| is
 * set. Returns -1 with TypeError naming |func| for anything else. */
int ug_input_get(PyObject* obj, ug_input* in, const char* func, int allow_str, int* was_str);
void ug_input_release(ug_input* in);

/* ug_policy_from reads profile=, deny= and policy= (each may be NULL or
 * None): profile is a profile name; deny a category name, a comma-separated
 * string of them, or an iterable of names, added to the profile; policy
 * instead of profile, a spec such as "url,-newline" (profile and category
 * names, each added, or removed with '-', left to right) or the bits of
 * policy_bits() (a bool is refused). Returns -1 with ValueError or TypeError
 * whose message starts with "|func|(): ". */
int ug_policy_from(const char* func, PyObject* profile, PyObject* deny, PyObject* spec,
                   utf8guard_policy* policy);

/* ug_spec_parse reads one policy spec: a str read left to right
 * ("field, -newline": blanks around items are dropped) or the int of
 * policy_bits(); a bool or anything else is a TypeError. Errors start with
 * "|func|(): |label|". */
int ug_spec_parse(const char* func, const char* label, PyObject* spec, utf8guard_policy* policy);

/* ug_kwargs matches keyword arguments of a METH_FASTCALL|METH_KEYWORDS call
 * against |names| (NULL-terminated) and stores each value (borrowed) in
 * |values|, which the caller has set to NULL. Returns -1 with TypeError for
 * an unknown or repeated keyword. */
int ug_kwargs(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, const char* const* names,
              PyObject** values, const char* func);

/* The module's state: the Python classes of utf8guard/_types.py, registered
 * at import (register_types), and the Validator type. Each module object
 * (one per interpreter) has its own. */
typedef struct {
  PyObject* result_type;  /* Result */
  PyObject* hint_type;    /* Hint */
  PyObject* decode_error; /* DecodeError */
  PyObject* stream_error; /* StreamError */
  PyObject* clean;        /* the Result of a clean input (immutable) */
  PyObject* validator_type;
} ug_state;

/* ug_module_state: the state of the module object |module|. */
static inline ug_state* ug_module_state(PyObject* module) {
  return (ug_state*)PyModule_GetState(module);
}

/* ug_ready: whether register_types has run; else RuntimeError naming |func|. */
int ug_ready(const ug_state* st, const char* func);

/* ug_hint_object: a Hint for |h|, or a new reference to None. */
PyObject* ug_hint_object(const ug_state* st, utf8guard_hint h);

/* The forms an input may come in: raw bytes, or encoded text whose escapes
 * are decoded as it is read. */
typedef enum { UG_FORM_RAW = 0, UG_FORM_PERCENT = 1, UG_FORM_JSON = 2 } ug_form;

/* ug_result_object builds the Result of |r| found in data[0..len), the
 * input's bytes from absolute offset |base| on (a stream passes the bytes it
 * kept around the finding). For an encoded |form|, |encoded| is the whole
 * report, |r| its error, and data are the encoded bytes. */
PyObject* ug_result_object(const ug_state* st, const char* data, size_t len, size_t base,
                           utf8guard_result r, const utf8guard_encoded_result* encoded,
                           ug_form form);

/* ug_validator_add creates the Validator type (a heap type of |module|) and
 * adds it to the module. */
int ug_validator_add(PyObject* module);

/* ug_core_add adds the request rules of request_check (nginx/src) to the
 * module: SLOTS, body_slot, rule_default, rule_parse, header_label. */
int ug_core_add(PyObject* module);

#endif
