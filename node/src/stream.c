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

/* JSON text as it streams. The core's ug_stream reads raw and
 * percent-encoded bytes; this keeps, the same way, the first finding of
 * JSON text with the bytes its message shows (UTF8GUARD_DESCRIBE_JSON_BEHIND
 * before it, UTF8GUARD_DESCRIBE_JSON_AHEAD from it). A finding lies at most
 * 17 bytes before the chunk that reports it (an escape held, and a high
 * surrogate escape waiting for its pair): the history covers it. */
enum { JSON_CLEAN = 0, JSON_PENDING = 1, JSON_FOUND = 2 };
typedef struct json_stream {
  utf8guard_json_stream check;
  size_t fed;
  unsigned char history[32]; /* the last bytes fed */
  size_t history_len;
  utf8guard_encoded_result found;
  unsigned char window[UTF8GUARD_DESCRIBE_JSON_BEHIND + UTF8GUARD_DESCRIBE_JSON_AHEAD];
  size_t window_base; /* absolute offset of window[0] */
  size_t window_len;
  int state;
} json_stream;

static void json_init(json_stream* j, utf8guard_policy policy) {
  memset(j, 0, sizeof *j);
  utf8guard_json_validator_init(&j->check, policy);
}

/* Appends the bytes of data[0..len) (absolute offsets from |at|) that fall in
 * the window. */
static void json_window_add(json_stream* j, const unsigned char* data, size_t len, size_t at) {
  size_t end = j->window_base + sizeof j->window;
  size_t from = j->window_base + j->window_len;
  if (at + len <= from || from >= end) return;
  size_t skip = from > at ? from - at : 0;
  size_t take = len - skip;
  if (take > end - from) take = end - from;
  memcpy(j->window + j->window_len, data + skip, take);
  j->window_len += take;
}

static void json_history_add(json_stream* j, const unsigned char* data, size_t len) {
  size_t cap = sizeof j->history;
  if (len >= cap) {
    memcpy(j->history, data + len - cap, cap);
    j->history_len = cap;
    return;
  }
  size_t keep = j->history_len + len > cap ? cap - len : j->history_len;
  memmove(j->history, j->history + j->history_len - keep, keep);
  memcpy(j->history + keep, data, len);
  j->history_len = keep + len;
}

static void json_found(json_stream* j, utf8guard_encoded_result r, const unsigned char* data,
                       size_t len) {
  j->found = r;
  j->state = JSON_PENDING;
  size_t offset = r.error.offset;
  j->window_base =
      offset > UTF8GUARD_DESCRIBE_JSON_BEHIND ? offset - UTF8GUARD_DESCRIBE_JSON_BEHIND : 0;
  j->window_len = 0;
  if (j->window_base < j->fed - j->history_len) j->window_base = j->fed - j->history_len;
  json_window_add(j, j->history, j->history_len, j->fed - j->history_len);
  json_window_add(j, data, len, j->fed);
}

static bool json_ready(json_stream* j) {
  if (j->state != JSON_PENDING) return false;
  if (j->window_base + j->window_len < j->found.error.offset + UTF8GUARD_DESCRIBE_JSON_AHEAD &&
      j->window_len < sizeof j->window)
    return false;
  j->state = JSON_FOUND;
  return true;
}

/* Whether the first finding is ready after this chunk (once per stream). */
static bool json_feed(json_stream* j, const char* data, size_t len) {
  const unsigned char* bytes = (const unsigned char*)data;
  if (j->state == JSON_FOUND || len == 0) return false;
  if (j->state == JSON_PENDING) {
    json_window_add(j, bytes, len, j->fed);
  } else {
    utf8guard_encoded_result r = utf8guard_json_validator_feed(&j->check, data, len);
    if (r.error.kind != UTF8GUARD_ERROR_NONE)
      json_found(j, r, bytes, len);
    else
      json_history_add(j, bytes, len);
  }
  j->fed += len;
  return json_ready(j);
}

static bool json_finish(json_stream* j) {
  if (j->state == JSON_CLEAN) {
    utf8guard_encoded_result r = utf8guard_json_validator_finish(&j->check);
    if (r.error.kind == UTF8GUARD_ERROR_NONE) return false;
    json_found(j, r, NULL, 0);
  }
  if (j->state != JSON_PENDING) return false;
  j->state = JSON_FOUND;
  return true;
}

typedef struct native_stream {
  ug_stream stream;
  ug_rule rule;
  json_stream* json; /* allocated for the first JSON stream */
  ug_form form;
  bool labelled;       /* findings carry the core's text ("body: ...") */
  ug_multipart* parts; /* allocated for the first multipart body */
  bool multipart;      /* this body is read by |parts| */
} native_stream;

/* A form's number is the core's encoding of the same name (JSON text has
 * none there yet). */
_Static_assert((int)UG_FORM_RAW == (int)UG_ENCODING_RAW &&
                   (int)UG_FORM_PERCENT == (int)UG_ENCODING_PERCENT,
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
static bool start(napi_env env, native_stream* s, utf8guard_policy policy, ug_form form) {
  s->multipart = false;
  s->form = form;
  s->rule.on = true;
  s->rule.policy = policy;
  s->rule.encoding = form == UG_FORM_PERCENT ? UG_ENCODING_PERCENT : UG_ENCODING_RAW;
  if (form == UG_FORM_JSON) {
    if (s->json == NULL && (s->json = malloc(sizeof *s->json)) == NULL) {
      napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "out of memory");
      return false;
    }
    json_init(s->json, policy);
  } else {
    ug_stream_init(&s->stream, &s->rule);
  }
  return true;
}

static void finalize(napi_env env, void* data, void* hint) {
  (void)env;
  (void)hint;
  free(((native_stream*)data)->parts);
  free(((native_stream*)data)->json);
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
  if (!start(env, s, policy, form) ||
      napi_wrap(env, this_arg, s, finalize, NULL, NULL) != napi_ok) {
    free(s->json);
    free(s);
    return NULL;
  }
  return this_arg;
}

/* The finding the stream just handed out, from the bytes it kept; a
 * multipart body's, from the core's text. */
static napi_value handed_out(napi_env env, native_stream* s, const ug_finding* f) {
  if (s->multipart) return ug_text_finding(env, "multipart", f->text, f->len);
  napi_value obj;
  if (s->form == UG_FORM_JSON) {
    const json_stream* j = s->json;
    obj = ug_make_finding(env, UG_FORM_JSON, (const char*)j->window, j->window_len, j->window_base,
                          j->found);
  } else {
    const ug_stream* st = &s->stream;
    obj = ug_make_finding(env, s->form, (const char*)st->window, st->window_len, st->window_base,
                          st->found);
  }
  if (obj == NULL || !s->labelled) return obj;
  napi_value text;
  if (f != NULL) {
    napi_create_string_utf8(env, f->text, f->len, &text);
  } else {
    /* The core's words for a body's finding: "body: MESSAGE". */
    napi_value message;
    napi_get_named_property(env, obj, "message", &message);
    char buf[UTF8GUARD_DESCRIBE_MAX + 8] = "body: ";
    size_t n = 0;
    napi_get_value_string_utf8(env, message, buf + 6, sizeof buf - 6, &n);
    napi_create_string_utf8(env, buf, n + 6, &text);
  }
  napi_set_named_property(env, obj, "text", text);
  return obj;
}

static napi_value null_value(napi_env env) {
  napi_value v;
  napi_get_null(env, &v);
  return v;
}

/* feed(chunk): the first finding once the bytes its message shows have
 * arrived (once per stream), else null. */
static napi_value feed(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  native_stream* s = self(env, info, 1, argv);
  const char* data;
  size_t len;
  if (s == NULL || !ug_bytes(env, argv[0], "chunk", &data, &len)) return NULL;
  ug_finding f;
  if (s->multipart) {
    if (ug_multipart_feed(s->parts, data, len, &f)) return handed_out(env, s, &f);
  } else if (s->form == UG_FORM_JSON) {
    if (json_feed(s->json, data, len)) return handed_out(env, s, NULL);
  } else if (ug_stream_feed(&s->stream, data, len, &f)) {
    return handed_out(env, s, &f);
  }
  return null_value(env);
}

/* finish(): the finding not yet handed out, "incomplete" included, or null. */
static napi_value finish(napi_env env, napi_callback_info info) {
  native_stream* s = self(env, info, 0, NULL);
  if (s == NULL) return NULL;
  ug_finding f;
  if (s->multipart) {
    if (ug_multipart_finish(s->parts, &f)) return handed_out(env, s, &f);
  } else if (s->form == UG_FORM_JSON) {
    if (json_finish(s->json)) return handed_out(env, s, NULL);
  } else if (ug_stream_finish(&s->stream, &f)) {
    return handed_out(env, s, &f);
  }
  return null_value(env);
}

/* reset(): a new stream under the same rule. */
static napi_value reset(napi_env env, napi_callback_info info) {
  native_stream* s = self(env, info, 0, NULL);
  if (s == NULL) return NULL;
  start(env, s, s->rule.policy, s->form);
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
  start(env, s, policy, form);
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
  bool waiting;
  if (s->multipart)
    waiting = s->parts->body_on && s->parts->body.state == UG_STREAM_PENDING;
  else if (s->form == UG_FORM_JSON)
    waiting = s->json->state == JSON_PENDING;
  else
    waiting = s->stream.state == UG_STREAM_PENDING;
  napi_value v;
  napi_get_boolean(env, waiting, &v);
  return v;
}

/* position: the bytes fed so far. */
static napi_value position(napi_env env, napi_callback_info info) {
  native_stream* s = self(env, info, 0, NULL);
  if (s == NULL) return NULL;
  napi_value v;
  napi_create_double(env, (double)(s->form == UG_FORM_JSON ? s->json->fed : s->stream.fed), &v);
  return v;
}

napi_status ug_init_stream(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"feed", NULL, feed, NULL, NULL, NULL, napi_default, NULL},
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
