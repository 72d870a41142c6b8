/* module.c - utf8guard._utf8guard: the one-shot functions over the C API.
 *
 * Every function is METH_FASTCALL: a call passes its arguments as a C array,
 * with no tuple or dict built, which is what makes a call on a short string
 * cost about what bytes.decode does. Inputs are read in place (bytes
 * directly, other objects through the buffer protocol), and inputs of
 * UG_NOGIL_MIN bytes or more are checked with the GIL released. */
#include <string.h>

#include "common.h"

static const char* const policy_kw[] = {"profile", "deny", "policy", NULL};
static const char* const sanitize_kw[] = {"profile", "deny", "policy", "remove", NULL};

/* One positional input and the policy keywords: the shape of most calls.
 * |allow_str| lets a str in (is_valid, validate, sanitize and the percent
 * forms); |*was_str| then says it was one. */
static int input_and_policy(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                            const char* func, int allow_str, ug_input* in, utf8guard_policy* policy,
                            int* was_str) {
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "%s() takes exactly one positional argument (%zd given)", func,
                 nargs);
    return -1;
  }
  *policy = UTF8GUARD_PROFILE_STRICT;
  if (kwnames != NULL) {
    PyObject* kw[3] = {NULL, NULL, NULL};
    if (ug_kwargs(args, nargs, kwnames, policy_kw, kw, func) < 0) return -1;
    if (ug_policy_from(func, kw[0], kw[1], kw[2], policy) < 0) return -1;
  }
  return ug_input_get(args[0], in, func, allow_str, was_str);
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
  if (input_and_policy(args, nargs, kwnames, "is_valid", 1, &in, &policy, NULL) < 0) return NULL;
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
  ug_state* st = ug_module_state(self);
  if (!ug_ready(st, "validate")) return NULL;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "validate", 1, &in, &policy, NULL) < 0) return NULL;
  utf8guard_result r = validate_input(&in, policy);
  PyObject* out = ug_result_object(st, in.data, (size_t)in.len, 0, r, NULL, UG_FORM_RAW);
  ug_input_release(&in);
  return out;
}

/* The BOM at byte 0 is allowed whatever the policy says of U+FEFF. */
static int starts_with_bom(const char* data, size_t len) {
  return len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0;
}

/* sanitize_removing writes data[0..len) with each ill-formed subpart replaced
 * by U+FFFD and each character |policy| denies left out, to a new bytes
 * object: finding by finding, each search starting after the last one. */
static PyObject* sanitize_removing(const char* data, size_t len, utf8guard_policy policy) {
  PyObject* out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(len + len / 4 + 16));
  if (out == NULL) return NULL;
  size_t cap = (size_t)PyBytes_GET_SIZE(out), written = 0, at = 0;
  while (at <= len) {
    utf8guard_result r = {UTF8GUARD_ERROR_NONE, 0, 0, UTF8GUARD_CATEGORY_NONE, 0};
    /* A U+FEFF after a removed character is not at byte 0 of the input. */
    if (at > 0 && starts_with_bom(data + at, len - at) && (policy & UTF8GUARD_CATEGORY_BOM) != 0) {
      r.kind = UTF8GUARD_ERROR_DISALLOWED;
      r.offset = 0;
      r.length = 3;
    } else {
      r = utf8guard_validate_policy(data + at, len - at, policy);
    }
    size_t keep = r.kind == UTF8GUARD_ERROR_NONE ? len - at : r.offset;
    size_t add =
        keep + (r.kind != UTF8GUARD_ERROR_NONE && r.kind != UTF8GUARD_ERROR_DISALLOWED ? 3 : 0);
    if (written + add > cap) {
      cap = (written + add) * 2;
      if (_PyBytes_Resize(&out, (Py_ssize_t)cap) < 0) return NULL;
    }
    char* dst = PyBytes_AS_STRING(out);
    memcpy(dst + written, data + at, keep);
    written += keep;
    if (r.kind == UTF8GUARD_ERROR_NONE) break;
    if (r.kind != UTF8GUARD_ERROR_DISALLOWED) {
      memcpy(dst + written, "\xEF\xBF\xBD", 3);
      written += 3;
    }
    at += r.offset + (r.length > 0 ? r.length : 1);
  }
  if (_PyBytes_Resize(&out, (Py_ssize_t)written) < 0) return NULL;
  return out;
}

static PyObject* sanitize_replacing(const ug_input* in, utf8guard_policy policy) {
  /* Most inputs grow little: a buffer with room for an error in every 8
   * bytes; when that is too small, the library says the exact size. */
  size_t cap = (size_t)in->len + (size_t)in->len / 4 + 16;
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
    UG_CALL(in->len, st = utf8guard_sanitize_policy(in->data, (size_t)in->len, dst, cap, &written,
                                                    NULL, policy));
    if (st == UTF8GUARD_STATUS_OK) {
      if (_PyBytes_Resize(&out, (Py_ssize_t)written) < 0) out = NULL;
      break;
    }
    Py_CLEAR(out);
    if (st != UTF8GUARD_STATUS_BUFFER_TOO_SMALL || attempt == 1) {
      PyErr_Format(PyExc_RuntimeError, "sanitize(): utf8guard_sanitize_policy: %s",
                   utf8guard_status_name(st));
      break;
    }
    cap = written;
  }
  return out;
}

/* without_surrogates: |str| with each lone surrogate (a str can hold them,
 * UTF-8 cannot) replaced by U+FFFD, as sanitize replaces an ill-formed
 * subpart of bytes. */
static PyObject* without_surrogates(PyObject* str) {
  Py_ssize_t n = PyUnicode_GET_LENGTH(str);
  Py_UCS4* units = PyUnicode_AsUCS4Copy(str);
  if (units == NULL) return NULL;
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (units[i] >= 0xD800 && units[i] <= 0xDFFF) units[i] = 0xFFFD;
  }
  PyObject* out = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, units, n);
  PyMem_Free(units);
  return out;
}

static PyObject* sanitize(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) {
  (void)self;
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "sanitize() takes exactly one positional argument (%zd given)",
                 nargs);
    return NULL;
  }
  PyObject* kw[4] = {NULL, NULL, NULL, NULL};
  if (ug_kwargs(args, nargs, kwnames, sanitize_kw, kw, "sanitize") < 0) return NULL;
  utf8guard_policy policy;
  if (ug_policy_from("sanitize", kw[0], kw[1], kw[2], &policy) < 0) return NULL;
  int remove = 0;
  if (kw[3] != NULL) {
    if (!PyBool_Check(kw[3])) {
      PyErr_Format(PyExc_TypeError, "sanitize(): remove: True or False, not '%.100s'",
                   Py_TYPE(kw[3])->tp_name);
      return NULL;
    }
    remove = kw[3] == Py_True;
  }
  ug_input in;
  int was_str = 0;
  PyObject* text = NULL; /* a str with its lone surrogates as U+FFFD, one each */
  if (PyUnicode_Check(args[0]) && PyUnicode_AsUTF8AndSize(args[0], NULL) == NULL) {
    if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return NULL;
    PyErr_Clear();
    text = without_surrogates(args[0]);
    if (text == NULL) return NULL;
  }
  if (ug_input_get(text != NULL ? text : args[0], &in, "sanitize", 1, &was_str) < 0) {
    Py_XDECREF(text);
    return NULL;
  }
  bool ok;
  UG_CALL(in.len, ok = utf8guard_is_valid_policy(in.data, (size_t)in.len, policy));
  PyObject* out;
  if (ok && (PyBytes_CheckExact(args[0]) || was_str)) {
    /* Clean bytes and str are returned as they are (both are immutable). */
    out = text != NULL ? text : args[0];
    Py_INCREF(out);
  } else {
    out = ok       ? PyBytes_FromStringAndSize(in.data, in.len)
          : remove ? sanitize_removing(in.data, (size_t)in.len, policy)
                   : sanitize_replacing(&in, policy);
    if (out != NULL && was_str) {
      Py_SETREF(out, PyUnicode_DecodeUTF8(PyBytes_AS_STRING(out), PyBytes_GET_SIZE(out), "strict"));
    }
  }
  ug_input_release(&in);
  Py_XDECREF(text);
  return out;
}

/* raise_decode_error raises DecodeError for |result| (a Result) over the
 * input: its start and end are the finding's offset and offset + length. */
static void raise_decode_error(const ug_state* st, PyObject* obj, const ug_input* in,
                               PyObject* result) {
  PyObject* bytes = PyBytes_CheckExact(obj) ? (Py_INCREF(obj), obj)
                                            : PyBytes_FromStringAndSize(in->data, in->len);
  if (bytes == NULL) return;
  PyObject* offset = PyObject_GetAttrString(result, "offset");
  PyObject* length = PyObject_GetAttrString(result, "length");
  PyObject* message = PyObject_GetAttrString(result, "message");
  if (offset != NULL && length != NULL && message != NULL) {
    Py_ssize_t start = PyLong_AsSsize_t(offset);
    Py_ssize_t end = start + PyLong_AsSsize_t(length);
    PyObject* exc = PyObject_CallFunction(st->decode_error, "sOnnOO", "utf-8", bytes, start, end,
                                          message, result);
    if (exc != NULL) {
      PyErr_SetObject(st->decode_error, exc);
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
  ug_state* st = ug_module_state(self);
  if (!ug_ready(st, "decode")) return NULL;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "decode", 0, &in, &policy, NULL) < 0) return NULL;
  utf8guard_result r = validate_input(&in, policy);
  PyObject* out = NULL;
  if (r.kind == UTF8GUARD_ERROR_NONE) {
    out = PyUnicode_DecodeUTF8(in.data, in.len, "strict");
  } else {
    PyObject* result = ug_result_object(st, in.data, (size_t)in.len, 0, r, NULL, UG_FORM_RAW);
    if (result != NULL) {
      raise_decode_error(st, args[0], &in, result);
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
  if (input_and_policy(args, nargs, kwnames, "is_valid_percent", 1, &in, &policy, NULL) < 0)
    return NULL;
  bool ok;
  UG_CALL(in.len, ok = utf8guard_percent_is_valid(in.data, (size_t)in.len, policy));
  ug_input_release(&in);
  return PyBool_FromLong(ok);
}

static PyObject* validate_percent(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames) {
  ug_state* st = ug_module_state(self);
  if (!ug_ready(st, "validate_percent")) return NULL;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "validate_percent", 1, &in, &policy, NULL) < 0)
    return NULL;
  utf8guard_encoded_result pr;
  UG_CALL(in.len, pr = utf8guard_percent_validate(in.data, (size_t)in.len, policy));
  PyObject* out = ug_result_object(st, in.data, (size_t)in.len, 0, pr.error, &pr, UG_FORM_PERCENT);
  ug_input_release(&in);
  return out;
}

static PyObject* is_valid_json(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                               PyObject* kwnames) {
  (void)self;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "is_valid_json", 1, &in, &policy, NULL) < 0)
    return NULL;
  bool ok;
  UG_CALL(in.len, ok = utf8guard_json_is_valid(in.data, (size_t)in.len, policy));
  ug_input_release(&in);
  return PyBool_FromLong(ok);
}

static PyObject* validate_json(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                               PyObject* kwnames) {
  ug_state* st = ug_module_state(self);
  if (!ug_ready(st, "validate_json")) return NULL;
  ug_input in;
  utf8guard_policy policy;
  if (input_and_policy(args, nargs, kwnames, "validate_json", 1, &in, &policy, NULL) < 0)
    return NULL;
  utf8guard_encoded_result r;
  UG_CALL(in.len, r = utf8guard_json_validate(in.data, (size_t)in.len, policy));
  PyObject* out = ug_result_object(st, in.data, (size_t)in.len, 0, r.error, &r, UG_FORM_JSON);
  ug_input_release(&in);
  return out;
}

/* sanitize_json: JSON text in, JSON text out (utf8guard_json_sanitize); a
 * str in, a str out. */
static PyObject* sanitize_json(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                               PyObject* kwnames) {
  (void)self;
  ug_input in;
  utf8guard_policy policy;
  int was_str = 0;
  if (input_and_policy(args, nargs, kwnames, "sanitize_json", 1, &in, &policy, &was_str) < 0)
    return NULL;
  bool ok;
  UG_CALL(in.len, ok = utf8guard_json_is_valid(in.data, (size_t)in.len, policy));
  PyObject* out = NULL;
  if (ok && (PyBytes_CheckExact(args[0]) || was_str)) {
    out = Py_NewRef(args[0]);
  } else {
    size_t cap = 0;
    if (utf8guard_json_sanitize_bound((size_t)in.len, &cap) != UTF8GUARD_STATUS_OK ||
        cap > (size_t)PY_SSIZE_T_MAX) {
      PyErr_NoMemory();
    } else if ((out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap)) != NULL) {
      size_t written = 0;
      utf8guard_status status;
      char* dst = PyBytes_AS_STRING(out);
      UG_CALL(in.len, status = utf8guard_json_sanitize(in.data, (size_t)in.len, policy, dst, cap,
                                                       &written));
      if (status != UTF8GUARD_STATUS_OK) {
        PyErr_Format(PyExc_RuntimeError, "sanitize_json(): utf8guard_json_sanitize: %s",
                     utf8guard_status_name(status));
        Py_CLEAR(out);
      } else if (_PyBytes_Resize(&out, (Py_ssize_t)written) < 0) {
        out = NULL;
      } else if (was_str) {
        Py_SETREF(out,
                  PyUnicode_DecodeUTF8(PyBytes_AS_STRING(out), PyBytes_GET_SIZE(out), "strict"));
      }
    }
  }
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
  if (ug_input_get(args[0], &in, "percent_decode", 0, NULL) < 0) return NULL;
  PyObject* out = PyBytes_FromStringAndSize(NULL, in.len);
  if (out != NULL) {
    size_t written = 0;
    utf8guard_status st;
    char* dst = PyBytes_AS_STRING(out);
    UG_CALL(in.len,
            st = utf8guard_percent_decode(in.data, (size_t)in.len, dst, (size_t)in.len, &written));
    if (st != UTF8GUARD_STATUS_OK) {
      Py_CLEAR(out);
      PyErr_Format(PyExc_RuntimeError, "percent_decode(): utf8guard_percent_decode: %s",
                   utf8guard_status_name(st));
    } else if (_PyBytes_Resize(&out, (Py_ssize_t)written) < 0) {
      out = NULL;
    }
  }
  ug_input_release(&in);
  return out;
}

static PyObject* explain(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  ug_state* state = ug_module_state(self);
  if (!ug_ready(state, "explain")) return NULL;
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
  if (ug_input_get(args[0], &in, "explain", 0, NULL) < 0) return NULL;
  utf8guard_hint h = utf8guard_explain(in.data, (size_t)in.len, (size_t)offset);
  ug_input_release(&in);
  return ug_hint_object(state, h);
}

static PyObject* policy_bits(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) {
  (void)self;
  if (nargs != 0) {
    PyErr_SetString(PyExc_TypeError, "policy_bits() takes keyword arguments only");
    return NULL;
  }
  PyObject* kw[3] = {NULL, NULL, NULL};
  if (ug_kwargs(args, nargs, kwnames, policy_kw, kw, "policy_bits") < 0) return NULL;
  utf8guard_policy policy;
  if (ug_policy_from("policy_bits", kw[0], kw[1], kw[2], &policy) < 0) return NULL;
  return PyLong_FromUnsignedLong(policy);
}

static PyObject* register_types(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  ug_state* st = ug_module_state(self);
  if (nargs != 5) {
    PyErr_SetString(PyExc_TypeError,
                    "register_types(Result, Hint, DecodeError, StreamError, clean)");
    return NULL;
  }
  PyObject** slots[5] = {&st->result_type, &st->hint_type, &st->decode_error, &st->stream_error,
                         &st->clean};
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
           "sanitize(data, /, *, profile=None, deny=None, policy=None, remove=False)\n--\n\n"
           "data as bytes with each ill-formed subpart (and each character the policy\n"
           "denies) replaced by U+FFFD: without a policy, exactly\n"
           "data.decode('utf-8', 'replace').encode(). With remove=True a denied\n"
           "character is left out instead. A str gives a str (a lone surrogate is\n"
           "ill-formed). Clean bytes and str are returned as they are." POLICY_DOC),
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
    FASTKW(is_valid_json,
           "is_valid_json(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "Whether data, JSON text with its escapes decoded (\\u202e is U+202E, a lone\n"
           "surrogate escape is ill-formed), is well-formed UTF-8 with nothing the policy\n"
           "denies." POLICY_DOC),
    FASTKW(validate_json,
           "validate_json(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "The first finding in data, JSON text with its escapes decoded, as a Result\n"
           "whose offset and length count encoded bytes (decoded_offset and\n"
           "decoded_length place it in the decoded bytes)." POLICY_DOC),
    FASTKW(sanitize_json,
           "sanitize_json(data, /, *, profile=None, deny=None, policy=None)\n--\n\n"
           "data, JSON text, with each ill-formed subpart and denied raw character\n"
           "replaced by U+FFFD and each lone surrogate or denied escape by \\ufffd: the\n"
           "output is JSON text that validates under the policy." POLICY_DOC),
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

/* add_tuple adds |name| = a tuple of |count| names from |name_of|. */
static int add_tuple(PyObject* m, const char* name, Py_ssize_t count,
                     const char* (*name_of)(Py_ssize_t)) {
  PyObject* tuple = PyTuple_New(count);
  if (tuple == NULL) return -1;
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* s = PyUnicode_FromString(name_of(i));
    if (s == NULL) {
      Py_DECREF(tuple);
      return -1;
    }
    PyTuple_SET_ITEM(tuple, i, s);
  }
  int rc = PyModule_AddObjectRef(m, name, tuple);
  Py_DECREF(tuple);
  return rc;
}

static const char* profile_at(Py_ssize_t i) { return utf8guard_profile_name((size_t)i); }
static const char* category_at(Py_ssize_t i) {
  return utf8guard_category_name((utf8guard_category)(1u << i));
}
static const char* kind_at(Py_ssize_t i) { return utf8guard_error_name((utf8guard_error)(i + 1)); }

static int module_exec(PyObject* m) {
  Py_ssize_t profiles = 0;
  while (utf8guard_profile_name((size_t)profiles) != NULL) ++profiles;
  if (add_tuple(m, "PROFILES", profiles, profile_at) < 0 ||
      add_tuple(m, "CATEGORIES", UTF8GUARD_CATEGORY_COUNT, category_at) < 0 ||
      add_tuple(m, "KINDS", UTF8GUARD_ERROR_DISALLOWED, kind_at) < 0 ||
      PyModule_AddStringConstant(m, "LIBRARY_VERSION", utf8guard_version()) < 0 ||
      ug_validator_add(m) < 0 || ug_core_add(m) < 0) {
    return -1;
  }
  return 0;
}

static int module_traverse(PyObject* m, visitproc visit, void* arg) {
  ug_state* st = ug_module_state(m);
  Py_VISIT(st->result_type);
  Py_VISIT(st->hint_type);
  Py_VISIT(st->decode_error);
  Py_VISIT(st->stream_error);
  Py_VISIT(st->clean);
  Py_VISIT(st->validator_type);
  return 0;
}

static int module_clear(PyObject* m) {
  ug_state* st = ug_module_state(m);
  Py_CLEAR(st->result_type);
  Py_CLEAR(st->hint_type);
  Py_CLEAR(st->decode_error);
  Py_CLEAR(st->stream_error);
  Py_CLEAR(st->clean);
  Py_CLEAR(st->validator_type);
  return 0;
}

static void module_free(void* m) { (void)module_clear((PyObject*)m); }

static PyModuleDef_Slot module_slots[] = {{Py_mod_exec, (void*)module_exec}, {0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "utf8guard._utf8guard",
                                        "The C core of utf8guard; use the utf8guard package.",
                                        sizeof(ug_state),
                                        methods,
                                        module_slots,
                                        module_traverse,
                                        module_clear,
                                        module_free};

/* Multi-phase initialization (PEP 489): the module object and its state are
 * made by the import system, then module_exec fills it; a failure at any
 * step releases what was made with the module. */
PyMODINIT_FUNC PyInit__utf8guard(void) { return PyModuleDef_Init(&module_def); }
