/* common.c - inputs, policies by name, and the objects that carry a finding. */
#include "common.h"

#include <stdio.h>
#include <string.h>

ug_types ug_registered;

int ug_input_get(PyObject* obj, ug_input* in) {
  in->view.obj = NULL;
  if (PyBytes_CheckExact(obj)) {
    in->data = PyBytes_AS_STRING(obj);
    in->len = PyBytes_GET_SIZE(obj);
    return 0;
  }
  if (PyUnicode_Check(obj)) {
    PyErr_Format(PyExc_TypeError,
                 "a bytes-like object is required, not 'str' (encode it, or use it as it is: "
                 "a str is already valid)");
    return -1;
  }
  if (PyObject_GetBuffer(obj, &in->view, PyBUF_SIMPLE) < 0) return -1;
  in->data = (const char*)in->view.buf;
  in->len = in->view.len;
  return 0;
}

void ug_input_release(ug_input* in) {
  if (in->view.obj != NULL) PyBuffer_Release(&in->view);
}

static PyObject* known_names(int profiles) {
  PyObject* list = PyList_New(0);
  if (list == NULL) return NULL;
  if (profiles) {
    for (size_t i = 0; utf8guard_profile_name(i) != NULL; ++i) {
      PyObject* s = PyUnicode_FromString(utf8guard_profile_name(i));
      if (s == NULL || PyList_Append(list, s) < 0) {
        Py_XDECREF(s);
        Py_DECREF(list);
        return NULL;
      }
      Py_DECREF(s);
    }
  } else {
    for (int bit = 0; bit < UTF8GUARD_CATEGORY_COUNT; ++bit) {
      PyObject* s = PyUnicode_FromString(utf8guard_category_name((utf8guard_category)(1u << bit)));
      if (s == NULL || PyList_Append(list, s) < 0) {
        Py_XDECREF(s);
        Py_DECREF(list);
        return NULL;
      }
      Py_DECREF(s);
    }
  }
  PyObject* joined = PyUnicode_Join(PyUnicode_FromString(", "), list);
  Py_DECREF(list);
  return joined;
}

static int unknown_name(const char* what, PyObject* name, int profiles) {
  PyObject* names = known_names(profiles);
  if (names == NULL) return -1;
  PyErr_Format(PyExc_ValueError, "unknown %s %R (known: %U)", what, name, names);
  Py_DECREF(names);
  return -1;
}

static int deny_one(PyObject* name, utf8guard_policy* policy) {
  if (!PyUnicode_Check(name)) {
    PyErr_Format(PyExc_TypeError, "deny: category names are str, not '%.100s'",
                 Py_TYPE(name)->tp_name);
    return -1;
  }
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(name, &n);
  if (s == NULL) return -1;
  utf8guard_category c = utf8guard_category_from_name(s, (size_t)n);
  if (c == UTF8GUARD_CATEGORY_NONE) return unknown_name("category", name, 0);
  *policy |= (utf8guard_policy)c;
  return 0;
}

/* policy_spec reads "field,-newline,+bidi": profile or category names, each
 * optionally prefixed '+' (add, the default) or '-' (remove), left to right. */
static int policy_spec(PyObject* spec, utf8guard_policy* policy) {
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(spec, &n);
  if (s == NULL) return -1;
  utf8guard_policy out = UTF8GUARD_PROFILE_STRICT;
  Py_ssize_t i = 0;
  while (i < n) {
    Py_ssize_t end = i;
    while (end < n && s[end] != ',') ++end;
    Py_ssize_t a = i, b = end;
    while (a < b && s[a] == ' ') ++a;
    while (b > a && s[b - 1] == ' ') --b;
    int remove = 0;
    if (a < b && (s[a] == '+' || s[a] == '-')) remove = s[a++] == '-';
    utf8guard_policy bits = 0;
    utf8guard_category c = utf8guard_category_from_name(s + a, (size_t)(b - a));
    if (c != UTF8GUARD_CATEGORY_NONE) {
      bits = (utf8guard_policy)c;
    } else if (a == b || !utf8guard_profile_from_name(s + a, (size_t)(b - a), &bits)) {
      PyObject* item = PyUnicode_FromStringAndSize(s + a, b - a);
      PyObject* profiles = item != NULL ? known_names(1) : NULL;
      PyObject* categories = profiles != NULL ? known_names(0) : NULL;
      if (categories != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "policy %R: unknown name %R at %zd (profiles: %U; categories: %U)", spec, item,
                     a, profiles, categories);
      }
      Py_XDECREF(item);
      Py_XDECREF(profiles);
      Py_XDECREF(categories);
      return -1;
    }
    out = remove ? (out & ~bits) : (out | bits);
    i = end + 1;
  }
  *policy = out;
  return 0;
}

int ug_policy_from(PyObject* profile, PyObject* deny, PyObject* spec, utf8guard_policy* policy) {
  *policy = UTF8GUARD_PROFILE_STRICT;
  if (spec != NULL && spec != Py_None) {
    if (profile != NULL && profile != Py_None) {
      PyErr_SetString(PyExc_TypeError, "policy= replaces profile=: give one of them");
      return -1;
    }
    if (PyLong_Check(spec)) {
      unsigned long bits = PyLong_AsUnsignedLong(spec);
      if (bits == (unsigned long)-1 && PyErr_Occurred()) return -1;
      if (bits >> UTF8GUARD_CATEGORY_COUNT) {
        PyErr_Format(PyExc_ValueError, "policy %lu: not a set of categories", bits);
        return -1;
      }
      *policy = (utf8guard_policy)bits;
    } else if (PyUnicode_Check(spec)) {
      if (policy_spec(spec, policy) < 0) return -1;
    } else {
      PyErr_Format(PyExc_TypeError, "policy: a str such as \"field,-newline\" or an int, not '%.100s'",
                   Py_TYPE(spec)->tp_name);
      return -1;
    }
  }
  if (profile != NULL && profile != Py_None) {
    if (!PyUnicode_Check(profile)) {
      PyErr_Format(PyExc_TypeError, "profile: a name (str) is required, not '%.100s'",
                   Py_TYPE(profile)->tp_name);
      return -1;
    }
    Py_ssize_t n;
    const char* s = PyUnicode_AsUTF8AndSize(profile, &n);
    if (s == NULL) return -1;
    if (!utf8guard_profile_from_name(s, (size_t)n, policy)) {
      return unknown_name("profile", profile, 1);
    }
  }
  if (deny == NULL || deny == Py_None) return 0;
  if (PyUnicode_Check(deny)) {
    /* "bidi,nul": a comma-separated list, as the CLI's --deny takes it. */
    PyObject* parts = PyUnicode_Split(deny, PyUnicode_FromString(","), -1);
    if (parts == NULL) return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(parts); ++i) {
      PyObject* item = PyList_GET_ITEM(parts, i);
      PyObject* stripped = PyObject_CallMethod(item, "strip", NULL);
      if (stripped == NULL) {
        rc = -1;
        break;
      }
      rc = deny_one(stripped, policy);
      Py_DECREF(stripped);
    }
    Py_DECREF(parts);
    return rc;
  }
  PyObject* it = PyObject_GetIter(deny);
  if (it == NULL) {
    PyErr_Format(PyExc_TypeError, "deny: a name or an iterable of names is required, not '%.100s'",
                 Py_TYPE(deny)->tp_name);
    return -1;
  }
  PyObject* item;
  while ((item = PyIter_Next(it)) != NULL) {
    int rc = deny_one(item, policy);
    Py_DECREF(item);
    if (rc < 0) {
      Py_DECREF(it);
      return -1;
    }
  }
  Py_DECREF(it);
  return PyErr_Occurred() ? -1 : 0;
}

int ug_kwargs(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, const char* const* names,
              PyObject** values, const char* func) {
  if (kwnames == NULL) return 0;
  Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int found = 0;
    for (int i = 0; names[i] != NULL; ++i) {
      if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
        if (values[i] != NULL) {
          PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", func,
                       names[i]);
          return -1;
        }
        values[i] = args[nargs + k];
        found = 1;
        break;
      }
    }
    if (!found) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", func, key);
      return -1;
    }
  }
  return 0;
}

PyObject* ug_hint_object(utf8guard_hint h) {
  if (h.kind == UTF8GUARD_HINT_NONE) Py_RETURN_NONE;
  if (h.has_value) {
    return PyObject_CallFunction(ug_registered.hint_type, "sk", utf8guard_hint_name(h.kind),
                                 (unsigned long)h.value);
  }
  return PyObject_CallFunction(ug_registered.hint_type, "sO", utf8guard_hint_name(h.kind), Py_None);
}

static size_t put_code_point(char* out, size_t cap, uint32_t value) {
  int n = snprintf(out, cap, "U+%04lX", (unsigned long)value);
  return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t ug_describe(const char* data, size_t len, size_t base, utf8guard_result r,
                   size_t shown_offset, const utf8guard_hint* hint, char* out, size_t cap) {
  size_t n = 0;
#define UG_ADD(...)                                                       \
  do {                                                                    \
    int w_ = snprintf(out + n, cap - n, __VA_ARGS__);                     \
    if (w_ > 0) n += (size_t)w_ < cap - n ? (size_t)w_ : cap - n - 1;     \
  } while (0)
  UG_ADD("%s", utf8guard_error_name(r.kind));
  if (r.kind == UTF8GUARD_ERROR_DISALLOWED) {
    UG_ADD(" %s ", utf8guard_category_name(r.category));
    n += put_code_point(out + n, cap - n, r.code_point);
  }
  UG_ADD(" at byte %zu (", shown_offset);
  /* The subpart or character, then what follows, 4 bytes in all. */
  size_t start = r.offset >= base ? r.offset - base : len;
  size_t shown = r.length > 4 ? r.length : 4;
  for (size_t i = 0; i < shown && start + i < len; ++i) {
    UG_ADD(i == 0 ? "%02X" : " %02X", (unsigned)(unsigned char)data[start + i]);
  }
  UG_ADD(")");
  if (hint != NULL && hint->kind != UTF8GUARD_HINT_NONE) {
    UG_ADD(" [%s", utf8guard_hint_name(hint->kind));
    if (hint->has_value) {
      UG_ADD(" ");
      n += put_code_point(out + n, cap - n, hint->value);
    }
    UG_ADD("]");
  }
#undef UG_ADD
  return n;
}

PyObject* ug_result_object(const char* data, size_t len, size_t base, utf8guard_result r,
                           const utf8guard_percent_result* percent, int with_hint) {
  if (r.kind == UTF8GUARD_ERROR_NONE) {
    Py_INCREF(ug_registered.clean);
    return ug_registered.clean;
  }
  utf8guard_hint h = {UTF8GUARD_HINT_NONE, 0, false};
  if (with_hint && r.kind != UTF8GUARD_ERROR_DISALLOWED && r.offset >= base) {
    h = utf8guard_explain(data, len, r.offset - base);
  }
  /* The result the caller sees: encoded offsets for percent-encoded input. */
  utf8guard_result shown = percent != NULL ? percent->error : r;
  char text[UG_DESCRIBE_MAX];
  size_t n = ug_describe(data, len, base, r, shown.offset, &h, text, sizeof text);
  PyObject* hint = ug_hint_object(h);
  if (hint == NULL) return NULL;
  PyObject* category = Py_None;
  PyObject* code_point = Py_None;
  Py_INCREF(Py_None);
  Py_INCREF(Py_None);
  if (shown.kind == UTF8GUARD_ERROR_DISALLOWED) {
    Py_DECREF(Py_None);
    Py_DECREF(Py_None);
    category = PyUnicode_FromString(utf8guard_category_name(shown.category));
    code_point = PyLong_FromUnsignedLong(shown.code_point);
  }
  PyObject* decoded_offset = Py_None;
  PyObject* decoded_length = Py_None;
  Py_INCREF(Py_None);
  Py_INCREF(Py_None);
  if (percent != NULL) {
    Py_DECREF(Py_None);
    Py_DECREF(Py_None);
    decoded_offset = PyLong_FromSize_t(percent->decoded_offset);
    decoded_length = PyLong_FromSize_t(percent->decoded_length);
  }
  PyObject* out = NULL;
  if (category != NULL && code_point != NULL && decoded_offset != NULL && decoded_length != NULL) {
    out = PyObject_CallFunction(ug_registered.result_type, "snnOOOs#OO",
                                utf8guard_error_name(shown.kind), (Py_ssize_t)shown.offset,
                                (Py_ssize_t)shown.length, category, code_point, hint, text,
                                (Py_ssize_t)n, decoded_offset, decoded_length);
  }
  Py_XDECREF(category);
  Py_XDECREF(code_point);
  Py_XDECREF(decoded_offset);
  Py_XDECREF(decoded_length);
  Py_DECREF(hint);
  return out;
}

PyObject* ug_percent_result_object(const char* data, size_t len, utf8guard_percent_result pr) {
  if (pr.error.kind == UTF8GUARD_ERROR_NONE) {
    Py_INCREF(ug_registered.clean);
    return ug_registered.clean;
  }
  /* The hint and the bytes shown come from the decoded bytes: decode the
   * input up to a little past the finding (the error path alone pays). */
  size_t end = pr.error.offset + pr.error.length + 6 * 3;
  if (end > len) end = len;
  char* decoded = PyMem_Malloc(end > 0 ? end : 1);
  if (decoded == NULL) return PyErr_NoMemory();
  size_t written = 0;
  if (utf8guard_percent_decode(data, end, decoded, &written) != UTF8GUARD_STATUS_OK) {
    written = 0;
  }
  utf8guard_result at_decoded = pr.error;
  at_decoded.offset = pr.decoded_offset;
  at_decoded.length = pr.decoded_length;
  PyObject* out = ug_result_object(decoded, written, 0, at_decoded, &pr, 1);
  PyMem_Free(decoded);
  return out;
}
