/* stream.c - NativeStream, the streaming check of the addon: a body (or any
 * stream) under one rule, through the request rule core's ug_stream
 * (nginx/src/request_check.h), which keeps the first finding with the bytes
 * its message shows, in constant memory and for any chunking; or a
 * multipart/form-data body part by part, through the core's ug_multipart
 * (nginx/src/multipart.h). */
#include <stdlib.h>
#include <string.h>

#include "addon.h"
#include "multipart.h"
#include "request_check.h"

typedef struct native_stream {
  ug_stream stream;
  ug_rule rule;
  ug_form form;
  bool labelled;       /* findings carry the core's text ("body: ...") */
  ug_multipart* parts; /* allocated for the first multipart body */
  bool multipart;      /* this body is read by |parts| */
} native_stream;

/* A form's number is the core's encoding of the same name. */
_Static_assert((int)UG_FORM_RAW == (int)UG_ENCODING_RAW &&
                   (int)UG_FORM_PERCENT == (int)UG_ENCODING_PERCENT &&
                   (int)UG_FORM_JSON == (int)UG_ENCODING_JSON,
               "ug_form and ug_encoding agree");

static bool get_form(napi_env env, napi_value v, ug_form* out) {
  uint32_t n = 0;
  if (napi_get_value_uint32(env, v, &n) != napi_ok || n > UG_FORM_JSON) {
    ug_throw_type(env, "ERR_INVALID_ARG_VALUE", "Expected a form");
    return false;
  }
  *out = (ug_form)n;
  return true;
}

/* Starts a stream under |policy| in |form|. */
static void start(native_stream* s, utf8guard_policy policy, ug_form form) {
  s->multipart = false;
  s->form = form;
  s->rule.on = true;
  s->rule.policy = policy;
  s->rule.encoding = (ug_encoding)form;
  ug_stream_init(&s->stream, &s->rule);
}

static void finalize(napi_env env, void* data, void* hint) {
  (void)env;
  (void)hint;
  free(((native_stream*)data)->parts);
  free(data);
}

static native_stream* self(napi_env env, napi_callback_info info, size_t want, napi_value* argv) {
  size_t argc = want;
  napi_value this_arg;
  void* p = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, &this_arg, NULL) != napi_ok ||
      napi_unwrap(env, this_arg, &p) != napi_ok || p == NULL) {
    ug_throw_type(env, "ERR_INVALID_THIS", "Not a NativeStream");
    return NULL;
  }
  return p;
}

/* new NativeStream(bits, form, labelled): form is a ug_form. */
static napi_value construct(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], this_arg;
  if (napi_get_cb_info(env, info, &argc, argv, &this_arg, NULL) != napi_ok) return NULL;
  utf8guard_policy policy;
  bool labelled = false;
  ug_form form;
  if (!ug_policy(env, argv[0], &policy) || !get_form(env, argv[1], &form)) return NULL;
  napi_get_value_bool(env, argv[2], &labelled);
  native_stream* s = calloc(1, sizeof *s);
  if (s == NULL) {
    napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "out of memory");
    return NULL;
  }
  s->labelled = labelled;
  start(s, policy, form);
  if (napi_wrap(env, this_arg, s, finalize, NULL, NULL) != napi_ok) {
    free(s);
    return NULL;
  }
  return this_arg;
}

/* The finding the stream just handed out, from the bytes it kept; a
 * multipart body's, from the core's text. */
static napi_value handed_out(napi_env env, native_stream* s, const ug_finding* f) {
  if (s->multipart) return ug_text_finding(env, "multipart", f->text, f->len);
  const ug_stream* st = &s->stream;
  size_t len = 0;
  size_t base = 0;
  const char* bytes = utf8guard_finding_window_bytes(&st->window, &len, &base);
  napi_value obj = ug_make_finding(env, s->form, bytes, len, base, st->found);
  if (obj != NULL && s->labelled) {
    napi_value text;
    napi_create_string_utf8(env, f->text, f->len, &text);
    napi_set_named_property(env, obj, "text", text);
  }
  return obj;
}

/* Whether a finding is known and waits for the bytes its message shows. */
static bool waiting(const native_stream* s) {
  if (s->multipart) return s->parts->body_on && s->parts->body.state == UG_STREAM_PENDING;
  return s->stream.state == UG_STREAM_PENDING;
}

/* Feeds a chunk. Returns false when it threw; else *found is the finding
 * (NULL when none was handed out, and also when making it failed). */
static bool feed_chunk(napi_env env, napi_callback_info info, native_stream** out,
                       napi_value* found) {
  napi_value argv[1];
  native_stream* s = self(env, info, 1, argv);
  const char* data;
  size_t len;
  *found = NULL;
  *out = s;
  if (s == NULL || !ug_bytes(env, argv[0], "chunk", &data, &len)) return false;
  ug_finding f;
  if (s->multipart ? ug_multipart_feed(s->parts, data, len, &f)
                   : ug_stream_feed(&s->stream, data, len, &f)) {
    *found = handed_out(env, s, &f);
    return *found != NULL;
  }
  return true;
}

/* feed(chunk): the first finding once the bytes its message shows have
 * arrived (once per stream), else null. */
static napi_value feed(napi_env env, napi_callback_info info) {
  native_stream* s;
  napi_value found;
  if (!feed_chunk(env, info, &s, &found)) return NULL;
  return found != NULL ? found : ug_null(env);
}

/* feedBody(chunk): feed and pending in one call, for the middleware's body
 * check: the finding, true while one waits for its bytes, else null. */
static napi_value feed_body(napi_env env, napi_callback_info info) {
  native_stream* s;
  napi_value found;
  if (!feed_chunk(env, info, &s, &found)) return NULL;
  if (found != NULL) return found;
  return waiting(s) ? ug_boolean(env, true) : ug_null(env);
}

/* finish(): the finding not yet handed out, "incomplete" included, or null. */
static napi_value finish(napi_env env, napi_callback_info info) {
  native_stream* s = self(env, info, 0, NULL);
  if (s == NULL) return NULL;
  ug_finding f;
  if (s->multipart) {
    if (ug_multipart_finish(s->parts, &f)) return handed_out(env, s, &f);
  } else if (ug_stream_finish(&s->stream, &f)) {
    return handed_out(env, s, &f);
  }
  return ug_null(env);
}

/* reset(): a new stream under the same rule. */
static napi_value reset(napi_env env, napi_callback_info info) {
  native_stream* s = self(env, info, 0, NULL);
  if (s == NULL) return NULL;
  start(s, s->rule.policy, s->form);
  return NULL;
}

/* restart(bits, form): a new stream under another rule (an object
 * reused for the next request's body). */
static napi_value restart(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  native_stream* s = self(env, info, 2, argv);
  utf8guard_policy policy;
  ug_form form;
  if (s == NULL || !ug_policy(env, argv[0], &policy) || !get_form(env, argv[1], &form)) return NULL;
  start(s, policy, form);
  return NULL;
}

/* restartMultipart(rules, boundary): a multipart/form-data body, its part
 * headers under the headers rule, text fields under the form rule (raw),
 * files under the file rule, as the nginx module reads one. */
static napi_value restart_multipart(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  native_stream* s = self(env, info, 2, argv);
  if (s == NULL) return NULL;
  const ug_rule* rules = ug_request_rules(env, argv[0]);
  if (rules == NULL) return NULL;
  char boundary[UG_MULTIPART_BOUNDARY_MAX + 2];
  size_t n = 0;
  if (napi_get_value_string_latin1(env, argv[1], boundary, sizeof boundary, &n) != napi_ok) {
    ug_throw_type(env, "ERR_INVALID_ARG_TYPE", "Expected a boundary");
    return NULL;
  }
  if (s->parts == NULL && (s->parts = malloc(sizeof *s->parts)) == NULL) {
    napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "out of memory");
    return NULL;
  }
  s->multipart = true;
  ug_multipart_init(s->parts, n ? boundary : NULL, n, &rules[UG_SLOT_HEADERS],
                    &rules[UG_SLOT_BODY_FORM], &rules[UG_SLOT_BODY_FILE]);
  return NULL;
}

/* pending: a finding is known, and waits for the bytes its message shows. */
static napi_value pending(napi_env env, napi_callback_info info) {
  native_stream* s = self(env, info, 0, NULL);
  if (s == NULL) return NULL;
  return ug_boolean(env, waiting(s));
}

/* position: the bytes fed so far. */
static napi_value position(napi_env env, napi_callback_info info) {
  native_stream* s = self(env, info, 0, NULL);
  if (s == NULL) return NULL;
  napi_value v;
  napi_create_double(env, (double)s->stream.fed, &v);
  return v;
}

napi_status ug_init_stream(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"feed", NULL, feed, NULL, NULL, NULL, napi_default, NULL},
      {"feedBody", NULL, feed_body, NULL, NULL, NULL, napi_default, NULL},
      {"finish", NULL, finish, NULL, NULL, NULL, napi_default, NULL},
      {"reset", NULL, reset, NULL, NULL, NULL, napi_default, NULL},
      {"restart", NULL, restart, NULL, NULL, NULL, napi_default, NULL},
      {"restartMultipart", NULL, restart_multipart, NULL, NULL, NULL, napi_default, NULL},
      {"pending", NULL, NULL, pending, NULL, NULL, napi_default, NULL},
      {"position", NULL, NULL, position, NULL, NULL, napi_default, NULL},
  };
  napi_value cls;
  napi_status st = napi_define_class(env, "NativeStream", NAPI_AUTO_LENGTH, construct, NULL,
                                     sizeof props / sizeof props[0], props, &cls);
  if (st != napi_ok) return st;
  return napi_set_named_property(env, exports, "NativeStream", cls);
}
