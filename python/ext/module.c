/* module.c - utf8guard._utf8guard: the one-shot functions over the C API.
 *
 * Every function is METH_FASTCALL: a call passes its arguments as a C array,
 * with no tuple or dict built, which is what makes a call on a short string
 * cost about what bytes.decode does. Inputs are read in place (bytes
 * directly, other objects through the buffer protocol), and inputs of
 * UG_NOGIL_MIN bytes or more are checked with the GIL released. */
#include "common.h"

static const char* const policy_kw[] = {"profile", "deny", "policy", NULL};

/* One positional input and the policy keywords: the shape of most calls. */
static int input_and_policy(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                            const char* func, ug_input* in, utf8guard_policy* policy) {
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "%s() takes exactly one positional argument (%zd given)", func,
                 nargs);
    return -1;
  }
  *policy = UTF8GUARD_PROFILE_STRICT;
  if (kwnames != NULL) {
    PyObject* kw[3] = {NULL, NULL, NULL};
    if (ug_kwargs(args, nargs, kwnames, policy_kw, kw, func) < 0) return -1;
    if (ug_policy_from(kw[0], kw[1], kw[2], policy) < 0) return -1;
  }
  return ug_input_get(args[0], in);
}

static PyObject* is_valid(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) {
  (void)self;
  /* The short-string path: one bytes argument, no policy. */
  if (nargs == 1 && kwnames == NULL && PyBytes_CheckExact(args[0]) &&
      PyBytes_GET_SIZE(args[0]) < UG_NOGIL_MIN) {
    return PyBool_FromLong(
        utf8guard_is_valid(PyBytes_AS_STRING(args[0]), (size_t)PyBytes_GET_SIZE(args[0])));
  }
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "is_valid", &in, &policy) < 0) return NULL;
  bool ok;
  UG_CALL(in.len, ok = utf8guard_is_valid_policy(in.data, (size_t)in.len, policy));
  ug_input_release(&in);
  return PyBool_FromLong(ok);
}

static utf8guard_result validate_input(const ug_input* in, utf8guard_policy policy) {
  utf8guard_result r;
  UG_CALL(in->len, r = utf8guard_validate_policy(in->data, (size_t)in->len, policy));
  return r;
}

static PyObject* validate(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) {
  (void)self;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "validate", &in, &policy) < 0) return NULL;
  utf8guard_result r = validate_input(&in, policy);
  PyObject* out = ug_result_object(in.data, (size_t)in.len, 0, r, NULL);
  ug_input_release(&in);
  return out;
}

static PyObject* sanitize(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) {
  (void)self;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "sanitize", &in, &policy) < 0) return NULL;
  /* Clean bytes are returned as they are (bytes are immutable). */
  if (PyBytes_CheckExact(args[0])) {
    bool ok;
    UG_CALL(in.len, ok = utf8guard_is_valid_policy(in.data, (size_t)in.len, policy));
    if (ok) {
      Py_INCREF(args[0]);
      return args[0];
    }
  }
  /* Most inputs grow little: a buffer with room for an error in every 8
   * bytes; when that is too small, the library says the exact size. */
  size_t cap = (size_t)in.len + (size_t)in.len / 4 + 16;
  PyObject* out = NULL;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (cap > (size_t)PY_SSIZE_T_MAX) {
      PyErr_NoMemory();
      break;
    }
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap);
    if (out == NULL) break;
    size_t written = 0;
    utf8guard_status st;
    char* dst = PyBytes_AS_STRING(out);
    UG_CALL(in.len, st = utf8guard_sanitize_policy(in.data, (size_t)in.len, dst, cap, &written,
                                                   NULL, policy));
    if (st == UTF8GUARD_STATUS_OK) {
      if (_PyBytes_Resize(&out, (Py_ssize_t)written) < 0) out = NULL;
      break;
    }
    Py_CLEAR(out);
    if (st != UTF8GUARD_STATUS_BUFFER_TOO_SMALL || attempt == 1) {
      PyErr_Format(PyExc_RuntimeError, "utf8guard_sanitize_policy: %s", utf8guard_status_name(st));
      break;
    }
    cap = written;
  }
  ug_input_release(&in);
  return out;
}

/* raise_decode_error raises DecodeError for |result| (a Result) over the
 * input: its start and end are the finding's offset and offset + length. */
static void raise_decode_error(PyObject* obj, const ug_input* in, PyObject* result) {
  PyObject* bytes = PyBytes_CheckExact(obj) ? (Py_INCREF(obj), obj)
                                            : PyBytes_FromStringAndSize(in->data, in->len);
  if (bytes == NULL) return;
  PyObject* offset = PyObject_GetAttrString(result, "offset");
  PyObject* length = PyObject_GetAttrString(result, "length");
  PyObject* message = PyObject_GetAttrString(result, "message");
  if (offset != NULL && length != NULL && message != NULL) {
    Py_ssize_t start = PyLong_AsSsize_t(offset);
    Py_ssize_t end = start + PyLong_AsSsize_t(length);
    PyObject* exc = PyObject_CallFunction(ug_registered.decode_error, "sOnnOO", "utf-8", bytes,
                                          start, end, message, result);
    if (exc != NULL) {
      PyErr_SetObject(ug_registered.decode_error, exc);
      Py_DECREF(exc);
    }
  }
  Py_XDECREF(offset);
  Py_XDECREF(length);
  Py_XDECREF(message);
  Py_DECREF(bytes);
}

static PyObject* decode(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
  (void)self;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "decode", &in, &policy) < 0) return NULL;
  utf8guard_result r = validate_input(&in, policy);
  PyObject* out = NULL;
  if (r.kind == UTF8GUARD_ERROR_NONE) {
    out = PyUnicode_DecodeUTF8(in.data, in.len, "strict");
  } else {
    PyObject* result = ug_result_object(in.data, (size_t)in.len, 0, r, NULL);
    if (result != NULL) {
      raise_decode_error(args[0], &in, result);
      Py_DECREF(result);
    }
  }
  ug_input_release(&in);
  return out;
}

static PyObject* is_valid_percent(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames) {
  (void)self;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "is_valid_percent", &in, &policy) < 0) return NULL;
  bool ok;
  UG_CALL(in.len, ok = utf8guard_percent_is_valid(in.data, (size_t)in.len, policy));
  ug_input_release(&in);
  return PyBool_FromLong(ok);
}

static PyObject* validate_percent(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames) {
  (void)self;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "validate_percent", &in, &policy) < 0) return NULL;
  utf8guard_encoded_result pr;
  UG_CALL(in.len, pr = utf8guard_percent_validate(in.data, (size_t)in.len, policy));
  PyObject* out = ug_result_object(in.data, (size_t)in.len, 0, pr.error, &pr);
  ug_input_release(&in);
  return out;
}

static PyObject* percent_decode(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "percent_decode() takes exactly one argument (%zd given)", nargs);
    return NULL;
  }
  ug_input in;
  if (ug_input_get(args[0], &in) < 0) return NULL;
  PyObject* out = PyBytes_FromStringAndSize(NULL, in.len);
  if (out != NULL) {
    size_t written = 0;
    utf8guard_status st;
    char* dst = PyBytes_AS_STRING(out);
    UG_CALL(in.len,
            st = utf8guard_percent_decode(in.data, (size_t)in.len, dst, (size_t)in.len, &written));
    if (st != UTF8GUARD_STATUS_OK) {
      Py_CLEAR(out);
      PyErr_Format(PyExc_RuntimeError, "utf8guard_percent_decode: %s", utf8guard_status_name(st));
    } else if (_PyBytes_Resize(&out, (Py_ssize_t)written) < 0) {
      out = NULL;
    }
  }
  ug_input_release(&in);
  return out;
}

static PyObject* explain(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "explain() takes exactly two arguments (%zd given)", nargs);
    return NULL;
  }
  Py_ssize_t offset = PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
  if (offset == -1 && PyErr_Occurred()) return NULL;
  if (offset < 0) {
    PyErr_SetString(PyExc_ValueError, "explain(): offset must not be negative");
    return NULL;
  }
  ug_input in;
  if (ug_input_get(args[0], &in) < 0) return NULL;
  utf8guard_hint h = utf8guard_explain(in.data, (size_t)in.len, (size_t)offset);
  ug_input_release(&in);
  return ug_hint_object(h);
}

static PyObject* policy_bits(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) {
  (void)self;
  if (nargs != 0) {
    PyErr_SetString(PyExc_TypeError, "policy() takes keyword arguments only");
    return NULL;
  }
  PyObject* kw[3] = {NULL, NULL, NULL};
  if (ug_kwargs(args, nargs, kwnames, policy_kw, kw, "policy") < 0) return NULL;
  utf8guard_policy policy;
  if (ug_policy_from(kw[0], kw[1], kw[2], &policy) < 0) return NULL;
  return PyLong_FromUnsignedLong(policy);
}

static PyObject* register_types(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 5) {
    PyErr_SetString(PyExc_TypeError, "_register(Result, Hint, DecodeError, StreamError, clean)");
    return NULL;
  }
  PyObject** slots[5] = {&ug_registered.result_type, &ug_registered.hint_type,
                         &ug_registered.decode_error, &ug_registered.stream_error,
                         &ug_registered.clean};
  for (int i = 0; i < 5; ++i) {
    Py_INCREF(args[i]);
    Py_XSETREF(*slots[i], args[i]);
  }
  Py_RETURN_NONE;
}

static PyObject* active_kernel(PyObject* self, PyObject* unused) {
  (void)self;
  (void)unused;
  return PyUnicode_FromString(utf8guard_active_kernel());
}

#define POLICY_DOC                                                                 \
  "\n\ndata is any bytes-like object, read in place. profile names a profile\n"    \
  "(PROFILES), deny adds categories (CATEGORIES: a name, 'bidi,nul' or a list),\n" \
  "and policy replaces both with a spec such as 'url,-newline'."

#define FASTKW(name, doc) \
  { #name, (PyCFunction)(void (*)(void))name, METH_FASTCALL | METH_KEYWORDS, doc }
#define FAST(name, doc) \
  { #name, (PyCFunction)(void (*)(void))name, METH_FASTCALL, doc }

static PyMethodDef methods[] = {
    FASTKW(is_valid,
           "is_valid(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "Whether data is well-formed UTF-8 with no character the policy denies:\n"
           "True exactly when data.decode('utf-8') succeeds, without a policy." POLICY_DOC),
    FASTKW(validate,
           "validate(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "The first finding in data: a Result that is true when there is none, else\n"
           "carries kind, offset, length (those of UnicodeDecodeError), category,\n"
           "code_point, hint and message, e.g.\n"
           "  validate(b'a\\xc0\\xaf').message == 'overlong at byte 1 (C0 AF) [overlong_form "
           "U+002F]'" POLICY_DOC),
    FASTKW(sanitize,
           "sanitize(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "data as bytes with each ill-formed subpart (and each character the policy\n"
           "denies) replaced by U+FFFD: without a policy, exactly\n"
           "data.decode('utf-8', 'replace').encode(). Clean bytes are returned as they "
           "are." POLICY_DOC),
    FASTKW(decode,
           "decode(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "data as str, after strict validation (and the policy) in the same call.\n"
           "Raises DecodeError, a UnicodeDecodeError whose start and end are Python's\n"
           "own and whose result is validate()'s Result." POLICY_DOC),
    FASTKW(is_valid_percent,
           "is_valid_percent(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "Whether data, percent-decoded (%XX is the byte XX, '+' stays '+'), is\n"
           "well-formed UTF-8 with nothing the policy denies." POLICY_DOC),
    FASTKW(validate_percent,
           "validate_percent(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "The first finding in data, percent-decoded, as a Result whose offset and\n"
           "length count encoded bytes (decoded_offset and decoded_length place it in\n"
           "the decoded bytes). The url profile also denies bad_escape and\n"
           "double_encoding." POLICY_DOC),
    FAST(percent_decode,
         "percent_decode(data, /)\n--\n\n"
         "data as bytes with each %XX replaced by the byte XX; a '%' without two hex\n"
         "digits stays as it is."),
    FAST(explain,
         "explain(data, offset, /)\n--\n\n"
         "The Hint (name, value) for the ill-formed subpart at offset: what probably\n"
         "wrote it (cesu8_pair, overlong_form, windows1252, ...) and the value it meant;\n"
         "None when no rule matches."),
    FASTKW(policy_bits,
           "policy_bits(*, profile=None, deny=None, policy=None)\n--\n\n"
           "The policy as the C API's bit set."),
    FAST(register_types, "Register the Python types (internal)."),
    {"active_kernel", active_kernel, METH_NOARGS,
     "active_kernel()\n--\n\nThe name of the kernel validation uses."},
    {NULL, NULL, 0, NULL}};

static int add_names(PyObject* m) {
  PyObject* profiles = PyTuple_New(0);
  for (size_t i = 0; profiles != NULL && utf8guard_profile_name(i) != NULL; ++i) {
    PyObject* s = PyUnicode_FromString(utf8guard_profile_name(i));
    if (s == NULL || _PyTuple_Resize(&profiles, (Py_ssize_t)i + 1) < 0) {
      Py_XDECREF(s);
      return -1;
    }
    PyTuple_SET_ITEM(profiles, (Py_ssize_t)i, s);
  }
  if (profiles == NULL || PyModule_AddObject(m, "PROFILES", profiles) < 0) return -1;
  PyObject* categories = PyTuple_New(UTF8GUARD_CATEGORY_COUNT);
  if (categories == NULL) return -1;
  for (int bit = 0; bit < UTF8GUARD_CATEGORY_COUNT; ++bit) {
    PyObject* s = PyUnicode_FromString(utf8guard_category_name((utf8guard_category)(1u << bit)));
    if (s == NULL) return -1;
    PyTuple_SET_ITEM(categories, bit, s);
  }
  if (PyModule_AddObject(m, "CATEGORIES", categories) < 0) return -1;
  PyObject* kinds = PyTuple_New(UTF8GUARD_ERROR_DISALLOWED);
  if (kinds == NULL) return -1;
  for (int k = 1; k <= UTF8GUARD_ERROR_DISALLOWED; ++k) {
    PyObject* s = PyUnicode_FromString(utf8guard_error_name((utf8guard_error)k));
    if (s == NULL) return -1;
    PyTuple_SET_ITEM(kinds, k - 1, s);
  }
  if (PyModule_AddObject(m, "KINDS", kinds) < 0) return -1;
  return PyModule_AddStringConstant(m, "LIBRARY_VERSION", utf8guard_version());
}

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "utf8guard._utf8guard",
                                        "The C core of utf8guard; use the utf8guard package.",
                                        -1,
                                        methods,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL};

PyMODINIT_FUNC PyInit__utf8guard(void) {
  if (PyType_Ready(&ug_validator_type) < 0) return NULL;
  PyObject* m = PyModule_Create(&module_def);
  if (m == NULL) return NULL;
  Py_INCREF(&ug_validator_type);
  if (PyModule_AddObject(m, "Validator", (PyObject*)&ug_validator_type) < 0 || add_names(m) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
