/* core.c - the request rules of request_check (nginx/src/request_check.h),
 * the code the nginx module runs, for the Python middleware: which part of a
 * request gets which rule, the defaults, what a Content-Type selects, and how
 * a header is named in a finding. utf8guard/_http.py asks these; it decides
 * none of them itself. */
#include <string.h>

#include "common.h"
#include "multipart.h"
#include "request_check.h"

/* A rule as Python sees it: None when off, else (policy bits, form), the
 * form being the Validator's name for the core's encoding: None (raw),
 * "percent" or "json". */
static PyObject* rule_object(ug_rule rule) {
  if (!rule.on) Py_RETURN_NONE;
  const char* form = rule.encoding == UG_ENCODING_PERCENT ? "percent"
                     : rule.encoding == UG_ENCODING_JSON  ? "json"
                                                          : NULL;
  return Py_BuildValue("(kz)", (unsigned long)rule.policy, form);
}

static int slot_arg(PyObject* obj, ug_slot* slot) {
  long n = PyLong_AsLong(obj);
  if (n == -1 && PyErr_Occurred()) return -1;
  if (n < 0 || n >= UG_SLOT_COUNT) {
    PyErr_Format(PyExc_ValueError, "slot %ld: not one of SLOTS", n);
    return -1;
  }
  *slot = (ug_slot)n;
  return 0;
}

static PyObject* rule_default(PyObject* self, PyObject* arg) {
  (void)self;
  ug_slot slot;
  if (slot_arg(arg, &slot) < 0) return NULL;
  return rule_object(ug_rule_default(slot));
}

/* rule(slot, spec, func, label): the rule a caller's value sets: None or
 * "off" leave the part alone; otherwise a policy spec (ug_spec_parse), with
 * errors that start "func(): label". */
static PyObject* rule(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 4 || !PyUnicode_Check(args[2]) || !PyUnicode_Check(args[3])) {
    PyErr_SetString(PyExc_TypeError, "rule(slot, spec, func, label)");
    return NULL;
  }
  ug_slot slot;
  if (slot_arg(args[0], &slot) < 0) return NULL;
  const char* func = PyUnicode_AsUTF8(args[2]);
  const char* label = PyUnicode_AsUTF8(args[3]);
  if (func == NULL || label == NULL) return NULL;
  ug_rule off;
  (void)ug_rule_parse(slot, "off", 3, &off, NULL, NULL); /* the slot's encoding */
  PyObject* spec = args[1];
  if (spec == Py_None ||
      (PyUnicode_Check(spec) && PyUnicode_CompareWithASCIIString(spec, "off") == 0))
    Py_RETURN_NONE;
  ug_rule on = off;
  on.on = true;
  if (ug_spec_parse(func, label, spec, &on.policy) < 0) return NULL;
  return rule_object(on);
}

/* A finding about the request's shape, "PART: MESSAGE", as (PART, MESSAGE). */
static PyObject* finding_object(const ug_finding* f) {
  const char* colon = memchr(f->text, ':', f->len);
  size_t at = colon != NULL ? (size_t)(colon - f->text) : 0;
  size_t rest = at + 2 <= f->len ? at + 2 : f->len;
  return Py_BuildValue("(s#s#)", f->text, (Py_ssize_t)at, f->text + rest,
                       (Py_ssize_t)(f->len - rest));
}

static int bytes_arg(PyObject* obj, const char* func) {
  if (PyBytes_Check(obj)) return 1;
  PyErr_Format(PyExc_TypeError, "%s(): bytes, not '%.100s'", func, Py_TYPE(obj)->tp_name);
  return 0;
}

/* media(values, text_declared): (slot, finding, boundary) for a body whose
 * Content-Type headers are |values| (a tuple of bytes, empty for none).
 * The slot is len(SLOTS) for multipart/form-data, with its boundary (bytes;
 * None for other types); finding is None, or (PART, MESSAGE) for a
 * malformed Content-Type or more than one. */
static PyObject* media(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 || !PyTuple_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "media(values: tuple of bytes, text_declared: bool)");
    return NULL;
  }
  Py_ssize_t count = PyTuple_GET_SIZE(args[0]);
  const char* value = NULL;
  size_t len = 0;
  if (count > 0) {
    PyObject* first = PyTuple_GET_ITEM(args[0], 0);
    if (!bytes_arg(first, "media")) return NULL;
    value = PyBytes_AS_STRING(first);
    len = (size_t)PyBytes_GET_SIZE(first);
  }
  ug_media m;
  (void)ug_media_parse(value, len, &m);
  ug_slot slot = ug_media_slot(&m, PyObject_IsTrue(args[1]) == 1);
  PyObject* boundary = Py_None;
  Py_INCREF(boundary);
  if (m.kind == UG_MEDIA_MULTIPART) {
    Py_SETREF(boundary, PyBytes_FromStringAndSize(m.boundary, (Py_ssize_t)m.boundary_len));
    if (boundary == NULL) return NULL;
  }
  ug_finding f;
  PyObject* found = Py_None;
  Py_INCREF(found);
  if (ug_check_media(value, len, &m, (size_t)count, &f)) {
    Py_SETREF(found, finding_object(&f));
    if (found == NULL) {
      Py_DECREF(boundary);
      return NULL;
    }
  }
  return Py_BuildValue("(iNN)", (int)slot, found, boundary);
}

/* coding(value): None when a body with this Content-Encoding is its bytes,
 * else (PART, MESSAGE). */
static PyObject* coding(PyObject* self, PyObject* arg) {
  (void)self;
  if (!bytes_arg(arg, "coding")) return NULL;
  ug_finding f;
  if (!ug_check_coding(PyBytes_AS_STRING(arg), (size_t)PyBytes_GET_SIZE(arg), &f)) Py_RETURN_NONE;
  return finding_object(&f);
}

/* header_name(name): None for a token, else (PART, MESSAGE). */
static PyObject* header_name(PyObject* self, PyObject* arg) {
  (void)self;
  if (!bytes_arg(arg, "header_name")) return NULL;
  ug_finding f;
  if (!ug_check_header_name(PyBytes_AS_STRING(arg), (size_t)PyBytes_GET_SIZE(arg), &f))
    Py_RETURN_NONE;
  return finding_object(&f);
}

static PyObject* header_label(PyObject* self, PyObject* arg) {
  (void)self;
  if (!PyBytes_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "header_label(): bytes, not '%.100s'", Py_TYPE(arg)->tp_name);
    return NULL;
  }
  char text[256];
  size_t n =
      ug_header_label(PyBytes_AS_STRING(arg), (size_t)PyBytes_GET_SIZE(arg), text, sizeof text);
  if (n >= sizeof text) n = sizeof text - 1;
  return PyUnicode_DecodeASCII(text, (Py_ssize_t)n, "strict");
}

/* ---- Multipart(boundary, header, field, file): a multipart/form-data body
 * checked as it streams (nginx/src/multipart.h); each rule is None (off) or
 * policy bits. feed() and finish() return None, or the first finding's
 * "PART: MESSAGE" as (PART, MESSAGE), once. ---- */

typedef struct {
  PyObject_HEAD ug_multipart checker;
  int busy;
} multipart_object;

static int rule_arg(PyObject* obj, ug_rule* rule) {
  rule->encoding = UG_ENCODING_RAW;
  rule->on = obj != Py_None;
  rule->policy = 0;
  if (!rule->on) return 0;
  unsigned long bits = PyLong_AsUnsignedLong(obj);
  if (bits == (unsigned long)-1 && PyErr_Occurred()) return -1;
  rule->policy = (utf8guard_policy)bits;
  return 0;
}

static int multipart_init(multipart_object* self, PyObject* args, PyObject* kwargs) {
  PyObject *header, *field, *file;
  Py_buffer boundary;
  if (kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0) {
    PyErr_SetString(PyExc_TypeError, "Multipart() takes positional arguments only");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "y*OOO:Multipart", &boundary, &header, &field, &file)) return -1;
  ug_rule rules[3];
  int rc = 0;
  if (rule_arg(header, &rules[0]) < 0 || rule_arg(field, &rules[1]) < 0 ||
      rule_arg(file, &rules[2]) < 0) {
    rc = -1;
  } else if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "Multipart(): in use by another thread");
    rc = -1;
  } else {
    ug_multipart_init(&self->checker, boundary.len > 0 ? boundary.buf : NULL, (size_t)boundary.len,
                      &rules[0], &rules[1], &rules[2]);
  }
  PyBuffer_Release(&boundary);
  return rc;
}

static PyObject* multipart_feed(multipart_object* self, PyObject* arg) {
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "feed(): the Multipart is in use by another thread");
    return NULL;
  }
  ug_input in;
  if (ug_input_get(arg, &in, "feed", 0, NULL) < 0) return NULL;
  ug_finding f;
  bool found;
  self->busy = 1;
  UG_CALL(in.len, found = ug_multipart_feed(&self->checker, in.data, (size_t)in.len, &f));
  self->busy = 0;
  ug_input_release(&in);
  if (!found) Py_RETURN_NONE;
  return finding_object(&f);
}

static PyObject* multipart_finish(multipart_object* self, PyObject* unused) {
  (void)unused;
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "finish(): the Multipart is in use by another thread");
    return NULL;
  }
  ug_finding f;
  if (!ug_multipart_finish(&self->checker, &f)) Py_RETURN_NONE;
  return finding_object(&f);
}

static void multipart_dealloc(multipart_object* self) {
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free((PyObject*)self);
  Py_DECREF(type);
}

static PyMethodDef multipart_methods[] = {
    {"feed", (PyCFunction)multipart_feed, METH_O,
     "feed(chunk, /)\n--\n\nNone, or the first finding (PART, MESSAGE), once."},
    {"finish", (PyCFunction)multipart_finish, METH_NOARGS,
     "finish()\n--\n\nEnd the body: None, or a finding not handed out yet."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot multipart_slots[] = {
    {Py_tp_dealloc, (void*)multipart_dealloc},
    {Py_tp_methods, multipart_methods},
    {Py_tp_init, (void*)multipart_init},
    {Py_tp_new, (void*)PyType_GenericNew},
    {Py_tp_doc,
     "Multipart(boundary, header, field, file, /)\n--\n\nA multipart/form-data body "
     "checked as it streams, by the rule core (nginx/src/multipart.h)."},
    {0, NULL}};

static PyType_Spec multipart_spec = {"utf8guard._utf8guard.Multipart", sizeof(multipart_object), 0,
                                     Py_TPFLAGS_DEFAULT, multipart_slots};

/* The token characters of RFC 9110 5.6.2. */
static int tchar(Py_UCS4 c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c != 0 && c < 128 && strchr("!#$%&'*+-.^_`|~", (int)c) != NULL);
}

/* environ_headers_clean(environ, policy): whether every header of a WSGI
 * environ (HTTP_*, CONTENT_TYPE, CONTENT_LENGTH) has a token name and a value
 * |policy| accepts, read in place: PEP 3333's native strings hold the bytes
 * the server read as latin-1 characters, one byte each. False also for a
 * value that is not such a string: the caller then checks header by header
 * and says what it found. */
static PyObject* environ_headers_clean(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 || !PyDict_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "environ_headers_clean(environ: dict, policy: int)");
    return NULL;
  }
  unsigned long bits = PyLong_AsUnsignedLong(args[1]);
  if (bits == (unsigned long)-1 && PyErr_Occurred()) return NULL;
  utf8guard_policy policy = (utf8guard_policy)bits;
  Py_ssize_t pos = 0;
  PyObject *key, *value;
  while (PyDict_Next(args[0], &pos, &key, &value)) {
    if (!PyUnicode_Check(key)) continue;
    Py_ssize_t n = PyUnicode_GET_LENGTH(key);
    int kind = PyUnicode_KIND(key);
    const void* data = PyUnicode_DATA(key);
    Py_ssize_t from;
    if (n > 5 && PyUnicode_READ(kind, data, 0) == 'H' && PyUnicode_READ(kind, data, 1) == 'T' &&
        PyUnicode_READ(kind, data, 2) == 'T' && PyUnicode_READ(kind, data, 3) == 'P' &&
        PyUnicode_READ(kind, data, 4) == '_') {
      from = 5;
    } else if (PyUnicode_CompareWithASCIIString(key, "CONTENT_TYPE") == 0 ||
               PyUnicode_CompareWithASCIIString(key, "CONTENT_LENGTH") == 0) {
      from = 0;
    } else {
      continue;
    }
    for (Py_ssize_t i = from; i < n; ++i) {
      if (!tchar(PyUnicode_READ(kind, data, i))) Py_RETURN_FALSE;
    }
    if (!PyUnicode_Check(value) || PyUnicode_KIND(value) != PyUnicode_1BYTE_KIND) Py_RETURN_FALSE;
    if (!utf8guard_is_valid_policy((const char*)PyUnicode_1BYTE_DATA(value),
                                   (size_t)PyUnicode_GET_LENGTH(value), policy))
      Py_RETURN_FALSE;
  }
  Py_RETURN_TRUE;
}

/* A 1-byte str of a WSGI environ (PEP 3333: latin-1, the bytes the server
 * read), in place; NULL when |key| is missing or holds something else. */
static const char* environ_bytes(PyObject* environ, const char* key, Py_ssize_t* len) {
  PyObject* value = PyDict_GetItemString(environ, key);
  if (value == NULL || !PyUnicode_Check(value) || PyUnicode_KIND(value) != PyUnicode_1BYTE_KIND)
    return NULL;
  *len = PyUnicode_GET_LENGTH(value);
  return (const char*)PyUnicode_1BYTE_DATA(value);
}

/* environ_clean(environ, path, query, headers): whether a WSGI request's
 * raw path (RAW_URI or REQUEST_URI up to '?', percent-decoded), query
 * (QUERY_STRING, percent-decoded) and headers hold nothing their policies
 * (bits, or None for a part left alone) report: the usual request's whole
 * head in one call. False also when the environ does not carry the raw
 * bytes this reads; the caller then checks part by part. */
static PyObject* environ_clean(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 4 || !PyDict_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "environ_clean(environ, path, query, headers)");
    return NULL;
  }
  PyObject* environ = args[0];
  for (int part = 0; part < 2; ++part) {
    PyObject* rule = args[1 + part];
    if (rule == Py_None) continue;
    unsigned long bits = PyLong_AsUnsignedLong(rule);
    if (bits == (unsigned long)-1 && PyErr_Occurred()) return NULL;
    Py_ssize_t len = 0;
    const char* data;
    if (part == 0) {
      data = environ_bytes(environ, "RAW_URI", &len);
      if (data == NULL || len == 0) data = environ_bytes(environ, "REQUEST_URI", &len);
      if (data == NULL || len == 0) Py_RETURN_FALSE;
      const char* mark = memchr(data, '?', (size_t)len);
      if (mark != NULL) len = mark - data;
    } else {
      data = environ_bytes(environ, "QUERY_STRING", &len);
      if (data == NULL) {
        if (PyDict_GetItemString(environ, "QUERY_STRING") != NULL) Py_RETURN_FALSE;
        len = 0;
      }
    }
    if (len > 0 && !utf8guard_percent_is_valid(data, (size_t)len, (utf8guard_policy)bits))
      Py_RETURN_FALSE;
  }
  if (args[3] == Py_None) Py_RETURN_TRUE;
  PyObject* pair[2] = {environ, args[3]};
  return environ_headers_clean(NULL, pair, 2);
}

/* An item of a sequence (list or tuple) in place: borrowed. */
static PyObject* sequence_item(PyObject* seq, Py_ssize_t i) {
  return PyList_Check(seq) ? PyList_GET_ITEM(seq, i) : PyTuple_GET_ITEM(seq, i);
}

static Py_ssize_t sequence_size(PyObject* seq) {
  return PyList_Check(seq) ? PyList_GET_SIZE(seq) : PyTuple_Check(seq) ? PyTuple_GET_SIZE(seq) : -1;
}

/* Whether the bytes |name| are |lower| (lower-case ASCII) in any case. */
static int name_is(PyObject* name, const char* lower, Py_ssize_t len) {
  if (PyBytes_GET_SIZE(name) != len) return 0;
  const char* data = PyBytes_AS_STRING(name);
  for (Py_ssize_t i = 0; i < len; ++i) {
    char c = data[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != lower[i]) return 0;
  }
  return 1;
}

/* scope_head(scope, path, query, headers): for an ASGI HTTP scope whose
 * raw path (percent-decoded), query string (percent-decoded), header names
 * (tokens) and values hold nothing their policies (bits, or None for a part
 * left alone) report, (its Content-Type values as a tuple, its last
 * Content-Encoding or None, whether it may have a body): the usual request's
 * head checked and the body's headers picked out in one pass. An HTTP/1.0 or
 * 1.1 request has no body unless it has a Transfer-Encoding or a
 * Content-Length (RFC 9112 6.3), which the server enforces as it frames the
 * request; any other version may have one. None when something is found or the scope
 * holds something else than bytes where the raw bytes belong; the caller then
 * checks part by part. */
static PyObject* scope_head(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 4 || !PyDict_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "scope_head(scope, path, query, headers)");
    return NULL;
  }
  PyObject* scope = args[0];
  static const char* const keys[2] = {"raw_path", "query_string"};
  for (int part = 0; part < 2; ++part) {
    PyObject* rule = args[1 + part];
    if (rule == Py_None) continue;
    unsigned long bits = PyLong_AsUnsignedLong(rule);
    if (bits == (unsigned long)-1 && PyErr_Occurred()) return NULL;
    PyObject* value = PyDict_GetItemString(scope, keys[part]);
    if (value == NULL) {
      if (part == 0) Py_RETURN_NONE;
      continue;
    }
    if (!PyBytes_Check(value)) Py_RETURN_NONE;
    Py_ssize_t len = PyBytes_GET_SIZE(value);
    if (len > 0 &&
        !utf8guard_percent_is_valid(PyBytes_AS_STRING(value), (size_t)len, (utf8guard_policy)bits))
      Py_RETURN_NONE;
  }
  utf8guard_policy policy = 0;
  int check = args[3] != Py_None;
  if (check) {
    unsigned long bits = PyLong_AsUnsignedLong(args[3]);
    if (bits == (unsigned long)-1 && PyErr_Occurred()) return NULL;
    policy = (utf8guard_policy)bits;
  }
  PyObject* headers = PyDict_GetItemString(scope, "headers");
  Py_ssize_t count = 0;
  if (headers != NULL) {
    count = sequence_size(headers);
    if (count < 0) Py_RETURN_NONE;
  }
  Py_ssize_t types = 0;
  PyObject* encoding = Py_None;
  PyObject* version = PyDict_GetItemString(scope, "http_version");
  int body = version == NULL || !PyUnicode_Check(version) ||
             (PyUnicode_CompareWithASCIIString(version, "1.1") != 0 &&
              PyUnicode_CompareWithASCIIString(version, "1.0") != 0);
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* pair = sequence_item(headers, i);
    if (sequence_size(pair) != 2) Py_RETURN_NONE;
    PyObject* name = sequence_item(pair, 0);
    PyObject* value = sequence_item(pair, 1);
    if (!PyBytes_Check(name) || !PyBytes_Check(value)) Py_RETURN_NONE;
    if (check) {
      const char* data = PyBytes_AS_STRING(name);
      Py_ssize_t n = PyBytes_GET_SIZE(name);
      if (n == 0) Py_RETURN_NONE;
      for (Py_ssize_t j = 0; j < n; ++j) {
        if (!tchar((unsigned char)data[j])) Py_RETURN_NONE;
      }
      if (!utf8guard_is_valid_policy(PyBytes_AS_STRING(value), (size_t)PyBytes_GET_SIZE(value),
                                     policy))
        Py_RETURN_NONE;
    }
    if (name_is(name, "content-type", 12)) {
      ++types;
    } else if (name_is(name, "content-encoding", 16)) {
      encoding = value;
    } else if (name_is(name, "transfer-encoding", 17) ||
               (name_is(name, "content-length", 14) &&
                !(PyBytes_GET_SIZE(value) == 1 && PyBytes_AS_STRING(value)[0] == '0'))) {
      body = 1;
    }
  }
  PyObject* values = PyTuple_New(types);
  if (values == NULL) return NULL;
  for (Py_ssize_t i = 0, k = 0; k < types; ++i) {
    PyObject* pair = sequence_item(headers, i);
    if (name_is(sequence_item(pair, 0), "content-type", 12))
      PyTuple_SET_ITEM(values, k++, Py_NewRef(sequence_item(pair, 1)));
  }
  return Py_BuildValue("(NOO)", values, encoding, body ? Py_True : Py_False);
}

static PyMethodDef core_methods[] = {
    {"rule_default", rule_default, METH_O,
     "rule_default(slot, /)\n--\n\nThe rule of a part no setting names: None (off) or "
     "(policy bits, form)."},
    {"rule", (PyCFunction)(void (*)(void))rule, METH_FASTCALL,
     "rule(slot, spec, func, label, /)\n--\n\nThe rule a setting's value gives a part."},
    {"media", (PyCFunction)(void (*)(void))media, METH_FASTCALL,
     "media(values, text_declared, /)\n--\n\n(slot, finding) for a body with these "
     "Content-Type values."},
    {"coding", coding, METH_O,
     "coding(value, /)\n--\n\nNone, or the finding of a Content-Encoding the guard cannot "
     "read."},
    {"environ_headers_clean", (PyCFunction)(void (*)(void))environ_headers_clean, METH_FASTCALL,
     "environ_headers_clean(environ, policy, /)\n--\n\nWhether a WSGI environ's headers all "
     "have token names and values the policy accepts."},
    {"environ_clean", (PyCFunction)(void (*)(void))environ_clean, METH_FASTCALL,
     "environ_clean(environ, path, query, headers, /)\n--\n\nWhether a WSGI request's raw "
     "path, query and headers are clean under these policies (None: left alone)."},
    {"scope_head", (PyCFunction)(void (*)(void))scope_head, METH_FASTCALL,
     "scope_head(scope, path, query, headers, /)\n--\n\n(Content-Type values, "
     "Content-Encoding, whether a body may follow) of an ASGI scope whose raw path, query and "
     "headers are clean under "
     "these policies (None: left alone); None when the caller must check part by part."},
    {"header_name", header_name, METH_O,
     "header_name(name, /)\n--\n\nNone, or the finding of a header name that is no token."},
    {"header_label", header_label, METH_O,
     "header_label(name, /)\n--\n\n\"header NAME\", with the name's bytes outside printable "
     "ASCII as \\xHH."},
    {NULL, NULL, 0, NULL}};

/* The slots' names, from their nginx directives: "utf8guard_body_form" is
 * "form", "utf8guard_target" "target". */
static PyObject* slot_names(void) {
  PyObject* names = PyTuple_New(UG_SLOT_COUNT);
  if (names == NULL) return NULL;
  for (int i = 0; i < UG_SLOT_COUNT; ++i) {
    const char* d = ug_slot_directive((ug_slot)i) + strlen("utf8guard_");
    if (strncmp(d, "body_", 5) == 0) d += 5;
    PyObject* s = PyUnicode_FromString(d);
    if (s == NULL) {
      Py_DECREF(names);
      return NULL;
    }
    PyTuple_SET_ITEM(names, i, s);
  }
  return names;
}

int ug_core_add(PyObject* module) {
  if (PyModule_AddFunctions(module, core_methods) < 0) return -1;
  PyObject* multipart = PyType_FromModuleAndSpec(module, &multipart_spec, NULL);
  if (multipart == NULL) return -1;
  int added = PyModule_AddObjectRef(module, "Multipart", multipart);
  Py_DECREF(multipart);
  if (added < 0) return -1;
  PyObject* names = slot_names();
  if (names == NULL) return -1;
  int rc = PyModule_AddObjectRef(module, "SLOTS", names);
  Py_DECREF(names);
  return rc;
}
