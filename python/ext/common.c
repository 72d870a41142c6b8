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
  PyObject* separator = PyUnicode_FromString(", ");
  PyObject* joined = separator != NULL ? PyUnicode_Join(separator, list) : NULL;
  Py_XDECREF(separator);
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

/* policy_spec reads "field,-newline,+bidi" with utf8guard_policy_parse. */
static int policy_spec(PyObject* spec, utf8guard_policy* policy) {
  Py_ssize_t n;
  const char* s = PyUnicode_AsUTF8AndSize(spec, &n);
  if (s == NULL) return -1;
  size_t at = 0, length = 0;
  if (utf8guard_policy_parse(s, (size_t)n, policy, &at, &length)) return 0;
  PyObject* item = PyUnicode_FromStringAndSize(s + at, (Py_ssize_t)length);
  PyObject* profiles = item != NULL ? known_names(1) : NULL;
  PyObject* categories = profiles != NULL ? known_names(0) : NULL;
  if (categories != NULL) {
    PyErr_Format(PyExc_ValueError,
                 "policy %R: no such name: %R at %zu (profiles: %U; categories: %U)", spec, item,
                 at, profiles, categories);
  }
  Py_XDECREF(item);
  Py_XDECREF(profiles);
  Py_XDECREF(categories);
  return -1;
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
      PyErr_Format(PyExc_TypeError,
                   "policy: a str such as \"field,-newline\" or an int, not '%.100s'",
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

PyObject* ug_result_object(const char* data, size_t len, size_t base, utf8guard_result r,
                           const utf8guard_encoded_result* percent) {
  if (r.kind == UTF8GUARD_ERROR_NONE) {
    Py_INCREF(ug_registered.clean);
    return ug_registered.clean;
  }
  char text[UTF8GUARD_DESCRIBE_MAX];
  utf8guard_hint h = {UTF8GUARD_HINT_NONE, 0, false};
  size_t n;
  if (percent != NULL) {
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
  PyObject* hint = ug_hint_object(h);
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
    out =
        PyObject_CallFunction(ug_registered.result_type, "snnOOOs#OO", utf8guard_error_name(r.kind),
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
