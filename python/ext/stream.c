/* stream.c - utf8guard.Validator: input in chunks, in constant memory.
 *
 * It is request_check's body stream (ug_stream, nginx/src/request_check.h),
 * the one that the nginx module uses: the library's validator (or its percent
 * or JSON stream) and the library's finding window, the bytes kept around the
 * first finding so that its message reads as over the whole input. A finding
 * is reported by the feed() that finds it, described over the bytes its
 * window holds then; when the bytes its message reads after it come later,
 * the feed() that brings them (or finish()) returns it again with its final
 * message, the whole input's, and from then on every call returns that.
 *
 * One object serves one thread at a time: every method first takes the
 * object's |busy| flag (under the GIL) and a second thread that finds it
 * taken gets RuntimeError, so two feeds never interleave and nothing resets
 * the stream under a feed that runs with the GIL released. */
#include <string.h>

#include "common.h"
#include "request_check.h"

enum { OPEN = 0, FINISHED = 1, CLOSED = 2 };

typedef struct {
  PyObject_HEAD ug_stream stream;
  utf8guard_policy policy;
  int percent;
  int form; /* ug_form */
  int state;
  int busy;         /* a method runs; a feed() may run with the GIL released */
  PyObject* result; /* the first finding, once there is one; finish()'s result */
} validator_object;

static ug_state* state_of(validator_object* self) {
  return ug_module_state(PyType_GetModule(Py_TYPE(self)));
}

/* The core's encoding of each form. */
static const ug_encoding encodings[] = {UG_ENCODING_RAW, UG_ENCODING_PERCENT, UG_ENCODING_JSON};

static void start(validator_object* self) {
  ug_rule rule = {true, encodings[self->form], self->policy};
  ug_stream_init(&self->stream, &rule);
  self->state = OPEN;
  Py_CLEAR(self->result);
}

/* take marks the object busy for |method|, or raises: RuntimeError when
 * another thread holds it, StreamError when it is closed. */
static int take(validator_object* self, const char* method, int closed_ok) {
  if (self->busy) {
    PyErr_Format(PyExc_RuntimeError, "%s(): the Validator is in use by another thread", method);
    return 0;
  }
  if (!closed_ok && self->state == CLOSED) {
    PyErr_Format(state_of(self)->stream_error, "%s() on a closed Validator", method);
    return 0;
  }
  self->busy = 1;
  return 1;
}

static int validator_init(validator_object* self, PyObject* args, PyObject* kwargs) {
  static char* names[] = {"profile", "deny", "policy", "percent", "form", NULL};
  PyObject* profile = NULL;
  PyObject* deny = NULL;
  PyObject* spec = NULL;
  PyObject* percent = NULL;
  PyObject* form_name = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOOO:Validator", names, &profile, &deny, &spec,
                                   &percent, &form_name)) {
    return -1;
  }
  if (percent != NULL && !PyBool_Check(percent)) {
    PyErr_Format(PyExc_TypeError, "Validator(): percent: True or False, not '%.100s'",
                 Py_TYPE(percent)->tp_name);
    return -1;
  }
  int form = percent == Py_True ? UG_FORM_PERCENT : UG_FORM_RAW;
  if (form_name != NULL && form_name != Py_None) {
    if (percent != NULL) {
      PyErr_SetString(PyExc_TypeError, "Validator(): give form= or the older percent=, not both");
      return -1;
    }
    if (PyUnicode_Check(form_name) && PyUnicode_CompareWithASCIIString(form_name, "percent") == 0) {
      form = UG_FORM_PERCENT;
    } else if (PyUnicode_Check(form_name) &&
               PyUnicode_CompareWithASCIIString(form_name, "json") == 0) {
      form = UG_FORM_JSON;
    } else {
      PyErr_Format(PyExc_ValueError, "Validator(): form: None, \"percent\" or \"json\", not %R",
                   form_name);
      return -1;
    }
  }
  utf8guard_policy policy;
  if (ug_policy_from("Validator", profile, deny, spec, &policy) < 0) return -1;
  if (!take(self, "Validator", 1)) return -1;
  self->policy = policy;
  self->form = form;
  self->percent = form == UG_FORM_PERCENT;
  start(self);
  self->busy = 0;
  return 0;
}

static int validator_traverse(validator_object* self, visitproc visit, void* arg) {
  Py_VISIT(self->result);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

static int validator_clear(validator_object* self) {
  Py_CLEAR(self->result);
  return 0;
}

static void validator_dealloc(validator_object* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  (void)validator_clear(self);
  type->tp_free((PyObject*)self);
  Py_DECREF(type);
}

/* The Result of the stream's first finding, described over the bytes its
 * window holds: final once the window is ready (the bytes its message reads
 * after it have come, or the input has ended). */
static PyObject* finding(validator_object* self) {
  const ug_stream* s = &self->stream;
  size_t len = 0;
  size_t base = 0;
  const char* bytes = utf8guard_finding_window_bytes(&s->window, &len, &base);
  return ug_result_object(state_of(self), bytes, len, base, s->found.error, &s->found,
                          (ug_form)self->form);
}

/* Keeps self->result the finding's Result: made when the finding is found,
 * made again once, when its window becomes ready. 0 on failure. */
static int update_result(validator_object* self, int was_ready) {
  if (self->stream.state == UG_STREAM_CLEAN) return 1;
  if (self->result != NULL && (was_ready || !utf8guard_finding_window_ready(&self->stream.window)))
    return 1;
  PyObject* out = finding(self);
  if (out == NULL) return 0;
  Py_XSETREF(self->result, out);
  return 1;
}

static PyObject* validator_feed(validator_object* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "feed() takes exactly one argument (%zd given)", nargs);
    return NULL;
  }
  if (!take(self, "feed", 0)) return NULL;
  PyObject* out = NULL;
  if (self->state == FINISHED) {
    PyErr_SetString(state_of(self)->stream_error,
                    "feed() after finish(): call reset() to start a new input");
  } else {
    /* After a finding, later chunks only fill its window. */
    ug_input in;
    if (ug_input_get(args[0], &in, "feed", 0, NULL) == 0) {
      ug_finding text;
      const int was_ready =
          self->result != NULL && utf8guard_finding_window_ready(&self->stream.window);
      if (!was_ready) {
        UG_CALL(in.len, (void)ug_stream_feed(&self->stream, in.data, (size_t)in.len, &text));
      }
      if (update_result(self, was_ready)) {
        out = Py_NewRef(self->result != NULL ? self->result : state_of(self)->clean);
      }
      ug_input_release(&in);
    }
  }
  self->busy = 0;
  return out;
}

static PyObject* validator_finish(validator_object* self, PyObject* unused) {
  (void)unused;
  if (!take(self, "finish", 0)) return NULL;
  int failed = 0;
  if (self->state == OPEN) {
    ug_finding text;
    const int was_ready =
        self->result != NULL && utf8guard_finding_window_ready(&self->stream.window);
    (void)ug_stream_finish(&self->stream, &text);
    failed = !update_result(self, was_ready);
  }
  PyObject* out = NULL;
  if (!failed) {
    self->state = FINISHED;
    out = Py_NewRef(self->result != NULL ? self->result : state_of(self)->clean);
  }
  self->busy = 0;
  return out;
}

static PyObject* validator_reset(validator_object* self, PyObject* unused) {
  (void)unused;
  if (!take(self, "reset", 0)) return NULL;
  start(self);
  self->busy = 0;
  Py_RETURN_NONE;
}

static PyObject* validator_close(validator_object* self, PyObject* unused) {
  (void)unused;
  if (!take(self, "close", 1)) return NULL;
  self->state = CLOSED;
  self->busy = 0;
  Py_RETURN_NONE;
}

static PyObject* validator_enter(validator_object* self, PyObject* unused) {
  (void)unused;
  if (!take(self, "__enter__", 0)) return NULL;
  self->busy = 0;
  return Py_NewRef(self);
}

static PyObject* validator_exit(validator_object* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)args;
  (void)nargs;
  return validator_close(self, NULL);
}

static size_t position(const validator_object* self) { return self->stream.fed; }

static PyObject* get_position(validator_object* self, void* closure) {
  (void)closure;
  return PyLong_FromSize_t(position(self));
}

static PyObject* get_form(validator_object* self, void* closure) {
  (void)closure;
  static const char* const names[] = {NULL, "percent", "json"};
  if (self->form == UG_FORM_RAW) Py_RETURN_NONE;
  return PyUnicode_FromString(names[self->form]);
}

static PyObject* get_finished(validator_object* self, void* closure) {
  (void)closure;
  return PyBool_FromLong(self->state == FINISHED);
}

static PyObject* get_closed(validator_object* self, void* closure) {
  (void)closure;
  return PyBool_FromLong(self->state == CLOSED);
}

static PyObject* get_percent(validator_object* self, void* closure) {
  (void)closure;
  return PyBool_FromLong(self->percent);
}

static PyObject* validator_repr(validator_object* self) {
  static const char* states[] = {"open", "finished", "closed"};
  return PyUnicode_FromFormat("<utf8guard.Validator %s, %zu bytes fed%s%s>", states[self->state],
                              position(self),
                              self->form == UG_FORM_JSON ? ", JSON text"
                              : self->percent            ? ", percent-encoded"
                                                         : "",
                              self->result != NULL ? ", with a finding" : "");
}

static PyMethodDef validator_methods[] = {
    {"feed", (PyCFunction)(void (*)(void))validator_feed, METH_FASTCALL,
     "feed(data, /)\n--\n\n"
     "Check the next chunk (any bytes-like object) and return the first finding so\n"
     "far: a Result that is true while the input is clean. A character cut between\n"
     "chunks is judged when its last byte arrives; 'incomplete' only by finish().\n"
     "A finding's message shows the bytes around it: when those after it come in a\n"
     "later chunk, that feed() (or finish()) returns the finding again, its message\n"
     "now the whole input's. Raises StreamError after finish() or close()."},
    {"finish", (PyCFunction)validator_finish, METH_NOARGS,
     "finish()\n--\n\n"
     "End the input and return its first finding, including a sequence left\n"
     "unfinished. Calling it again returns the same Result."},
    {"reset", (PyCFunction)validator_reset, METH_NOARGS,
     "reset()\n--\n\nStart a new input with the same policy."},
    {"close", (PyCFunction)validator_close, METH_NOARGS,
     "close()\n--\n\nClose the stream: every later call raises StreamError."},
    {"__enter__", (PyCFunction)validator_enter, METH_NOARGS, "Return the Validator."},
    {"__exit__", (PyCFunction)(void (*)(void))validator_exit, METH_FASTCALL,
     "Close the Validator."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef validator_getset[] = {
    {"position", (getter)get_position, NULL, "Bytes fed so far.", NULL},
    {"finished", (getter)get_finished, NULL, "Whether finish() has ended the input.", NULL},
    {"closed", (getter)get_closed, NULL, "Whether close() has closed the stream.", NULL},
    {"percent", (getter)get_percent, NULL, "Whether the input is percent-decoded first.", NULL},
    {"form", (getter)get_form, NULL, "The input's encoded form: None, 'percent' or 'json'.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot validator_slots[] = {
    {Py_tp_dealloc, (void*)validator_dealloc},
    {Py_tp_traverse, (void*)validator_traverse},
    {Py_tp_clear, (void*)validator_clear},
    {Py_tp_repr, (void*)validator_repr},
    {Py_tp_doc,
     "Validator(*, profile=None, deny=None, policy=None, form=None)\n--\n\n"
     "Validate input that arrives in chunks, in constant memory: feed() each\n"
     "chunk, then finish(). Offsets in its Results count from the start of the\n"
     "whole input. With form='percent' (or percent=True) each chunk is\n"
     "percent-encoded text, with form='json' JSON text (an escape may be cut\n"
     "between chunks), and offsets count encoded bytes.\n"
     "Usable as a context manager, which closes it."},
    {Py_tp_methods, validator_methods},
    {Py_tp_getset, validator_getset},
    {Py_tp_init, (void*)validator_init},
    {Py_tp_new, (void*)PyType_GenericNew},
    {0, NULL}};

static PyType_Spec validator_spec = {"utf8guard.Validator", sizeof(validator_object), 0,
                                     Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, validator_slots};

int ug_validator_add(PyObject* module) {
  PyObject* type = PyType_FromModuleAndSpec(module, &validator_spec, NULL);
  if (type == NULL) return -1;
  ug_module_state(module)->validator_type = type; /* the state's reference */
  return PyModule_AddObjectRef(module, "Validator", type);
}
