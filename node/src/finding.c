/* finding.c - inputs, policies, errors and the finding objects of the
 * addon (addon.h). */
#include <string.h>

#include "addon.h"

void ug_throw_type(napi_env env, const char* code, const char* message) {
  napi_throw_type_error(env, code, message);
}

bool ug_bytes(napi_env env, napi_value value, const char* what, const char** data, size_t* len) {
  void* p = NULL;
  size_t n = 0;
  napi_value buffer = NULL;
  napi_typedarray_type type;
  size_t offset;
  bool detached = false;
  /* A TypedArray first: Buffer and Uint8Array are the common inputs. Its
   * ArrayBuffer is asked for only when it reports no bytes (detached?). */
  if (napi_get_typedarray_info(env, value, &type, &n, &p, NULL, NULL) == napi_ok) {
    switch (type) {
      case napi_int8_array:
      case napi_uint8_array:
      case napi_uint8_clamped_array: break;
      case napi_int16_array:
      case napi_uint16_array: n *= 2; break;
      case napi_int32_array:
      case napi_uint32_array:
      case napi_float32_array: n *= 4; break;
      default: /* 64-bit elements */ n *= 8; break;
    }
    if (n == 0 &&
        napi_get_typedarray_info(env, value, &type, &n, &p, &buffer, &offset) == napi_ok &&
        napi_is_detached_arraybuffer(env, buffer, &detached) == napi_ok && detached)
      goto fail;
    *data = p;
    *len = n;
    return true;
  }
  if (napi_get_dataview_info(env, value, &n, &p, &buffer, &offset) == napi_ok) {
    if (n == 0 && napi_is_detached_arraybuffer(env, buffer, &detached) == napi_ok && detached)
      goto fail;
    *data = p;
    *len = n;
    return true;
  }
  bool is_buffer = false;
  if (napi_is_arraybuffer(env, value, &is_buffer) == napi_ok && is_buffer) {
    if (napi_is_detached_arraybuffer(env, value, &detached) == napi_ok && detached) goto fail;
    if (napi_get_arraybuffer_info(env, value, &p, &n) != napi_ok) goto fail;
    *data = p;
    *len = n;
    return true;
  }
fail : {
  char message[160];
  const char* tail = detached ? " must not be a view of a detached ArrayBuffer"
                              : " must be a Buffer, TypedArray, DataView or ArrayBuffer";
  size_t w = strlen(what);
  if (w > 60) w = 60;
  memcpy(message, "The ", 4);
  memcpy(message + 4, what, w);
  strcpy(message + 4 + w, tail);
  ug_throw_type(env, detached ? "ERR_INVALID_STATE" : "ERR_INVALID_ARG_TYPE", message);
  return false;
}
}

bool ug_policy(napi_env env, napi_value value, utf8guard_policy* policy) {
  uint32_t bits = 0;
  napi_valuetype t;
  if (napi_typeof(env, value, &t) != napi_ok || t != napi_number ||
      napi_get_value_uint32(env, value, &bits) != napi_ok || (bits & ~UG_POLICY_MASK) != 0) {
    ug_throw_type(env, "ERR_INVALID_ARG_VALUE", "The policy must be a set of category bits");
    return false;
  }
  *policy = bits;
  return true;
}

napi_status ug_export(napi_env env, napi_value exports, const char* name, napi_callback cb,
                      void* data) {
  napi_value fn;
  napi_status st = napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, data, &fn);
  if (st != napi_ok) return st;
  return napi_set_named_property(env, exports, name, fn);
}

napi_value ug_null(napi_env env) {
  napi_value v;
  napi_get_null(env, &v);
  return v;
}

napi_value ug_boolean(napi_env env, bool b) {
  napi_value v;
  napi_get_boolean(env, b, &v);
  return v;
}

static void set_string(napi_env env, napi_value obj, const char* key, const char* text) {
  napi_value v = ug_null(env);
  if (text != NULL) napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &v);
  napi_set_named_property(env, obj, key, v);
}

static void set_number(napi_env env, napi_value obj, const char* key, double x) {
  napi_value v;
  napi_create_double(env, x, &v);
  napi_set_named_property(env, obj, key, v);
}

static void set_null(napi_env env, napi_value obj, const char* key) {
  napi_set_named_property(env, obj, key, ug_null(env));
}

void ug_describe(ug_form form, const char* data, size_t len, size_t base,
                 utf8guard_encoded_result r, char* out) {
  unsigned flags = UTF8GUARD_DESCRIBE_HINT;
  size_t cap = UTF8GUARD_DESCRIBE_MAX;
  if (form == UG_FORM_PERCENT)
    utf8guard_percent_describe(data, len, base, r, flags, out, cap);
  else if (form == UG_FORM_JSON)
    utf8guard_json_describe(data, len, base, r, flags, out, cap);
  else
    utf8guard_describe(data, len, base, r.error, flags, out, cap);
}

napi_value ug_make_finding(napi_env env, ug_form form, const char* data, size_t len, size_t base,
                           utf8guard_encoded_result r) {
  const utf8guard_result* e = &r.error;
  napi_value obj;
  napi_create_object(env, &obj);
  set_string(env, obj, "kind", utf8guard_error_name(e->kind));
  set_number(env, obj, "offset", (double)e->offset);
  set_number(env, obj, "length", (double)e->length);
  if (e->kind == UTF8GUARD_ERROR_DISALLOWED) {
    set_string(env, obj, "category", utf8guard_category_name(e->category));
    set_number(env, obj, "codePoint", e->code_point);
  } else {
    set_null(env, obj, "category");
    set_null(env, obj, "codePoint");
  }
  utf8guard_hint hint = form == UG_FORM_PERCENT ? utf8guard_percent_explain(data, len, base, r)
                        : form == UG_FORM_JSON  ? utf8guard_json_explain(data, len, base, r)
                                                : utf8guard_explain(data, len, e->offset - base);
  if (e->kind == UTF8GUARD_ERROR_DISALLOWED || e->kind == UTF8GUARD_ERROR_INVALID_ARGUMENT ||
      e->offset < base)
    hint.kind = UTF8GUARD_HINT_NONE;
  if (hint.kind == UTF8GUARD_HINT_NONE) {
    set_null(env, obj, "hint");
    set_null(env, obj, "hintValue");
  } else {
    set_string(env, obj, "hint", utf8guard_hint_name(hint.kind));
    if (hint.has_value)
      set_number(env, obj, "hintValue", hint.value);
    else
      set_null(env, obj, "hintValue");
  }
  if (form != UG_FORM_RAW) {
    set_number(env, obj, "decodedOffset", (double)r.decoded_offset);
    set_number(env, obj, "decodedLength", (double)r.decoded_length);
  }
  char message[UTF8GUARD_DESCRIBE_MAX];
  ug_describe(form, data, len, base, r, message);
  set_string(env, obj, "message", message);
  return obj;
}

napi_value ug_text_finding(napi_env env, const char* kind, const char* text, size_t len) {
  static const char* const nulls[] = {"offset",    "length", "category",
                                      "codePoint", "hint",   "hintValue"};
  napi_value obj, v = ug_null(env);
  if (napi_create_object(env, &obj) != napi_ok) return NULL;
  set_string(env, obj, "kind", kind);
  for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
    napi_set_named_property(env, obj, nulls[i], v);
  const char* sep = strstr(text, ": ");
  const char* message = sep ? sep + 2 : text;
  napi_create_string_utf8(env, message, len - (size_t)(message - text), &v);
  napi_set_named_property(env, obj, "message", v);
  napi_create_string_utf8(env, text, sep ? (size_t)(sep - text) : 0, &v);
  napi_set_named_property(env, obj, "label", v);
  napi_create_string_utf8(env, text, len, &v);
  napi_set_named_property(env, obj, "text", v);
  return obj;
}
