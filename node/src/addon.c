/* addon.c - the Node-API module utf8guard.node: the one-shot calls of the
 * C API over byte inputs viewed in place. index.js gives them their
 * JavaScript form (policies by name, defaults, errors); every answer is
 * computed here by the library. */
#include <stdlib.h>
#include <string.h>

#include "addon.h"

/* Reads up to |want| arguments; a missing one is undefined. */
static bool args(napi_env env, napi_callback_info info, size_t want, napi_value* argv) {
  size_t argc = want;
  return napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok;
}

/* isValid(input): the fastest path, no policy. */
static napi_value is_valid(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  const char* data;
  size_t len;
  if (!args(env, info, 1, argv) || !ug_bytes(env, argv[0], "input", &data, &len)) return NULL;
  return ug_boolean(env, utf8guard_is_valid(data, len));
}

/* The one-shot calls of one form over (input, policy bits): the C API's,
 * as one signature. |sanitize| writes at most |cap| bytes to |out| and the
 * whole output's size to |*written|; the percent form has none. */
typedef struct form_calls {
  ug_form form;
  bool (*is_valid)(const char* data, size_t len, utf8guard_policy policy);
  utf8guard_encoded_result (*validate)(const char* data, size_t len, utf8guard_policy policy);
  utf8guard_status (*sanitize)(const char* data, size_t len, utf8guard_policy policy, char* out,
                               size_t cap, size_t* written);
} form_calls;

static utf8guard_encoded_result raw_validate(const char* data, size_t len,
                                             utf8guard_policy policy) {
  utf8guard_encoded_result r;
  memset(&r, 0, sizeof r);
  r.error = utf8guard_validate_policy(data, len, policy);
  return r;
}

static utf8guard_status raw_sanitize(const char* data, size_t len, utf8guard_policy policy,
                                     char* out, size_t cap, size_t* written) {
  size_t replaced = 0;
  return utf8guard_sanitize_policy(data, len, out, cap, written, &replaced, policy);
}

static const form_calls raw_calls = {UG_FORM_RAW, utf8guard_is_valid_policy, raw_validate,
                                     raw_sanitize};
static const form_calls percent_calls = {UG_FORM_PERCENT, utf8guard_percent_is_valid,
                                         utf8guard_percent_validate, NULL};
static const form_calls json_calls = {UG_FORM_JSON, utf8guard_json_is_valid,
                                      utf8guard_json_validate, utf8guard_json_sanitize};

/* The arguments (input, bits) of a one-shot call, and the calls of the form
 * its export was made with. */
typedef struct one_shot {
  const char* data;
  size_t len;
  utf8guard_policy policy;
  const form_calls* calls;
} one_shot;

static bool read_one_shot(napi_env env, napi_callback_info info, one_shot* c) {
  napi_value argv[2];
  size_t argc = 2;
  void* calls = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &calls) != napi_ok ||
      !ug_bytes(env, argv[0], "input", &c->data, &c->len) || !ug_policy(env, argv[1], &c->policy))
    return false;
  c->calls = calls;
  return true;
}

/* isValidPolicy, isValidPercent, isValidJson(input, bits) */
static napi_value is_valid_in(napi_env env, napi_callback_info info) {
  one_shot c;
  if (!read_one_shot(env, info, &c)) return NULL;
  return ug_boolean(env, c.calls->is_valid(c.data, c.len, c.policy));
}

/* validate, validatePercent, validateJson(input, bits): null or the
 * finding, in encoded offsets. */
static napi_value validate_in(napi_env env, napi_callback_info info) {
  one_shot c;
  if (!read_one_shot(env, info, &c)) return NULL;
  utf8guard_encoded_result r = c.calls->validate(c.data, c.len, c.policy);
  if (r.error.kind == UTF8GUARD_ERROR_NONE) return ug_null(env);
  return ug_make_finding(env, c.calls->form, c.data, c.len, 0, r);
}

static void free_bytes(napi_env env, void* data, void* hint) {
  (void)env;
  (void)hint;
  free(data);
}

/* malloc(len), at least one byte; throws when there is no memory. */
static char* alloc_bytes(napi_env env, size_t len) {
  char* bytes = malloc(len ? len : 1);
  if (bytes == NULL) napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "out of memory");
  return bytes;
}

/* Hands |bytes| (malloc'd, |len| long) to a new Buffer. */
static napi_value adopt(napi_env env, char* bytes, size_t len) {
  napi_value out;
  if (napi_create_external_buffer(env, len, bytes, free_bytes, NULL, &out) != napi_ok) {
    free(bytes);
    return NULL;
  }
  return out;
}

/* sanitize, sanitizeJson(input, bits): a new Buffer, each finding replaced
 * (raw: U+FFFD; in JSON text, an escape: \ufffd). */
static napi_value sanitize_in(napi_env env, napi_callback_info info) {
  one_shot c;
  if (!read_one_shot(env, info, &c)) return NULL;
  napi_value out;
  void* copy;
  if (c.calls->is_valid(c.data, c.len, c.policy)) {
    if (napi_create_buffer_copy(env, c.len, c.data, &copy, &out) != napi_ok) return NULL;
    return out;
  }
  size_t written = 0;
  /* The exact size first (one pass with no room), then the output. */
  utf8guard_status st = c.calls->sanitize(c.data, c.len, c.policy, NULL, 0, &written);
  if (st != UTF8GUARD_STATUS_OK && st != UTF8GUARD_STATUS_BUFFER_TOO_SMALL) {
    napi_throw_range_error(env, "ERR_OUT_OF_RANGE", utf8guard_status_name(st));
    return NULL;
  }
  char* bytes = alloc_bytes(env, written);
  if (bytes == NULL) return NULL;
  st = c.calls->sanitize(c.data, c.len, c.policy, bytes, written, &written);
  if (st != UTF8GUARD_STATUS_OK) {
    free(bytes);
    napi_throw_error(env, "ERR_UTF8GUARD", utf8guard_status_name(st));
    return NULL;
  }
  return adopt(env, bytes, written);
}

/* percentDecode(input): a new Buffer; a bad escape's '%' stays as it is. */
static napi_value percent_decode(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  const char* data;
  size_t len;
  if (!args(env, info, 1, argv) || !ug_bytes(env, argv[0], "input", &data, &len)) return NULL;
  char* bytes = alloc_bytes(env, len);
  if (bytes == NULL) return NULL;
  size_t written = 0;
  if (utf8guard_percent_decode(data, len, bytes, len, &written) != UTF8GUARD_STATUS_OK) {
    free(bytes);
    napi_throw_error(env, "ERR_UTF8GUARD", "percent decoding failed");
    return NULL;
  }
  return adopt(env, bytes, written);
}

static bool get_size(napi_env env, napi_value v, size_t* out) {
  double d;
  if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0) || d > 9007199254740991.0 ||
      d != (double)(size_t)d) {
    ug_throw_type(env, "ERR_INVALID_ARG_VALUE", "An offset or length must be an integer >= 0");
    return false;
  }
  *out = (size_t)d;
  return true;
}

static bool get_u32(napi_env env, napi_value v, uint32_t* out) {
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_number ||
      napi_get_value_uint32(env, v, out) != napi_ok) {
    ug_throw_type(env, "ERR_INVALID_ARG_VALUE", "Expected an unsigned 32-bit integer");
    return false;
  }
  return true;
}

/* describe(input, form, kind, offset, length, category, codePoint,
 * decodedOffset, decodedLength): the message of a finding over the whole
 * input, with numbers as the C API has them (index.js maps names). */
static napi_value describe(napi_env env, napi_callback_info info) {
  napi_value argv[9];
  const char* data;
  size_t len;
  uint32_t form, kind, category, code_point;
  utf8guard_encoded_result r;
  memset(&r, 0, sizeof r);
  if (!args(env, info, 9, argv) || !ug_bytes(env, argv[0], "input", &data, &len) ||
      !get_u32(env, argv[1], &form) || !get_u32(env, argv[2], &kind) ||
      !get_size(env, argv[3], &r.error.offset) || !get_size(env, argv[4], &r.error.length) ||
      !get_u32(env, argv[5], &category) || !get_u32(env, argv[6], &code_point) ||
      !get_size(env, argv[7], &r.decoded_offset) || !get_size(env, argv[8], &r.decoded_length))
    return NULL;
  r.error.kind = (utf8guard_error)kind;
  r.error.category = (utf8guard_category)category;
  r.error.code_point = code_point;
  if (form > UG_FORM_JSON) {
    ug_throw_type(env, "ERR_INVALID_ARG_VALUE", "Expected a form");
    return NULL;
  }
  char message[UTF8GUARD_DESCRIBE_MAX];
  ug_describe((ug_form)form, data, len, 0, r, message);
  napi_value out;
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &out);
  return out;
}

/* truncate(input, max, keepIllFormed): the length of the longest prefix of
 * at most max bytes that splits no character. */
static napi_value truncate(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  const char* data;
  size_t len, max;
  bool keep = false;
  if (!args(env, info, 3, argv) || !ug_bytes(env, argv[0], "input", &data, &len) ||
      !get_size(env, argv[1], &max))
    return NULL;
  napi_get_value_bool(env, argv[2], &keep);
  size_t n = utf8guard_truncate(
      data, len, max, keep ? UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED : UTF8GUARD_TRUNCATE_WELL_FORMED);
  napi_value out;
  napi_create_double(env, (double)n, &out);
  return out;
}

/* parsePolicy(text): the category bits, or [offset, length] of the first
 * item that is no name. */
static napi_value parse_policy(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  char text[256];
  size_t n = 0;
  if (!args(env, info, 1, argv)) return NULL;
  if (napi_get_value_string_utf8(env, argv[0], text, sizeof text, &n) != napi_ok) {
    ug_throw_type(env, "ERR_INVALID_ARG_TYPE", "A policy must be a string or category bits");
    return NULL;
  }
  if (n + 1 >= sizeof text) {
    napi_throw_range_error(env, "ERR_INVALID_ARG_VALUE", "A policy's text is too long");
    return NULL;
  }
  utf8guard_policy policy;
  size_t at = 0, width = 0;
  napi_value out;
  if (utf8guard_policy_parse(text, n, &policy, &at, &width)) {
    napi_create_uint32(env, policy, &out);
    return out;
  }
  napi_value a, b;
  napi_create_array_with_length(env, 2, &out);
  napi_create_double(env, (double)at, &a);
  napi_create_double(env, (double)width, &b);
  napi_set_element(env, out, 0, a);
  napi_set_element(env, out, 1, b);
  return out;
}

static napi_value active_kernel(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value out;
  napi_create_string_utf8(env, utf8guard_active_kernel(), NAPI_AUTO_LENGTH, &out);
  return out;
}

/* A list of names: f(0), f(1), ... until NULL or "unknown". */
static napi_value names(napi_env env, const char* (*f)(unsigned), unsigned count) {
  napi_value list;
  napi_create_array(env, &list);
  for (unsigned i = 0; i < count; i++) {
    napi_value s;
    napi_create_string_utf8(env, f(i), NAPI_AUTO_LENGTH, &s);
    napi_set_element(env, list, i, s);
  }
  return list;
}

static const char* error_name(unsigned i) { return utf8guard_error_name((utf8guard_error)i); }
static const char* category_name(unsigned i) {
  return utf8guard_category_name((utf8guard_category)(1u << i));
}
static const char* profile_name(unsigned i) { return utf8guard_profile_name(i); }

static unsigned profile_count(void) {
  unsigned n = 0;
  while (utf8guard_profile_name(n) != NULL) n++;
  return n;
}

static napi_value init(napi_env env, napi_value exports) {
  /* The one-shot calls by form: one callback each, told the form's calls. */
  static const struct {
    const char* name;
    napi_callback cb;
    const form_calls* calls;
  } fns[] = {{"isValid", is_valid, NULL},
             {"isValidPolicy", is_valid_in, &raw_calls},
             {"validate", validate_in, &raw_calls},
             {"sanitize", sanitize_in, &raw_calls},
             {"isValidPercent", is_valid_in, &percent_calls},
             {"validatePercent", validate_in, &percent_calls},
             {"percentDecode", percent_decode, NULL},
             {"isValidJson", is_valid_in, &json_calls},
             {"validateJson", validate_in, &json_calls},
             {"sanitizeJson", sanitize_in, &json_calls},
             {"describe", describe, NULL},
             {"truncate", truncate, NULL},
             {"parsePolicy", parse_policy, NULL},
             {"activeKernel", active_kernel, NULL}};
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
    if (ug_export(env, exports, fns[i].name, fns[i].cb, (void*)fns[i].calls) != napi_ok)
      return NULL;
  napi_value v;
  napi_create_string_utf8(env, utf8guard_version(), NAPI_AUTO_LENGTH, &v);
  napi_set_named_property(env, exports, "version", v);
  /* error kinds by number (none..invalid_argument), categories by bit index */
  napi_set_named_property(env, exports, "errorNames",
                          names(env, error_name, UTF8GUARD_ERROR_INVALID_ARGUMENT + 1));
  napi_set_named_property(env, exports, "categoryNames",
                          names(env, category_name, UTF8GUARD_CATEGORY_COUNT));
  napi_set_named_property(env, exports, "profileNames", names(env, profile_name, profile_count()));
  if (ug_init_stream(env, exports) != napi_ok || ug_init_request(env, exports) != napi_ok)
    return NULL;
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
