/* addon.h - what the files of the Node-API addon share: reading a byte
 * input without copying it, policies and forms from JavaScript values,
 * errors, and the finding objects. */
#ifndef UTF8GUARD_NODE_ADDON_H
#define UTF8GUARD_NODE_ADDON_H

#include <node_api.h>
#include <stdbool.h>
#include <stddef.h>

#include <utf8guard/utf8guard.h>

/* The encoded forms a finding's offsets may count in: raw bytes,
 * percent-encoded, JSON text (its escapes decoded). */
typedef enum ug_form { UG_FORM_RAW = 0, UG_FORM_PERCENT = 1, UG_FORM_JSON = 2 } ug_form;

/* Every category bit the library knows. */
#define UG_POLICY_MASK ((1u << UTF8GUARD_CATEGORY_COUNT) - 1u)

/* ug_bytes reads a Buffer, any TypedArray, a DataView or an ArrayBuffer as
 * the bytes it views, without copying them. For anything else, or a view of a
 * detached ArrayBuffer, it throws a TypeError (code ERR_INVALID_ARG_TYPE) and
 * returns false. |what| names the argument in the message. */
bool ug_bytes(napi_env env, napi_value value, const char* what, const char** data, size_t* len);

/* ug_policy reads a policy's bits: an integer of category bits (parsed from
 * text by the JavaScript side). Throws a TypeError and returns false for
 * anything else. */
bool ug_policy(napi_env env, napi_value value, utf8guard_policy* policy);

/* ug_throw_type throws a TypeError with |code| and |message|. */
void ug_throw_type(napi_env env, const char* code, const char* message);

/* ug_make_finding builds the plain object of one finding over data[0..len),
 * which holds the input's bytes from offset |base| on:
 * {kind, offset, length, category, codePoint, hint, hintValue, message}, and
 * for an encoded form also decodedOffset and decodedLength. */
napi_value ug_make_finding(napi_env env, ug_form form, const char* data, size_t len, size_t base,
                           utf8guard_encoded_result r);

/* ug_describe writes the message of |r| over data[0..len) (the input from
 * offset |base| on) in |form|, with the hint, to out[0..UTF8GUARD_DESCRIBE_MAX). */
void ug_describe(ug_form form, const char* data, size_t len, size_t base,
                 utf8guard_encoded_result r, char* out);

/* ug_request_rules reads the rules of makeRules (request.c): the rule of
 * each ug_slot. Throws a TypeError and returns NULL for anything else. */
const struct ug_rule* ug_request_rules(napi_env env, napi_value value);

/* ug_text_finding builds the finding object of a finding the core gives as
 * text alone, "LABEL: MESSAGE": {kind, offset: null, length: null, category:
 * null, codePoint: null, hint: null, hintValue: null, message, label, text}. */
napi_value ug_text_finding(napi_env env, const char* kind, const char* text, size_t len);

/* The files' parts of the module's exports. */
napi_status ug_init_stream(napi_env env, napi_value exports);
napi_status ug_init_request(napi_env env, napi_value exports);

/* ug_export adds a function to |exports|; |data| is what napi_get_cb_info
 * hands its calls. */
napi_status ug_export(napi_env env, napi_value exports, const char* name, napi_callback cb,
                      void* data);

/* JavaScript's null, and a boolean. */
napi_value ug_null(napi_env env);
napi_value ug_boolean(napi_env env, bool b);

#endif
