/* stream.c - utf8guard.Validator: input in chunks, in constant memory.
 *
 * It wraps utf8guard_validator (or utf8guard_percent_stream with
 * percent=True) and keeps the last TAIL bytes it was fed, so that a finding
 * whose bytes began in an earlier chunk is described (utf8guard_describe) and
 * explained with them, as in one piece. TAIL covers the bytes an open
 * sequence or escape carries over and UTF8GUARD_DESCRIBE_PERCENT_BEHIND. */
#include <string.h>

#include "common.h"

#define TAIL 32
_Static_assert(TAIL >= 3 * 4 + 2 + UTF8GUARD_DESCRIBE_PERCENT_BEHIND, "the tail describes");

enum { OPEN = 0, FINISHED = 1, CLOSED = 2 };

typedef struct {
  PyObject_HEAD utf8guard_validator plain;
  utf8guard_percent_stream percent_stream;
  utf8guard_policy policy;
  int percent;
  int state;
  int busy;        /* a feed() runs with the GIL released */
  size_t position; /* bytes fed */
  size_t tail_len;
  unsigned char tail[TAIL];
  PyObject* result; /* the first finding, once there is one; finish()'s result */
} validator_object;

static void start(validator_object* self) {
  if (self->percent) {
    utf8guard_percent_validator_init(&self->percent_stream, self->policy);
  } else {
    utf8guard_validator_init_policy(&self->plain, self->policy);
  }
  self->state = OPEN;
  self->position = 0;
  self->tail_len = 0;
  Py_CLEAR(self->result);
}

static int validator_init(validator_object* self, PyObject* args, PyObject* kwargs) {
  static char* names[] = {"profile", "deny", "policy", "percent", NULL};
  PyObject* profile = NULL;
  PyObject* deny = NULL;
  PyObject* spec = NULL;
  int percent = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOp:Validator", names, &profile, &deny, &spec,
                                   &percent)) {
    return -1;
  }
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "Validator is in use by another thread");
    return -1;
  }
  if (ug_policy_from(profile, deny, spec, &self->policy) < 0) return -1;
  self->percent = percent;
  start(self);
  return 0;
}

static void validator_dealloc(validator_object* self) {
  Py_CLEAR(self->result);
  Py_TYPE(self)->tp_free((PyObject*)self);
}

static int usable(validator_object* self, const char* method) {
  if (self->state == CLOSED) {
    PyErr_Format(ug_registered.stream_error, "%s() on a closed Validator", method);
    return 0;
  }
  if (self->busy) {
    PyErr_Format(PyExc_RuntimeError, "%s(): the Validator is in use by another thread", method);
    return 0;
  }
  return 1;
}

/* window: the kept tail, then chunk[0..upto): bytes from absolute offset
 * self->position - self->tail_len. Returns a PyMem buffer or NULL. */
static char* window(const validator_object* self, const char* chunk, size_t chunk_len, size_t upto,
                    size_t* len) {
  if (upto > chunk_len) upto = chunk_len;
  char* w = PyMem_Malloc(self->tail_len + upto + 1);
  if (w == NULL) return NULL;
  memcpy(w, self->tail, self->tail_len);
  if (upto > 0) memcpy(w + self->tail_len, chunk, upto);
  *len = self->tail_len + upto;
  return w;
}

/* finding builds the Result of the first finding, reported by the call that
 * read chunk[0..chunk_len) (empty for finish()): described over the kept tail
 * and the chunk up to a little past the finding, as the library asks. */
static PyObject* finding(validator_object* self, const char* chunk, size_t chunk_len,
                         utf8guard_result r, const utf8guard_encoded_result* pr) {
  size_t base = self->position - self->tail_len;
  size_t at = r.offset > self->position ? r.offset - self->position : 0;
  size_t ahead = pr != NULL ? UTF8GUARD_DESCRIBE_PERCENT_AHEAD : UTF8GUARD_DESCRIBE_AHEAD;
  size_t wlen = 0;
  char* w = window(self, chunk, chunk_len, at + r.length + ahead, &wlen);
  if (w == NULL) return PyErr_NoMemory();
  PyObject* out = ug_result_object(w, wlen, base, r, pr);
  PyMem_Free(w);
  return out;
}

static void keep_tail(validator_object* self, const char* chunk, size_t len) {
  if (len >= TAIL) {
    memcpy(self->tail, chunk + len - TAIL, TAIL);
    self->tail_len = TAIL;
    return;
  }
  size_t keep = self->tail_len + len > TAIL ? TAIL - len : self->tail_len;
  memmove(self->tail, self->tail + self->tail_len - keep, keep);
  memcpy(self->tail + keep, chunk, len);
  self->tail_len = keep + len;
}

static PyObject* validator_feed(validator_object* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "feed() takes exactly one argument (%zd given)", nargs);
    return NULL;
  }
  if (!usable(self, "feed")) return NULL;
  if (self->state == FINISHED) {
    PyErr_SetString(ug_registered.stream_error,
                    "feed() after finish(): call reset() to start a new input");
    return NULL;
  }
  if (self->result != NULL) {
    /* The first finding stands; later chunks are not read. */
    Py_INCREF(self->result);
    return self->result;
  }
  ug_input in;
  if (ug_input_get(args[0], &in) < 0) return NULL;
  utf8guard_result r;
  utf8guard_encoded_result pr;
  const size_t len = (size_t)in.len;
  self->busy = 1;
  if (self->percent) {
    UG_CALL(in.len, pr = utf8guard_percent_validator_feed(&self->percent_stream, in.data, len));
  } else {
    UG_CALL(in.len, r = utf8guard_validator_feed(&self->plain, in.data, len));
  }
  self->busy = 0;
  if (self->percent) r = pr.error;
  PyObject* out;
  if (r.kind == UTF8GUARD_ERROR_NONE) {
    out = ug_registered.clean;
    Py_INCREF(out);
  } else {
    out = finding(self, in.data, len, r, self->percent ? &pr : NULL);
    if (out != NULL) {
      Py_INCREF(out);
      self->result = out;
    }
  }
  keep_tail(self, in.data, len);
  self->position += len;
  ug_input_release(&in);
  return out;
}

static PyObject* validator_finish(validator_object* self, PyObject* unused) {
  (void)unused;
  if (!usable(self, "finish")) return NULL;
  if (self->state == FINISHED || self->result != NULL) {
    self->state = FINISHED;
    PyObject* out = self->result != NULL ? self->result : ug_registered.clean;
    Py_INCREF(out);
    return out;
  }
  self->state = FINISHED;
  PyObject* out;
  if (self->percent) {
    utf8guard_encoded_result pr = utf8guard_percent_validator_finish(&self->percent_stream);
    out = pr.error.kind == UTF8GUARD_ERROR_NONE
              ? (Py_INCREF(ug_registered.clean), ug_registered.clean)
              : finding(self, NULL, 0, pr.error, &pr);
  } else {
    utf8guard_result r = utf8guard_validator_finish(&self->plain);
    out = r.kind == UTF8GUARD_ERROR_NONE ? (Py_INCREF(ug_registered.clean), ug_registered.clean)
                                         : finding(self, NULL, 0, r, NULL);
  }
  if (out != NULL && out != ug_registered.clean) {
    Py_INCREF(out);
    self->result = out;
  }
  return out;
}

static PyObject* validator_reset(validator_object* self, PyObject* unused) {
  (void)unused;
  if (!usable(self, "reset")) return NULL;
  start(self);
  Py_RETURN_NONE;
}

static PyObject* validator_close(validator_object* self, PyObject* unused) {
  (void)unused;
  if (self->busy) {
    PyErr_SetString(PyExc_RuntimeError, "close(): the Validator is in use by another thread");
    return NULL;
  }
  self->state = CLOSED;
  Py_RETURN_NONE;
}

static PyObject* validator_enter(validator_object* self, PyObject* unused) {
  (void)unused;
  if (!usable(self, "__enter__")) return NULL;
  Py_INCREF(self);
  return (PyObject*)self;
}

static PyObject* validator_exit(validator_object* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)args;
  (void)nargs;
  return validator_close(self, NULL);
}

static PyObject* get_position(validator_object* self, void* closure) {
  (void)closure;
  return PyLong_FromSize_t(self->position);
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
                              self->position, self->percent ? ", percent-encoded" : "",
                              self->result != NULL ? ", with a finding" : "");
}

static PyMethodDef validator_methods[] = {
    {"feed", (PyCFunction)(void (*)(void))validator_feed, METH_FASTCALL,
     "feed(data, /)\n--\n\n"
     "Check the next chunk (any bytes-like object) and return the first finding so\n"
     "far: a Result that is true while the input is clean. A character cut between\n"
     "chunks is judged when its last byte arrives; 'incomplete' only by finish().\n"
     "Raises StreamError after finish() or close()."},
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
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ug_validator_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "utf8guard.Validator",
    .tp_basicsize = sizeof(validator_object),
    .tp_dealloc = (destructor)validator_dealloc,
    .tp_repr = (reprfunc)validator_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "Validator(*, profile=None, deny=None, policy=None, percent=False)\n--\n\n"
        "Validate input that arrives in chunks, in constant memory: feed() each\n"
        "chunk, then finish(). Offsets in its Results count from the start of the\n"
        "whole input. With percent=True each chunk is percent-encoded text (an\n"
        "escape may be cut between chunks) and offsets count encoded bytes.\n"
        "Usable as a context manager, which closes it.",
    .tp_methods = validator_methods,
    .tp_getset = validator_getset,
    .tp_init = (initproc)validator_init,
    .tp_new = PyType_GenericNew,
};
