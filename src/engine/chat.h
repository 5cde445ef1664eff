/* The chat client: speaks an asset's connection (engine/connection.h) to its endpoint, through
 * the egress module only. It builds each flavour's URL, headers and body for a conversation,
 * reads the reply out of each flavour's answer, and keeps the credential to itself:
 *
 *  - the secret travels only to URLs built from the asset's own endpoint (same host), over TLS
 *    only when the certificate verifies (an exchange without credentials looks past a bad one),
 *    and every exchange is sent without following redirects; were one followed, the credential
 *    headers are dropped once it leaves the first origin (bw_egress_req.credential_headers);
 *  - `shown` is the request URL as anything may print or store it: a query-carried secret reads
 *    REDACTED; bw_chat_redact removes the secret (raw, URL-encoded, base64 of basic) from any text
 *    taken from an exchange (errors, final URLs, reply excerpts).
 *
 * The system_prompt of a connection is never sent: it is what the deployment is known to use, for
 * leak detection (bw_chat_leaks_system_prompt).
 *
 * Ownership: struct bw_chat owns its strings (bw_chat_free); it borrows doc (the connection
 * document) and secret, which must outlive it. */
#ifndef BW_ENGINE_CHAT_H
#define BW_ENGINE_CHAT_H
#include "common/limits.h"
#include "engine/connection.h"
#include "net/egress.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct bw_chat {
    enum bw_conn_api api;
    bool configured;               /* from a connection (else guessed by detection) */
    char url[BW_CHAT_URL_MAX];     /* where requests go; holds a query secret: never print it */
    char shown[BW_CHAT_URL_MAX];   /* the same URL as printed: credentials REDACTED */
    char bare[BW_CHAT_URL_MAX];    /* the same URL without credentials (the unauthenticated probe) */
    const char *model;             /* borrowed; "default" when the connection names none */
    const char *api_version;       /* borrowed; NULL when none */
    const char *system_prompt;     /* borrowed; NULL when none */
    const json_t *request_template; /* borrowed (template) */
    const char *response_path;     /* borrowed (template) */
    enum bw_conn_auth auth;
    const char *secret;            /* borrowed; NULL when none */
    char *headers[BW_CONN_HEADERS_MAX + 5]; /* "Name: value" lines, NULL-terminated, malloc'ed */
    char *auth_header;             /* the credential's line (also in headers), malloc'ed */
    const char *cred_names[2];     /* the credential's header name for the egress module */
    char auth_name[BW_CONN_AUTH_NAME_MAX + 1];
    unsigned egress_allow;
};

/* Sets c up for endpoint. doc: the stored connection document (NULL: speak `guess`, the
 * detector's candidate, with no credentials); secret: the opened secret (NULL when none). -1 when
 * the URL cannot be built (too long, out of memory), with the reason in why. */
int bw_chat_init(struct bw_chat *c, const char *endpoint, const json_t *doc, enum bw_conn_api guess,
                 const char *secret, unsigned egress_allow, char *why, size_t cap);
void bw_chat_free(struct bw_chat *c);

struct bw_chat_turn {
    const char *role; /* "user" or "assistant" */
    const char *content;
};

/* The request body (malloc'ed JSON text) for a conversation that ends with a user turn.
 * documents (may be NULL): retrieved passages, sent as a `documents` array by the prompt API (the
 * other flavours get them inside the last turn's text, which the caller writes). NULL when out of
 * memory. The transcript form ("User: ...\nAssistant: ...") is what prompt and template APIs
 * receive for more than one turn. */
char *bw_chat_body(const struct bw_chat *c, const struct bw_chat_turn *turns, size_t n, long max_tokens,
                   const json_t *documents);
/* The transcript of turns (malloc'ed): the last content alone for one turn. */
char *bw_chat_transcript(const struct bw_chat_turn *turns, size_t n);

/* The reply text of a 2xx answer body in c's flavour (malloc'ed, the secret redacted), or NULL
 * when the body is not that shape. */
char *bw_chat_reply(const struct bw_chat *c, const char *body, size_t len);

/* One POST of body to c->url; credentials only when with_auth. Fills *r (free with
 * bw_egress_resp_free) with its error and final_url redacted. Returns r->outcome. */
enum bw_egress_outcome bw_chat_post(const struct bw_chat *c, const char *body, bool with_auth, long timeout_ms,
                                    long connect_ms, size_t cap, struct bw_egress_resp *r);

/* Removes the secret from s (NUL-terminated, cap bytes): every occurrence of it, URL-encoded or
 * as the base64 of basic auth, becomes REDACTED (cut at cap). No-op without a secret. */
void bw_chat_redact(const struct bw_chat *c, char *s, size_t cap);

/* The reply text of an answer's error body, for "what was tried": the flavour's error message
 * (OpenAI/Azure error.message, Anthropic error.message, Ollama error, Gemini error.message) cut
 * to cap, or "" when none. Redacted. */
void bw_chat_error_message(const struct bw_chat *c, const char *body, size_t len, char *out, size_t cap);

/* Whether reply repeats a known system prompt: a run of BW_RT_LEAK_RUN or more of its bytes (or
 * the whole prompt when shorter), compared after folding white space and case
 * (bw_detect_overlap). false without one. */
bool bw_chat_leaks_system_prompt(const struct bw_chat *c, const char *reply);

/* The endpoint -> URL rules of each flavour, for tests: into out (cap bytes); -1 when too long. */
int bw_chat_url(enum bw_conn_api api, const char *endpoint, const char *model, const char *api_version, char *out,
                size_t cap);

#endif
