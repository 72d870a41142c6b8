/* common.c - inputs, policies by name, and the objects that carry a finding. */
#include "common.h"

#include <stdio.h>
#include <string.h>

int ug_ready(const ug_state* st, const char* func) {
  if (st->result_type != NULL) return 1;
  PyErr_Format(PyExc_RuntimeError, "%s(): import the utf8guard package, not its _utf8guard module",
               func);
  return 0;
}

/* str_input reads a str as UTF-8: in place when it has no lone surrogate
 * (Python caches that form), else encoded with surrogatepass, so that a lone
 * surrogate becomes the bytes ED A0 80..ED BF BF, which are ill-formed. */
static int str_input(PyObject* obj, ug_input* in) {
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(obj, &n);
  if (s != NULL) {
    in->data = s;
    in->len = n;
    return 0;
  }
  if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
  PyErr_Clear();
  in->owned = PyUnicode_AsEncodedString(obj, "utf-8", "surrogatepass");
  if (in->owned == NULL) return -1;
  in->data = PyBytes_AS_STRING(in->owned);
  in->len = PyBytes_GET_SIZE(in->owned);
  return 0;
}

int ug_input_get(PyObject* obj, ug_input* in, const char* func, int allow_str, int* was_str) {
  in->view.obj = NULL;
  in->owned = NULL;
  if (was_str != NULL) *was_str = 0;
  if (PyBytes_CheckExact(obj)) {
    in->data = PyBytes_AS_STRING(obj);
    in->len = PyBytes_GET_SIZE(obj);
    return 0;
  }
  if (PyUnicode_Check(obj)) {
    if (allow_str) {
      if (was_str != NULL) *was_str = 1;
      return str_input(obj, in);
    }
    PyErr_Format(PyExc_TypeError,
                 "%s(): a bytes-like object is required, not 'str' (is_valid, validate and "
                 "sanitize take a str)",
                 func);
    return -1;
  }
  if (PyObject_GetBuffer(obj, &in->view, PyBUF_SIMPLE) < 0) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Format(PyExc_TypeError, "%s(): a bytes-like object is required, not '%.100s'", func,
                   Py_TYPE(obj)->tp_name);
    }
    return -1;
  }
  in->data = (const char*)in->view.buf;
  in->len = in->view.len;
  return 0;
}

void ug_input_release(ug_input* in) {
  if (in->view.obj != NULL) PyBuffer_Release(&in->view);
  Py_CLEAR(in->owned);
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
  PyObject* separator = PyUnicode_FromString(", ");
  PyObject* joined = separator != NULL ? PyUnicode_Join(separator, list) : NULL;
  Py_XDECREF(separator);
  Py_DECREF(list);
  return joined;
}

static int unknown_name(const char* func, const char* what, PyObject* name, int profiles) {
  PyObject* names = known_names(profiles);
  if (names == NULL) return -1;
  PyErr_Format(PyExc_ValueError, "%s(): unknown %s %R (known: %U)", func, what, name, names);
  Py_DECREF(names);
  return -1;
}

static int deny_one(const char* func, PyObject* name, utf8guard_policy* policy) {
  if (!PyUnicode_Check(name)) {
    PyErr_Format(PyExc_TypeError, "%s(): deny: category names are str, not '%.100s'", func,
                 Py_TYPE(name)->tp_name);
    return -1;
  }
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(name, &n);
  if (s == NULL) return -1;
  utf8guard_category c = utf8guard_category_from_name(s, (size_t)n);
  if (c == UTF8GUARD_CATEGORY_NONE) return unknown_name(func, "category", name, 0);
  *policy |= (utf8guard_policy)c;
  return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* policy_spec reads "field, -newline,+bidi" with utf8guard_policy_parse,
 * after dropping the blanks around each item. */
static int policy_spec(const char* func, const char* label, PyObject* spec,
                       utf8guard_policy* policy) {
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(spec, &n);
  if (s == NULL) return -1;
  char* text = PyMem_Malloc((size_t)n + 1);
  if (text == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  size_t len = 0;
  for (Py_ssize_t i = 0; i < n;) {
    Py_ssize_t end = i;
    while (end < n && s[end] != ',') ++end;
    Py_ssize_t from = i, to = end;
    while (from < to && is_blank(s[from])) ++from;
    while (to > from && is_blank(s[to - 1])) --to;
    memcpy(text + len, s + from, (size_t)(to - from));
    len += (size_t)(to - from);
    if (end < n) text[len++] = ',';
    i = end + 1;
  }
  size_t at = 0, length = 0;
  int ok = utf8guard_policy_parse(text, len, policy, &at, &length);
  PyObject* item = ok ? NULL : PyUnicode_FromStringAndSize(text + at, (Py_ssize_t)length);
  PyMem_Free(text);
  if (ok) return 0;
  PyObject* profiles = item != NULL ? known_names(1) : NULL;
  PyObject* categories = profiles != NULL ? known_names(0) : NULL;
  if (categories != NULL) {
    PyErr_Format(PyExc_ValueError, "%s(): %s %R: no such name: %R (profiles: %U; categories: %U)",
                 func, label, spec, item, profiles, categories);
  }
  Py_XDECREF(item);
  Py_XDECREF(profiles);
  Py_XDECREF(categories);
  return -1;
}

int ug_spec_parse(const char* func, const char* label, PyObject* spec, utf8guard_policy* policy) {
  if (PyLong_Check(spec) && !PyBool_Check(spec)) {
    unsigned long bits = PyLong_AsUnsignedLong(spec);
    if (bits == (unsigned long)-1 && PyErr_Occurred()) return -1;
    if (bits >> UTF8GUARD_CATEGORY_COUNT) {
      PyErr_Format(PyExc_ValueError, "%s(): %s %lu: not a set of categories", func, label, bits);
      return -1;
    }
    *policy = (utf8guard_policy)bits;
    return 0;
  }
  if (PyUnicode_Check(spec)) return policy_spec(func, label, spec, policy);
  PyErr_Format(PyExc_TypeError,
               "%s(): %s: a str such as \"field,-newline\" or an int from policy_bits(), "
               "not '%.100s'",
               func, label, Py_TYPE(spec)->tp_name);
  return -1;
}

int ug_policy_from(const char* func, PyObject* profile, PyObject* deny, PyObject* spec,
                   utf8guard_policy* policy) {
  *policy = UTF8GUARD_PROFILE_STRICT;
  if (spec != NULL && spec != Py_None) {
    if (profile != NULL && profile != Py_None) {
      PyErr_Format(PyExc_TypeError, "%s(): policy= replaces profile=: give one of them", func);
      return -1;
    }
    if (ug_spec_parse(func, "policy", spec, policy) < 0) return -1;
  }
  if (profile != NULL && profile != Py_None) {
    if (!PyUnicode_Check(profile)) {
      PyErr_Format(PyExc_TypeError, "%s(): profile: a name (str) is required, not '%.100s'", func,
                   Py_TYPE(profile)->tp_name);
      return -1;
    }
    Py_ssize_t n;
    const char* s = PyUnicode_AsUTF8AndSize(profile, &n);
    if (s == NULL) return -1;
    if (!utf8guard_profile_from_name(s, (size_t)n, policy)) {
      return unknown_name(func, "profile", profile, 1);
    }
  }
  if (deny == NULL || deny == Py_None) return 0;
  if (PyBytes_Check(deny) || PyByteArray_Check(deny)) {
    PyErr_Format(PyExc_TypeError,
                 "%s(): deny: category names are str, not '%.100s' (deny=\"bidi,nul\")", func,
                 Py_TYPE(deny)->tp_name);
    return -1;
  }
  if (PyUnicode_Check(deny)) {
    /* "bidi,nul": a comma-separated list, as the CLI's --deny takes it; an
     * empty or blank string denies nothing more, as policy="" does. */
    PyObject* comma = PyUnicode_FromString(",");
    PyObject* parts = comma != NULL ? PyUnicode_Split(deny, comma, -1) : NULL;
    Py_XDECREF(comma);
    if (parts == NULL) return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(parts); ++i) {
      PyObject* item = PyList_GET_ITEM(parts, i);
      PyObject* stripped = PyObject_CallMethod(item, "strip", NULL);
      if (stripped == NULL) {
        rc = -1;
        break;
      }
      if (PyUnicode_GET_LENGTH(stripped) > 0 || PyList_GET_SIZE(parts) > 1) {
        rc = deny_one(func, stripped, policy);
      }
      Py_DECREF(stripped);
    }
    Py_DECREF(parts);
    return rc;
  }
  PyObject* it = PyObject_GetIter(deny);
  if (it == NULL) {
    PyErr_Format(PyExc_TypeError,
                 "%s(): deny: a name or an iterable of names is required, not '%.100s'", func,
                 Py_TYPE(deny)->tp_name);
    return -1;
  }
  PyObject* item;
  while ((item = PyIter_Next(it)) != NULL) {
    int rc = deny_one(func, item, policy);
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

PyObject* ug_hint_object(const ug_state* st, utf8guard_hint h) {
  if (h.kind == UTF8GUARD_HINT_NONE) Py_RETURN_NONE;
  if (h.has_value) {
    return PyObject_CallFunction(st->hint_type, "sk", utf8guard_hint_name(h.kind),
                                 (unsigned long)h.value);
  }
  return PyObject_CallFunction(st->hint_type, "sO", utf8guard_hint_name(h.kind), Py_None);
}

PyObject* ug_result_object(const ug_state* st, const char* data, size_t len, size_t base,
                           utf8guard_result r, const utf8guard_encoded_result* encoded,
                           ug_form form) {
  const utf8guard_encoded_result* percent = form == UG_FORM_RAW ? NULL : encoded;
  if (r.kind == UTF8GUARD_ERROR_NONE) {
    Py_INCREF(st->clean);
    return st->clean;
  }
  char text[UTF8GUARD_DESCRIBE_MAX];
  utf8guard_hint h = {UTF8GUARD_HINT_NONE, 0, false};
  size_t n;
  if (form == UG_FORM_JSON) {
    if (r.kind != UTF8GUARD_ERROR_DISALLOWED) h = utf8guard_json_explain(data, len, base, *encoded);
    n = utf8guard_json_describe(data, len, base, *encoded, UTF8GUARD_DESCRIBE_HINT, text,
                                sizeof text);
  } else if (percent != NULL) {
    if (r.kind != UTF8GUARD_ERROR_DISALLOWED)
      h = utf8guard_percent_explain(data, len, base, *percent);
    n = utf8guard_percent_describe(data, len, base, *percent, UTF8GUARD_DESCRIBE_HINT, text,
                                   sizeof text);
  } else {
    if (r.kind != UTF8GUARD_ERROR_DISALLOWED && r.offset >= base) {
      h = utf8guard_explain(data, len, r.offset - base);
    }
    n = utf8guard_describe(data, len, base, r, UTF8GUARD_DESCRIBE_HINT, text, sizeof text);
  }
  if (n >= sizeof text) n = sizeof text - 1;
  PyObject* hint = ug_hint_object(st, h);
  if (hint == NULL) return NULL;
  PyObject* category = Py_None;
  PyObject* code_point = Py_None;
  PyObject* decoded_offset = Py_None;
  PyObject* decoded_length = Py_None;
  Py_INCREF(Py_None);
  Py_INCREF(Py_None);
  Py_INCREF(Py_None);
  Py_INCREF(Py_None);
  if (r.kind == UTF8GUARD_ERROR_DISALLOWED) {
    Py_SETREF(category, PyUnicode_FromString(utf8guard_category_name(r.category)));
    Py_SETREF(code_point, PyLong_FromUnsignedLong(r.code_point));
  }
  if (percent != NULL) {
    Py_SETREF(decoded_offset, PyLong_FromSize_t(percent->decoded_offset));
    Py_SETREF(decoded_length, PyLong_FromSize_t(percent->decoded_length));
  }
  PyObject* out = NULL;
  if (category != NULL && code_point != NULL && decoded_offset != NULL && decoded_length != NULL) {
    out = PyObject_CallFunction(st->result_type, "snnOOOs#OO", utf8guard_error_name(r.kind),
                                (Py_ssize_t)r.offset, (Py_ssize_t)r.length, category, code_point,
                                hint, text, (Py_ssize_t)n, decoded_offset, decoded_length);
  }
  Py_XDECREF(category);
  Py_XDECREF(code_point);
  Py_XDECREF(decoded_offset);
  Py_XDECREF(decoded_length);
  Py_DECREF(hint);
  return out;
}
