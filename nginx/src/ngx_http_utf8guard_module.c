/* ngx_http_utf8guard_module - strict UTF-8 at the edge: checks the request
 * target, the header values and the request body of each request, and blocks
 * (or logs) what is ill-formed or denied by the part's policy.
 *
 * A thin adapter: request_check.h decides which part is checked under which
 * rule and writes the findings; this file reads the directives, hands nginx's
 * bytes over and acts on the answers. The target and the headers are checked
 * in the rewrite phase (after the location is known, so "utf8guard off" in a
 * location holds there); the body by a request body filter, chunk by chunk as
 * nginx reads it for the handler that consumes it (proxy_pass, fastcgi_pass,
 * ...), so it is never held whole here. */
#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "multipart.h"
#include "request_check.h"

#define NGX_HTTP_UTF8GUARD_BLOCK 0
#define NGX_HTTP_UTF8GUARD_DETECT 1

typedef struct {
  ngx_flag_t enable;
  ngx_uint_t mode;
  ngx_uint_t status;
  ngx_flag_t text_declared; /* utf8guard_text_charset declared */
  ngx_flag_t coding_pass;   /* utf8guard_content_encoding pass */
  ngx_flag_t rule_set[UG_SLOT_COUNT];
  ug_rule rules[UG_SLOT_COUNT];
} ngx_http_utf8guard_loc_conf_t;

/* Per request (on the main request, kept across internal redirects through
 * its pool cleanup, as the realip module does: an internal redirect clears
 * the module contexts, and "already checked" or "refused" must outlive it). */
typedef struct {
  ngx_str_t finding;                   /* the first finding: $utf8guard */
  ngx_http_utf8guard_loc_conf_t* conf; /* the location whose rules checked it */
  ug_stream* body;                     /* the body's check, when its rule is on */
  ug_multipart* multipart;             /* or a multipart/form-data body's */
  ngx_uint_t refused;                  /* the status it was refused with, or 0 */
  unsigned checked : 1;                /* the target and headers are checked */
  unsigned body_seen : 1;
  unsigned body_found : 1; /* the body's finding is handed out */
  unsigned body_ended : 1; /* its check is finished */
} ngx_http_utf8guard_ctx_t;

static ngx_int_t ngx_http_utf8guard_add_variables(ngx_conf_t* cf);
static ngx_int_t ngx_http_utf8guard_check_headers(ngx_http_request_t* r,
                                                  ngx_http_utf8guard_loc_conf_t* lcf);
static ngx_int_t ngx_http_utf8guard_body_read_before(ngx_http_request_t* r,
                                                     ngx_http_utf8guard_loc_conf_t* lcf,
                                                     ngx_http_utf8guard_ctx_t* ctx);
static ngx_int_t ngx_http_utf8guard_init(ngx_conf_t* cf);
static void* ngx_http_utf8guard_create_loc_conf(ngx_conf_t* cf);
static char* ngx_http_utf8guard_merge_loc_conf(ngx_conf_t* cf, void* parent, void* child);
static char* ngx_http_utf8guard_rule(ngx_conf_t* cf, ngx_command_t* cmd, void* conf);
static char* ngx_http_utf8guard_status(ngx_conf_t* cf, ngx_command_t* cmd, void* conf);
static char* ngx_http_utf8guard_mode(ngx_conf_t* cf, ngx_command_t* cmd, void* conf);

static char* ngx_http_utf8guard_choice(ngx_conf_t* cf, ngx_command_t* cmd, void* conf);

/* The two words of a yes/no directive: the first sets 0 (the default). */
static ngx_str_t ngx_http_utf8guard_text_charsets[] = {ngx_string("utf-8"), ngx_string("declared")};
static ngx_str_t ngx_http_utf8guard_codings[] = {ngx_string("refuse"), ngx_string("pass")};

#define NGX_HTTP_UTF8GUARD_CONF (NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF)
#define NGX_HTTP_UTF8GUARD_RULE(slot, name)                                              \
  {                                                                                      \
    ngx_string(name), NGX_HTTP_UTF8GUARD_CONF | NGX_CONF_TAKE1, ngx_http_utf8guard_rule, \
        NGX_HTTP_LOC_CONF_OFFSET, slot, NULL                                             \
  }

static ngx_command_t ngx_http_utf8guard_commands[] = {
    {ngx_string("utf8guard"), NGX_HTTP_UTF8GUARD_CONF | NGX_CONF_FLAG, ngx_conf_set_flag_slot,
     NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_utf8guard_loc_conf_t, enable), NULL},
    {ngx_string("utf8guard_mode"), NGX_HTTP_UTF8GUARD_CONF | NGX_CONF_TAKE1,
     ngx_http_utf8guard_mode, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL},
    {ngx_string("utf8guard_status"), NGX_HTTP_UTF8GUARD_CONF | NGX_CONF_TAKE1,
     ngx_http_utf8guard_status, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL},
    NGX_HTTP_UTF8GUARD_RULE(UG_SLOT_TARGET, "utf8guard_target"),
    NGX_HTTP_UTF8GUARD_RULE(UG_SLOT_HEADERS, "utf8guard_headers"),
    NGX_HTTP_UTF8GUARD_RULE(UG_SLOT_BODY_FORM, "utf8guard_body_form"),
    NGX_HTTP_UTF8GUARD_RULE(UG_SLOT_BODY_JSON, "utf8guard_body_json"),
    NGX_HTTP_UTF8GUARD_RULE(UG_SLOT_BODY_TEXT, "utf8guard_body_text"),
    NGX_HTTP_UTF8GUARD_RULE(UG_SLOT_BODY_OTHER, "utf8guard_body_other"),
    NGX_HTTP_UTF8GUARD_RULE(UG_SLOT_BODY_NONE, "utf8guard_body_none"),
    NGX_HTTP_UTF8GUARD_RULE(UG_SLOT_BODY_FILE, "utf8guard_body_file"),
    {ngx_string("utf8guard_text_charset"), NGX_HTTP_UTF8GUARD_CONF | NGX_CONF_TAKE1,
     ngx_http_utf8guard_choice, NGX_HTTP_LOC_CONF_OFFSET,
     offsetof(ngx_http_utf8guard_loc_conf_t, text_declared), ngx_http_utf8guard_text_charsets},
    {ngx_string("utf8guard_content_encoding"), NGX_HTTP_UTF8GUARD_CONF | NGX_CONF_TAKE1,
     ngx_http_utf8guard_choice, NGX_HTTP_LOC_CONF_OFFSET,
     offsetof(ngx_http_utf8guard_loc_conf_t, coding_pass), ngx_http_utf8guard_codings},
    ngx_null_command};

static ngx_http_module_t ngx_http_utf8guard_module_ctx = {
    ngx_http_utf8guard_add_variables, /* preconfiguration */
    ngx_http_utf8guard_init,          /* postconfiguration */
    NULL,
    NULL, /* main conf */
    NULL,
    NULL,                               /* server conf */
    ngx_http_utf8guard_create_loc_conf, /* location conf */
    ngx_http_utf8guard_merge_loc_conf};

ngx_module_t ngx_http_utf8guard_module = {NGX_MODULE_V1,
                                          &ngx_http_utf8guard_module_ctx,
                                          ngx_http_utf8guard_commands,
                                          NGX_HTTP_MODULE,
                                          NULL,
                                          NULL,
                                          NULL,
                                          NULL,
                                          NULL,
                                          NULL,
                                          NULL,
                                          NGX_MODULE_V1_PADDING};

static ngx_http_request_body_filter_pt ngx_http_next_request_body_filter;

/* ---- Configuration ---- */

static void* ngx_http_utf8guard_create_loc_conf(ngx_conf_t* cf) {
  ngx_http_utf8guard_loc_conf_t* conf = ngx_pcalloc(cf->pool, sizeof *conf);
  if (conf == NULL) return NULL;
  conf->enable = NGX_CONF_UNSET;
  conf->mode = NGX_CONF_UNSET_UINT;
  conf->status = NGX_CONF_UNSET_UINT;
  conf->text_declared = NGX_CONF_UNSET;
  conf->coding_pass = NGX_CONF_UNSET;
  for (ngx_uint_t i = 0; i < UG_SLOT_COUNT; i++) conf->rule_set[i] = 0;
  return conf;
}

static char* ngx_http_utf8guard_merge_loc_conf(ngx_conf_t* cf, void* parent, void* child) {
  ngx_http_utf8guard_loc_conf_t* prev = parent;
  ngx_http_utf8guard_loc_conf_t* conf = child;
  ngx_conf_merge_value(conf->enable, prev->enable, 0);
  ngx_conf_merge_uint_value(conf->mode, prev->mode, NGX_HTTP_UTF8GUARD_BLOCK);
  ngx_conf_merge_uint_value(conf->status, prev->status, NGX_HTTP_BAD_REQUEST);
  ngx_conf_merge_value(conf->text_declared, prev->text_declared, 0);
  ngx_conf_merge_value(conf->coding_pass, prev->coding_pass, 0);
  for (ngx_uint_t i = 0; i < UG_SLOT_COUNT; i++) {
    if (conf->rule_set[i]) continue;
    conf->rule_set[i] = prev->rule_set[i];
    conf->rules[i] = prev->rule_set[i] ? prev->rules[i] : ug_rule_default((ug_slot)i);
  }
  return NGX_CONF_OK;
}

/* utf8guard_target, utf8guard_headers, utf8guard_body_*: "off" or a policy. */
static char* ngx_http_utf8guard_rule(ngx_conf_t* cf, ngx_command_t* cmd, void* conf) {
  ngx_http_utf8guard_loc_conf_t* lcf = conf;
  ngx_uint_t slot = cmd->offset;
  ngx_str_t* value = cf->args->elts;
  size_t at = 0, len = 0;
  if (lcf->rule_set[slot]) return "is duplicate";
  if (!ug_rule_parse((ug_slot)slot, (const char*)value[1].data, value[1].len, &lcf->rules[slot],
                     &at, &len)) {
    if (len == 0)
      ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                         "invalid value \"%V\" in \"%V\" directive: an empty name at byte %uz; "
                         "expected \"off\" or profiles and categories separated by commas",
                         &value[1], &cmd->name, at);
    else
      ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                         "invalid value \"%V\" in \"%V\" directive: \"%*s\" is no profile or "
                         "category (profiles: strict source field json url)",
                         &value[1], &cmd->name, len, value[1].data + at);
    return NGX_CONF_ERROR;
  }
  lcf->rule_set[slot] = 1;
  return NGX_CONF_OK;
}

static char* ngx_http_utf8guard_status(ngx_conf_t* cf, ngx_command_t* cmd, void* conf) {
  ngx_http_utf8guard_loc_conf_t* lcf = conf;
  ngx_str_t* value = cf->args->elts;
  if (lcf->status != NGX_CONF_UNSET_UINT) return "is duplicate";
  ngx_int_t status = ngx_atoi(value[1].data, value[1].len);
  if (status < 400 || status > 599) {
    ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                       "invalid value \"%V\" in \"%V\" directive: a status from 400 to 599",
                       &value[1], &cmd->name);
    return NGX_CONF_ERROR;
  }
  lcf->status = (ngx_uint_t)status;
  return NGX_CONF_OK;
}

/* utf8guard_text_charset, utf8guard_content_encoding: one of two words
 * (cmd->post). */
static char* ngx_http_utf8guard_choice(ngx_conf_t* cf, ngx_command_t* cmd, void* conf) {
  ngx_flag_t* field = (ngx_flag_t*)((char*)conf + cmd->offset);
  const ngx_str_t* words = cmd->post;
  ngx_str_t* value = cf->args->elts;
  if (*field != NGX_CONF_UNSET) return "is duplicate";
  for (ngx_flag_t i = 0; i < 2; i++) {
    if (value[1].len == words[i].len &&
        ngx_strncmp(value[1].data, words[i].data, words[i].len) == 0) {
      *field = i;
      return NGX_CONF_OK;
    }
  }
  ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                     "invalid value \"%V\" in \"%V\" directive: expected \"%V\" or \"%V\"",
                     &value[1], &cmd->name, &words[0], &words[1]);
  return NGX_CONF_ERROR;
}

static char* ngx_http_utf8guard_mode(ngx_conf_t* cf, ngx_command_t* cmd, void* conf) {
  ngx_http_utf8guard_loc_conf_t* lcf = conf;
  ngx_str_t* value = cf->args->elts;
  if (lcf->mode != NGX_CONF_UNSET_UINT) return "is duplicate";
  if (value[1].len == 5 && ngx_strncmp(value[1].data, "block", 5) == 0) {
    lcf->mode = NGX_HTTP_UTF8GUARD_BLOCK;
  } else if (value[1].len == 6 && ngx_strncmp(value[1].data, "detect", 6) == 0) {
    lcf->mode = NGX_HTTP_UTF8GUARD_DETECT;
  } else {
    ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                       "invalid value \"%V\" in \"%V\" directive: expected \"block\" or \"detect\"",
                       &value[1], &cmd->name);
    return NGX_CONF_ERROR;
  }
  return NGX_CONF_OK;
}

/* ---- Per-request state ---- */

static void ngx_http_utf8guard_cleanup(void* data) { (void)data; }

static ngx_http_utf8guard_ctx_t* ngx_http_utf8guard_get_ctx(ngx_http_request_t* r,
                                                            ngx_flag_t create) {
  r = r->main;
  ngx_http_utf8guard_ctx_t* ctx = ngx_http_get_module_ctx(r, ngx_http_utf8guard_module);
  if (ctx != NULL) return ctx;
  /* An internal redirect (rewrite, try_files, index, error_page, a named
   * location) clears the module contexts; the pool keeps ours. */
  for (ngx_pool_cleanup_t* cln = r->pool->cleanup; cln != NULL; cln = cln->next) {
    if (cln->handler == ngx_http_utf8guard_cleanup) {
      ctx = cln->data;
      ngx_http_set_ctx(r, ctx, ngx_http_utf8guard_module);
      return ctx;
    }
  }
  if (!create) return NULL;
  ngx_pool_cleanup_t* cln = ngx_pool_cleanup_add(r->pool, sizeof(ngx_http_utf8guard_ctx_t));
  if (cln == NULL) return NULL;
  ctx = cln->data;
  ngx_memzero(ctx, sizeof *ctx);
  cln->handler = ngx_http_utf8guard_cleanup;
  ngx_http_set_ctx(r, ctx, ngx_http_utf8guard_module);
  return ctx;
}

/* Logs one finding and keeps the first for $utf8guard. Returns the status
 * to answer with (block) or NGX_DECLINED (detect). */
static ngx_int_t ngx_http_utf8guard_report(ngx_http_request_t* r,
                                           ngx_http_utf8guard_loc_conf_t* lcf,
                                           const ug_finding* finding) {
  ngx_uint_t block = lcf->mode == NGX_HTTP_UTF8GUARD_BLOCK;
  ngx_uint_t level = block ? NGX_LOG_ERR : NGX_LOG_WARN;
  ngx_log_error(level, r->connection->log, 0, "utf8guard: %*s", finding->len, finding->text);
  ngx_http_utf8guard_ctx_t* ctx = ngx_http_utf8guard_get_ctx(r, 1);
  if (ctx == NULL) return NGX_HTTP_INTERNAL_SERVER_ERROR;
  if (ctx->finding.len == 0) {
    ctx->finding.data = ngx_pnalloc(r->main->pool, finding->len);
    if (ctx->finding.data == NULL) return NGX_HTTP_INTERNAL_SERVER_ERROR;
    ngx_memcpy(ctx->finding.data, finding->text, finding->len);
    ctx->finding.len = finding->len;
  }
  if (!block) return NGX_DECLINED;
  ctx->refused = lcf->status;
  return (ngx_int_t)lcf->status;
}

/* A request the module refused stays refused: an error_page for its status
 * may redirect it to another location, which may serve a page (a static file,
 * "return"), but no location's content handler (proxy_pass, fastcgi_pass,
 * ...) receives it, nor a subrequest of it (mirror, SSI, auth_request). */
static ngx_int_t ngx_http_utf8guard_refused(ngx_http_request_t* r, ngx_http_utf8guard_ctx_t* ctx) {
  ngx_http_core_loc_conf_t* clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);
  if (clcf->handler == NULL) return NGX_DECLINED;
  ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                "utf8guard: a refused request is not passed on to \"%V\"", &clcf->name);
  return (ngx_int_t)ctx->refused;
}

/* ---- The request target and the headers ---- */

/* A part that is not clean: its finding (a frame of its own, out of the
 * path of the clean parts). */
static ngx_int_t ngx_http_utf8guard_found(ngx_http_request_t* r, ngx_http_utf8guard_loc_conf_t* lcf,
                                          const ug_rule* rule, const char* label,
                                          const u_char* data, size_t len) {
  ug_finding finding;
  if (!ug_check_part(rule, label, (const char*)data, len, &finding)) return NGX_DECLINED;
  return ngx_http_utf8guard_report(r, lcf, &finding);
}

static ngx_int_t ngx_http_utf8guard_check(ngx_http_request_t* r, ngx_http_utf8guard_loc_conf_t* lcf,
                                          ug_slot slot, const char* label, const u_char* data,
                                          size_t len) {
  if (ug_part_clean(&lcf->rules[slot], (const char*)data, len)) return NGX_DECLINED;
  return ngx_http_utf8guard_found(r, lcf, &lcf->rules[slot], label, data, len);
}

/* A header that is not clean, reported with its name. */
static ngx_int_t ngx_http_utf8guard_header_found(ngx_http_request_t* r,
                                                 ngx_http_utf8guard_loc_conf_t* lcf,
                                                 const ngx_table_elt_t* h) {
  char label[sizeof "header " + 4 * 48 + sizeof "..."];
  ug_header_label((const char*)h->key.data, h->key.len, label, sizeof label);
  return ngx_http_utf8guard_found(r, lcf, &lcf->rules[UG_SLOT_HEADERS], label, h->value.data,
                                  h->value.len);
}

/* The client's target and headers, checked once per request, at the first
 * location where the module is on, whichever way the request came there
 * (server-level rewrite, try_files, index, error_page, rewrite ... last, a
 * named location): the context says whether it was checked, not
 * r->internal. The target is the client's (r->unparsed_uri), whatever a
 * rewrite made of r->uri and r->args. */
static ngx_int_t ngx_http_utf8guard_handler(ngx_http_request_t* r) {
  ngx_http_utf8guard_ctx_t* ctx = ngx_http_utf8guard_get_ctx(r, 0);
  if (ctx != NULL && ctx->refused) return ngx_http_utf8guard_refused(r, ctx);
  /* A subrequest's target is the server's choice (SSI, mirror,
   * auth_request), and its headers are the main request's. */
  if (r != r->main || (ctx != NULL && ctx->checked)) return NGX_DECLINED;
  ngx_http_utf8guard_loc_conf_t* lcf = ngx_http_get_module_loc_conf(r, ngx_http_utf8guard_module);
  if (!lcf->enable) return NGX_DECLINED;
  if (ctx == NULL) {
    ctx = ngx_http_utf8guard_get_ctx(r, 1);
    if (ctx == NULL) return NGX_HTTP_INTERNAL_SERVER_ERROR;
  }
  ctx->checked = 1;
  ctx->conf = lcf;

  ngx_str_t path = r->unparsed_uri, query = ngx_null_string;
  u_char* mark = path.len ? memchr(path.data, '?', path.len) : NULL;
  if (mark != NULL) {
    query.data = mark + 1;
    query.len = (size_t)(path.data + path.len - query.data);
    path.len = (size_t)(mark - path.data);
  }
  /* The whole target is clean exactly when both path and query are (an
   * escape or a character never spans the ASCII '?'), and one call answers
   * the common case. */
  if (!ug_part_clean(&lcf->rules[UG_SLOT_TARGET], (const char*)r->unparsed_uri.data,
                     r->unparsed_uri.len)) {
    ngx_int_t rc = ngx_http_utf8guard_check(r, lcf, UG_SLOT_TARGET, "path", path.data, path.len);
    if (rc != NGX_DECLINED) return rc;
    if (query.len > 0) {
      rc = ngx_http_utf8guard_check(r, lcf, UG_SLOT_TARGET, "query", query.data, query.len);
      if (rc != NGX_DECLINED) return rc;
    }
  }

  ngx_int_t rc = ngx_http_utf8guard_check_headers(r, lcf);
  if (rc != NGX_DECLINED) return rc;
  if (r->request_body != NULL && !ctx->body_seen && r->request_body->rest == 0)
    return ngx_http_utf8guard_body_read_before(r, lcf, ctx);
  return NGX_DECLINED;
}

/* Every header's name (when nginx passes names that are no tokens) and value. */
static ngx_int_t ngx_http_utf8guard_check_headers(ngx_http_request_t* r,
                                                  ngx_http_utf8guard_loc_conf_t* lcf) {
  const ug_rule* headers = &lcf->rules[UG_SLOT_HEADERS];
  if (!headers->on) return NGX_DECLINED;
  /* With ignore_invalid_headers on (the default) nginx keeps only headers
   * whose names are tokens; with it off, the names are checked here. */
  ngx_http_core_srv_conf_t* cscf = ngx_http_get_module_srv_conf(r, ngx_http_core_module);
  ngx_flag_t names = !cscf->ignore_invalid_headers;
  ngx_int_t rc;
  for (ngx_list_part_t* part = &r->headers_in.headers.part; part != NULL; part = part->next) {
    ngx_table_elt_t* h = part->elts;
    for (ngx_uint_t i = 0; i < part->nelts; i++) {
      if (names) {
        ug_finding finding;
        if (ug_check_header_name((const char*)h[i].key.data, h[i].key.len, &finding)) {
          rc = ngx_http_utf8guard_report(r, lcf, &finding);
          if (rc != NGX_DECLINED) return rc;
        }
      }
      if (ug_part_clean(headers, (const char*)h[i].value.data, h[i].value.len)) continue;
      rc = ngx_http_utf8guard_header_found(r, lcf, &h[i]);
      if (rc != NGX_DECLINED) return rc;
    }
  }
  return NGX_DECLINED;
}

/* ---- The body ---- */

/* The headers that say how to read the body, once, before its first bytes:
 * one Content-Type that parses (ug_check_media), no coding the module cannot
 * read (ug_check_coding, unless "utf8guard_content_encoding pass"), then the
 * rule its media type selects. A coded body is not checked (its bytes are
 * not the text). Returns a status (block) or NGX_DECLINED. */
static ngx_int_t ngx_http_utf8guard_body_start(ngx_http_request_t* r,
                                               ngx_http_utf8guard_loc_conf_t* lcf,
                                               ngx_http_utf8guard_ctx_t* ctx) {
  static const u_char type_key[] = "content-type", coding_key[] = "content-encoding";
  ngx_table_elt_t* type = NULL;
  size_t types = 0;
  ngx_flag_t coded = 0;
  ug_finding finding;
  ngx_int_t rc;
  for (ngx_list_part_t* part = &r->headers_in.headers.part; part != NULL; part = part->next) {
    ngx_table_elt_t* h = part->elts;
    for (ngx_uint_t i = 0; i < part->nelts; i++) {
      if (h[i].key.len == sizeof type_key - 1 &&
          ngx_strncasecmp(h[i].key.data, (u_char*)type_key, sizeof type_key - 1) == 0) {
        if (types++ == 0) type = &h[i];
      } else if (h[i].key.len == sizeof coding_key - 1 &&
                 ngx_strncasecmp(h[i].key.data, (u_char*)coding_key, sizeof coding_key - 1) == 0 &&
                 !ug_coding_readable((const char*)h[i].value.data, h[i].value.len)) {
        coded = 1;
        if (!lcf->coding_pass &&
            ug_check_coding((const char*)h[i].value.data, h[i].value.len, &finding)) {
          rc = ngx_http_utf8guard_report(r, lcf, &finding);
          if (rc != NGX_DECLINED) return rc;
        }
      }
    }
  }
  ug_media media;
  const char* value = type ? (const char*)type->value.data : NULL;
  size_t len = type ? type->value.len : 0;
  ug_media_parse(value, len, &media);
  if (ug_check_media(value, len, &media, types, &finding)) {
    rc = ngx_http_utf8guard_report(r, lcf, &finding);
    if (rc != NGX_DECLINED) return rc;
  }
  if (coded) return NGX_DECLINED;
  ug_slot slot = ug_media_slot(&media, lcf->text_declared);
  if (slot == UG_SLOT_COUNT) {
    /* multipart/form-data: part headers under the headers rule, text fields
     * under the form rule (raw), files under the file rule. */
    ctx->multipart = ngx_palloc(r->pool, sizeof(ug_multipart));
    if (ctx->multipart == NULL) return NGX_HTTP_INTERNAL_SERVER_ERROR;
    ug_multipart_init(ctx->multipart, media.boundary, media.boundary_len,
                      &lcf->rules[UG_SLOT_HEADERS], &lcf->rules[UG_SLOT_BODY_FORM],
                      &lcf->rules[UG_SLOT_BODY_FILE]);
    return NGX_DECLINED;
  }
  if (!lcf->rules[slot].on) return NGX_DECLINED;
  ctx->body = ngx_palloc(r->pool, sizeof(ug_stream));
  if (ctx->body == NULL) return NGX_HTTP_INTERNAL_SERVER_ERROR;
  ug_stream_init(ctx->body, &lcf->rules[slot]);
  return NGX_DECLINED;
}

/* The next bytes of the body, to its check. */
static ngx_flag_t ngx_http_utf8guard_feed(ngx_http_utf8guard_ctx_t* ctx, const u_char* data,
                                          size_t len, ug_finding* finding) {
  return ctx->multipart ? ug_multipart_feed(ctx->multipart, (const char*)data, len, finding)
                        : ug_stream_feed(ctx->body, (const char*)data, len, finding);
}

/* A body buffer that nginx holds in its temporary file only: read back and
 * fed a page at a time, so that every byte is seen however nginx hands the
 * body on. */
static ngx_int_t ngx_http_utf8guard_feed_file(ngx_http_request_t* r, ngx_http_utf8guard_ctx_t* ctx,
                                              ngx_buf_t* b, ug_finding* finding,
                                              ngx_flag_t* ready) {
  u_char page[4096];
  for (off_t at = b->file_pos; at < b->file_last && !*ready;) {
    size_t want = (size_t)ngx_min((off_t)sizeof page, b->file_last - at);
    ssize_t n = ngx_read_file(b->file, page, want, at);
    if (n <= 0) {
      ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                    "utf8guard: cannot read the body back from \"%V\"", &b->file->name);
      return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }
    *ready = ngx_http_utf8guard_feed(ctx, page, (size_t)n, finding);
    at += n;
  }
  return NGX_OK;
}

/* Feeds a chain of body buffers to the body's check; reports its finding.
 * Returns a status (block) or NGX_DECLINED. */
static ngx_int_t ngx_http_utf8guard_body_chain(ngx_http_request_t* r,
                                               ngx_http_utf8guard_loc_conf_t* lcf,
                                               ngx_http_utf8guard_ctx_t* ctx, ngx_chain_t* in) {
  if ((ctx->body != NULL || ctx->multipart != NULL) && !ctx->body_found) {
    for (ngx_chain_t* cl = in; cl != NULL; cl = cl->next) {
      ngx_buf_t* b = cl->buf;
      ug_finding finding;
      ngx_flag_t ready = 0;
      if (ngx_buf_in_memory(b)) {
        if (b->last > b->pos)
          ready = ngx_http_utf8guard_feed(ctx, b->pos, (size_t)(b->last - b->pos), &finding);
      } else if (b->in_file && b->file_last > b->file_pos) {
        ngx_int_t rc = ngx_http_utf8guard_feed_file(r, ctx, b, &finding, &ready);
        if (rc != NGX_OK) return rc;
      }
      if (!ready && b->last_buf) {
        ctx->body_ended = 1;
        ready = ctx->multipart ? ug_multipart_finish(ctx->multipart, &finding)
                               : ug_stream_finish(ctx->body, &finding);
      }
      if (ready) {
        ctx->body_found = 1;
        ngx_int_t rc = ngx_http_utf8guard_report(r, lcf, &finding);
        if (rc != NGX_DECLINED) return rc;
        break;
      }
    }
    /* A finding that waits for the bytes its message shows (its form's
     * UTF8GUARD_DESCRIBE_*_AHEAD, the library's finding window) lets them go
     * on meanwhile: a body filter that keeps nginx's buffers unread breaks
     * its buffer reuse. In buffered mode nothing has reached the handler
     * before the body ends. */
  }
  return NGX_DECLINED;
}

/* A body nginx read before the request came to the location that checks it
 * (a location where the module is off read it, then a redirect brought the
 * request here, as error_page does after a failed proxy_pass): checked now,
 * whole, from the buffers and the temporary file nginx keeps it in, before
 * this location's handler sends it on again. */
static ngx_int_t ngx_http_utf8guard_body_read_before(ngx_http_request_t* r,
                                                     ngx_http_utf8guard_loc_conf_t* lcf,
                                                     ngx_http_utf8guard_ctx_t* ctx) {
  ctx->body_seen = 1;
  ngx_int_t rc = ngx_http_utf8guard_body_start(r, lcf, ctx);
  if (rc != NGX_DECLINED) return rc;
  rc = ngx_http_utf8guard_body_chain(r, lcf, ctx, r->request_body->bufs);
  if (rc != NGX_DECLINED || ctx->body_found || ctx->body_ended) return rc;
  if (ctx->body == NULL && ctx->multipart == NULL) return NGX_DECLINED;
  ctx->body_ended = 1;
  ug_finding finding;
  if (ctx->multipart ? !ug_multipart_finish(ctx->multipart, &finding)
                     : !ug_stream_finish(ctx->body, &finding))
    return NGX_DECLINED;
  ctx->body_found = 1;
  return ngx_http_utf8guard_report(r, lcf, &finding);
}

static ngx_int_t ngx_http_utf8guard_body_filter(ngx_http_request_t* r, ngx_chain_t* in) {
  if (r != r->main) return ngx_http_next_request_body_filter(r, in);
  ngx_http_utf8guard_ctx_t* ctx = ngx_http_utf8guard_get_ctx(r, 0);
  if (ctx != NULL && ctx->refused) return (ngx_int_t)ctx->refused;
  /* The body is read under the rules of the location that checked the
   * target and headers, wherever a redirect took the request since. */
  ngx_http_utf8guard_loc_conf_t* lcf =
      ctx != NULL && ctx->conf != NULL ? ctx->conf
                                       : ngx_http_get_module_loc_conf(r, ngx_http_utf8guard_module);
  if (!lcf->enable) return ngx_http_next_request_body_filter(r, in);
  if (ctx == NULL) {
    ctx = ngx_http_utf8guard_get_ctx(r, 1);
    if (ctx == NULL) return NGX_HTTP_INTERNAL_SERVER_ERROR;
  }

  if (!ctx->body_seen) {
    ctx->body_seen = 1;
    ngx_int_t rc = ngx_http_utf8guard_body_start(r, lcf, ctx);
    if (rc != NGX_DECLINED) return rc;
  }
  ngx_int_t rc = ngx_http_utf8guard_body_chain(r, lcf, ctx, in);
  if (rc != NGX_DECLINED) return rc;
  return ngx_http_next_request_body_filter(r, in);
}

/* ---- $utf8guard ---- */

static ngx_int_t ngx_http_utf8guard_variable(ngx_http_request_t* r, ngx_http_variable_value_t* v,
                                             uintptr_t data) {
  ngx_http_utf8guard_ctx_t* ctx = ngx_http_utf8guard_get_ctx(r, 0);
  v->valid = 1;
  v->no_cacheable = 1;
  v->not_found = 0;
  v->escape = 0;
  v->data = ctx ? ctx->finding.data : (u_char*)"";
  v->len = ctx ? ctx->finding.len : 0;
  return NGX_OK;
}

static ngx_int_t ngx_http_utf8guard_add_variables(ngx_conf_t* cf) {
  static ngx_str_t name = ngx_string("utf8guard");
  ngx_http_variable_t* var = ngx_http_add_variable(cf, &name, NGX_HTTP_VAR_NOCACHEABLE);
  if (var == NULL) return NGX_ERROR;
  var->get_handler = ngx_http_utf8guard_variable;
  return NGX_OK;
}

static ngx_int_t ngx_http_utf8guard_init(ngx_conf_t* cf) {
  ngx_http_core_main_conf_t* cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);
  ngx_http_handler_pt* h = ngx_array_push(&cmcf->phases[NGX_HTTP_REWRITE_PHASE].handlers);
  if (h == NULL) return NGX_ERROR;
  *h = ngx_http_utf8guard_handler;
  ngx_http_next_request_body_filter = ngx_http_top_request_body_filter;
  ngx_http_top_request_body_filter = ngx_http_utf8guard_body_filter;
  return NGX_OK;
}
