/* core.c - the request rules of request_check (nginx/src/request_check.h),
 * the code the nginx module runs, for the Python middleware: which part of a
 * request gets which rule, the defaults, what a Content-Type selects, and how
 * a header is named in a finding. utf8guard/_http.py asks these; it decides
 * none of them itself. */
#include <string.h>

#include "common.h"
#include "request_check.h"

/* A rule as Python sees it: None when off, else (policy bits, percent). */
static PyObject* rule_object(ug_rule rule) {
  if (!rule.on) Py_RETURN_NONE;
  return Py_BuildValue("(kO)", (unsigned long)rule.policy, rule.percent ? Py_True : Py_False);
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
  (void)ug_rule_parse(slot, "off", 3, &off, NULL, NULL);
  PyObject* spec = args[1];
  if (spec == Py_None ||
      (PyUnicode_Check(spec) && PyUnicode_CompareWithASCIIString(spec, "off") == 0))
    Py_RETURN_NONE;
  ug_rule on = off;
  on.on = true;
  if (ug_spec_parse(func, label, spec, &on.policy) < 0) return NULL;
  return rule_object(on);
}

static PyObject* body_slot(PyObject* self, PyObject* arg) {
  (void)self;
  if (arg == Py_None) return PyLong_FromLong(ug_body_slot(NULL, 0));
  if (!PyBytes_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "body_slot(): bytes or None, not '%.100s'",
                 Py_TYPE(arg)->tp_name);
    return NULL;
  }
  return PyLong_FromLong(ug_body_slot(PyBytes_AS_STRING(arg), (size_t)PyBytes_GET_SIZE(arg)));
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

static PyMethodDef core_methods[] = {
    {"rule_default", rule_default, METH_O,
     "rule_default(slot, /)\n--\n\nThe rule of a part no setting names: None (off) or "
     "(policy bits, percent)."},
    {"rule", (PyCFunction)(void (*)(void))rule, METH_FASTCALL,
     "rule(slot, spec, func, label, /)\n--\n\nThe rule a setting's value gives a part."},
    {"body_slot", body_slot, METH_O,
     "body_slot(content_type, /)\n--\n\nThe slot (an index into SLOTS) of a body with this "
     "Content-Type (bytes, or None for none)."},
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
  PyObject* names = slot_names();
  if (names == NULL) return -1;
  int rc = PyModule_AddObjectRef(module, "SLOTS", names);
  Py_DECREF(names);
  return rc;
}
