/* request.c - the request checks of the middleware, through the request
 * rule core that the nginx module and the Python package share
 * (nginx/src/request_check.h): which part gets which rule, what a
 * Content-Type selects, the text of a finding. Node hands the target and
 * the header fields over as latin1 strings, one character per byte, so
 * their bytes are read back as they came off the wire. */
#include <stdlib.h>
#include <string.h>

#include "addon.h"
#include "request_check.h"

typedef struct rules rules;
static rules* get_rules(napi_env env, napi_value v);

struct rules {
  ug_rule slot[UG_SLOT_COUNT];
  bool text_declared; /* a text body's declared charset other than UTF-8 takes "other" */
  bool coding_pass;   /* a coded body (Content-Encoding) is let on unchecked */
};

static void finalize(napi_env env, void* data, void* hint) {
  (void)env;
  (void)hint;
  free(data);
}

/* A string's bytes (latin1), in |stack| when they fit, else in a block the
 * caller frees (*heap). */
typedef struct latin1 {
  char stack[4096];
  char* heap;
  const char* data;
  size_t len;
} latin1;

static bool read_latin1(napi_env env, napi_value v, latin1* out) {
  out->heap = NULL;
  size_t n = 0;
  if (napi_get_value_string_latin1(env, v, out->stack, sizeof out->stack, &n) != napi_ok) {
    ug_throw_type(env, "ERR_INVALID_ARG_TYPE", "Expected a string");
    return false;
  }
  out->data = out->stack;
  out->len = n;
  if (n + 1 < sizeof out->stack) return true;
  /* It may have been cut: ask its length, then read it whole. */
  napi_get_value_string_latin1(env, v, NULL, 0, &n);
  out->heap = malloc(n + 1);
  if (out->heap == NULL) {
    napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "out of memory");
    return false;
  }
  napi_get_value_string_latin1(env, v, out->heap, n + 1, &n);
  out->data = out->heap;
  out->len = n;
  return true;
}

/* makeRules(specs, textDeclared, codingPass): specs[slot] is undefined or
 * null (the slot's default), or a rule's text ("off", or a policy:
 * "field,-newline"). Returns the rules (an external), or {slot, offset,
 * length} for the first text that is no rule. */
static napi_value make_rules(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  rules* r = calloc(1, sizeof *r);
  if (r == NULL) {
    napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "out of memory");
    return NULL;
  }
  napi_get_value_bool(env, argv[1], &r->text_declared);
  napi_get_value_bool(env, argv[2], &r->coding_pass);
  for (unsigned i = 0; i < UG_SLOT_COUNT; i++) {
    napi_value spec;
    napi_valuetype t = napi_undefined;
    if (napi_get_element(env, argv[0], i, &spec) == napi_ok) napi_typeof(env, spec, &t);
    if (t == napi_undefined || t == napi_null) {
      r->slot[i] = ug_rule_default((ug_slot)i);
      continue;
    }
    char text[256];
    size_t n = 0, at = 0, width = 0;
    if (t != napi_string ||
        napi_get_value_string_utf8(env, spec, text, sizeof text, &n) != napi_ok ||
        n + 1 >= sizeof text || !ug_rule_parse((ug_slot)i, text, n, &r->slot[i], &at, &width)) {
      free(r);
      napi_value bad, v;
      napi_create_object(env, &bad);
      napi_create_uint32(env, i, &v);
      napi_set_named_property(env, bad, "slot", v);
      napi_create_double(env, (double)at, &v);
      napi_set_named_property(env, bad, "offset", v);
      napi_create_double(env, (double)width, &v);
      napi_set_named_property(env, bad, "length", v);
      return bad;
    }
  }
  napi_value ext;
  if (napi_create_external(env, r, finalize, NULL, &ext) != napi_ok) {
    free(r);
    return NULL;
  }
  return ext;
}

const ug_rule* ug_request_rules(napi_env env, napi_value value) {
  const rules* r = get_rules(env, value);
  return r == NULL ? NULL : r->slot;
}

static rules* get_rules(napi_env env, napi_value v) {
  void* p = NULL;
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_external ||
      napi_get_value_external(env, v, &p) != napi_ok || p == NULL) {
    ug_throw_type(env, "ERR_INVALID_ARG_TYPE", "Expected the rules of makeRules");
    return NULL;
  }
  return p;
}

/* The finding of one part that is not clean: the core's text, and the same
 * result as a finding object with the part's name. */
static napi_value part_finding(napi_env env, const ug_rule* rule, const char* part,
                               const char* label, const char* data, size_t len) {
  ug_finding f;
  if (!ug_check_part(rule, label, data, len, &f)) return NULL;
  utf8guard_encoded_result r;
  memset(&r, 0, sizeof r);
  if (rule->encoding == UG_ENCODING_PERCENT)
    r = utf8guard_percent_validate(data, len, rule->policy);
  else
    r.error = utf8guard_validate_policy(data, len, rule->policy);
  napi_value obj = ug_make_finding(
      env, rule->encoding == UG_ENCODING_PERCENT ? UG_FORM_PERCENT : UG_FORM_RAW, data, len, 0, r);
  napi_value v;
  napi_create_string_utf8(env, part, NAPI_AUTO_LENGTH, &v);
  napi_set_named_property(env, obj, "part", v);
  napi_create_string_utf8(env, f.text, f.len, &v);
  napi_set_named_property(env, obj, "text", v);
  if (strncmp(label, "header ", 7) == 0) {
    napi_create_string_utf8(env, label + 7, NAPI_AUTO_LENGTH, &v);
    napi_set_named_property(env, obj, "header", v);
  }
  return obj;
}

/* A finding that is no part's bytes but the request's shape (a malformed or
 * repeated Content-Type, a coding the guard cannot read, a header name that
 * is no token), of kind "request_shape", in the part "header". */
static napi_value shape_finding(napi_env env, const ug_finding* f) {
  napi_value obj = ug_text_finding(env, "request_shape", f->text, f->len), v;
  if (obj == NULL) return NULL;
  napi_create_string_utf8(env, "header", NAPI_AUTO_LENGTH, &v);
  napi_set_named_property(env, obj, "part", v);
  const char* sep = strstr(f->text, ": ");
  if (sep != NULL && sep - f->text > 7 && strncmp(f->text, "header ", 7) == 0) {
    napi_create_string_utf8(env, f->text + 7, (size_t)(sep - f->text) - 7, &v);
    napi_set_named_property(env, obj, "header", v);
  }
  return obj;
}

/* Checks one part; *found is set to the finding when it is not clean. */
static bool check(napi_env env, const ug_rule* rule, const char* part, const char* label,
                  const char* data, size_t len, napi_value* found) {
  if (ug_part_clean(rule, data, len)) return false;
  *found = part_finding(env, rule, part, label, data, len);
  return *found != NULL;
}

static bool named(const latin1* s, const char* lit) {
  size_t n = strlen(lit);
  if (s->len != n) return false;
  for (size_t i = 0; i < n; i++) {
    char c = s->data[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
    if (c != lit[i]) return false;
  }
  return true;
}

/* What the headers say about reading the body, gathered as they go by. */
typedef struct body_headers {
  bool body;  /* a Content-Length other than 0, or a Transfer-Encoding (RFC 9112 6.3) */
  char* type; /* the first Content-Type's value (malloc'd), or NULL */
  size_t type_len;
  size_t types; /* Content-Type headers */
  bool coded;   /* a Content-Encoding other than identity */
  bool coding_found;
  ug_finding coding; /* the first coding the guard cannot read */
} body_headers;

static bool note_body_header(napi_env env, const rules* r, const latin1* name, const latin1* value,
                             body_headers* b) {
  if (named(name, "content-length")) {
    if (!(value->len == 1 && value->data[0] == '0')) b->body = true;
  } else if (named(name, "transfer-encoding")) {
    b->body = true;
  } else if (named(name, "content-type")) {
    if (b->types++ == 0) {
      b->type = malloc(value->len + 1);
      if (b->type == NULL) {
        napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "out of memory");
        return false;
      }
      memcpy(b->type, value->data, value->len);
      b->type_len = value->len;
    }
  } else if (named(name, "content-encoding") && !ug_coding_readable(value->data, value->len)) {
    b->coded = true;
    if (!r->coding_pass && !b->coding_found)
      b->coding_found = ug_check_coding(value->data, value->len, &b->coding);
  }
  return true;
}

/* The body's rule as one number: policy bits, the encoding << 16, and 1 << 20
 * (0: no check); or, for multipart/form-data, its boundary as a string. */

/* The body's part, as the nginx module decides it before the body's first
 * bytes: one Content-Type that parses (ug_check_media), no coding the guard
 * cannot read (ug_check_coding, unless coding_pass), then the rule its media
 * type selects (ug_media_slot), or multipart/form-data's boundary.
 * Returns the rule (0: not checked; a coded body is not, its bytes are not
 * the text), or a finding of the request's shape carrying it as bodyRule. */
static napi_value body_decision(napi_env env, const rules* r, body_headers* b) {
  ug_media media;
  ug_finding f;
  bool shape = false;
  ug_media_parse(b->type, b->type_len, &media);
  if (b->coding_found) {
    f = b->coding;
    shape = true;
  } else {
    shape = ug_check_media(b->type, b->type_len, &media, b->types, &f);
  }
  ug_slot slot = ug_media_slot(&media, r->text_declared);
  napi_value number;
  if (slot == UG_SLOT_COUNT && !b->coded) {
    /* multipart/form-data: read part by part (stream.c); the answer is its
     * boundary, unquoted. */
    napi_create_string_latin1(env, media.boundary, media.boundary_len, &number);
  } else {
    const ug_rule* rule = &r->slot[slot == UG_SLOT_COUNT ? UG_SLOT_BODY_OTHER : slot];
    uint32_t code = 0;
    if (rule->on && !b->coded) code = rule->policy | (uint32_t)rule->encoding << 16 | 1u << 20;
    napi_create_uint32(env, code, &number);
  }
  if (!shape) return number;
  napi_value obj = shape_finding(env, &f);
  napi_set_named_property(env, obj, "bodyRule", number);
  return obj;
}

/* checkRequest's work: argv[0..2] are rules, target and headDone, the
 * rest the header names and values. */
static napi_value check_head(napi_env env, const napi_value* argv, size_t argc) {
  rules* r = get_rules(env, argv[0]);
  if (r == NULL) return NULL;
  bool head_done = false;
  napi_get_value_bool(env, argv[2], &head_done);
  napi_value found = NULL;
  const ug_rule* target = &r->slot[UG_SLOT_TARGET];
  if (target->on && !head_done) {
    latin1 t;
    if (!read_latin1(env, argv[1], &t)) return NULL;
    const char* q = memchr(t.data, '?', t.len);
    size_t path_len = q ? (size_t)(q - t.data) : t.len;
    bool hit = check(env, target, "path", "path", t.data, path_len, &found) ||
               (q && check(env, target, "query", "query", q + 1, t.len - path_len - 1, &found));
    free(t.heap);
    if (hit) return found;
  }
  const ug_rule* headers = &r->slot[UG_SLOT_HEADERS];
  body_headers b;
  memset(&b, 0, sizeof b);
  for (size_t i = 3; i + 1 < argc; i += 2) {
    latin1 name, value;
    if (!read_latin1(env, argv[i], &name)) {
      free(b.type);
      return NULL;
    }
    if (!read_latin1(env, argv[i + 1], &value)) {
      free(name.heap);
      free(b.type);
      return NULL;
    }
    bool hit = false, ok = true;
    ug_finding f;
    if (head_done) {
      /* the head was checked */
    } else if (ug_check_header_name(name.data, name.len, &f)) {
      found = shape_finding(env, &f);
      hit = true;
    } else if (!ug_part_clean(headers, name.data, name.len) ||
               !ug_part_clean(headers, value.data, value.len)) {
      char label[UG_FINDING_MAX];
      ug_header_label(name.data, name.len, label, sizeof label);
      hit = check(env, headers, "header", label, name.data, name.len, &found) ||
            check(env, headers, "header", label, value.data, value.len, &found);
    }
    if (!hit) ok = note_body_header(env, r, &name, &value, &b);
    free(name.heap);
    free(value.heap);
    if (hit || !ok) {
      free(b.type);
      return ok ? found : NULL;
    }
  }
  napi_value out;
  if (b.body)
    out = body_decision(env, r, &b);
  else
    napi_create_uint32(env, 0, &out);
  free(b.type);
  return out;
}

/* checkRequest(rules, target, headDone, ...rawHeaders): the first finding
 * of the path, the query (after the first '?'), then each header name (a
 * token, then its rule) and value, in order; then, for a request with a
 * body, the body's rule (body_decision). rawHeaders is Node's flat [name,
 * value, ...] list, spread into the arguments: one N-API call reads them
 * all. headDone skips the head's checks (detect-only mode, after a finding
 * there). Returns a finding, or the body's rule (0: no check), in one pass
 * over the headers. */
static napi_value check_request(napi_env env, napi_callback_info info) {
  napi_value stack[64];
  napi_value* argv = stack;
  size_t argc = sizeof stack / sizeof stack[0];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc > sizeof stack / sizeof stack[0]) {
    argv = malloc(argc * sizeof *argv);
    if (argv == NULL) {
      napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "out of memory");
      return NULL;
    }
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) {
      free(argv);
      return NULL;
    }
  }
  /* Missing arguments read as undefined. */
  napi_value out = check_head(env, argv, argc);
  if (argv != stack) free(argv);
  return out;
}

napi_status ug_init_request(napi_env env, napi_value exports) {
  napi_status st;
  if ((st = ug_export(env, exports, "makeRules", make_rules, NULL)) != napi_ok) return st;
  return ug_export(env, exports, "checkRequest", check_request, NULL);
}
