/* An asset's connection: how bulwark speaks to the model behind a registered endpoint (the API
 * flavour, the model or deployment name, credentials, extra headers, or a request template for
 * anything else). This is the validator of the `connection` object of POST assets/register and
 * PATCH assets/{id}, and the reader of the stored document; src/engine/chat.h speaks it.
 *
 * The stored document is the validated object without the secret:
 *   {api, model?, api_version?, system_prompt?, auth?: {type, name?}, headers?: {name: value},
 *    request_template?, response_path?}
 * The secret (auth.secret) is handed back separately so the caller can seal it; it is never part
 * of the document, a response or a message. Pure: no I/O. */
#ifndef BW_ENGINE_CONNECTION_H
#define BW_ENGINE_CONNECTION_H
#include <jansson.h>
#include <stdbool.h>

enum bw_conn_api {
    BW_API_OPENAI,           /* POST {base}/v1/chat/completions {model, messages} */
    BW_API_OPENAI_RESPONSES, /* POST {base}/v1/responses {model, input} */
    BW_API_ANTHROPIC,        /* POST {base}/v1/messages {model, max_tokens, system, messages}, anthropic-version */
    BW_API_OLLAMA,           /* POST {base}/api/chat {model, messages, stream:false} */
    BW_API_AZURE_OPENAI,     /* POST {base}/openai/deployments/{model}/chat/completions?api-version= */
    BW_API_GEMINI,           /* POST {base}/{version}/models/{model}:generateContent {contents} */
    BW_API_PROMPT,           /* POST {endpoint} {prompt} -> {output|response|text|answer|completion} */
    BW_API_TEMPLATE,         /* POST {endpoint} request_template with {{prompt}}; reply at response_path */
    BW_API__COUNT
};

enum bw_conn_auth { BW_AUTH_NONE, BW_AUTH_BEARER, BW_AUTH_HEADER, BW_AUTH_QUERY, BW_AUTH_BASIC };

const char *bw_conn_api_name(enum bw_conn_api a);
int bw_conn_api_parse(const char *s); /* -1 when unknown */
const char *bw_conn_auth_name(enum bw_conn_auth a);
int bw_conn_auth_parse(const char *s); /* -1 when unknown ("none" is not a type one can ask for) */

/* The API an endpoint speaks when the connection does not say: openai when its path ends in /v1
 * or /chat/completions, else -1 (the caller must be told). */
int bw_conn_api_default(const char *endpoint);

/* Validates a `connection` member (conn: the member's value; NULL or JSON null = no connection,
 * *doc NULL). endpoint: the asset's endpoint (the default api, and where a template is posted).
 * have_secret: the asset already has a sealed secret that may be kept, so auth.secret may be left
 * out when auth.type is unchanged (stored_auth_type names the stored one). Field names in errors
 * start with "connection."; messages are lowercase. Appends {field,message} objects to errors and
 * returns how many it added; when none, *doc is the document to store (a new reference, NULL for
 * no connection) and *secret the secret to seal (borrowed from conn; NULL: none given). */
int bw_conn_parse(const json_t *conn, const char *endpoint, bool have_secret, const char *stored_auth_type,
                  json_t **doc, const char **secret, json_t *errors);

/* The document as a response shows it: a copy with auth.configured true when a secret is sealed
 * (configured), false otherwise. NULL doc -> NULL. */
json_t *bw_conn_public(const json_t *doc, bool configured);

/* Whether a header name may not be set through connection.headers: Host, Content-Length and the
 * hop-by-hop headers, and the ones that carry credentials (those go in auth, sealed). */
bool bw_conn_header_denied(const char *name);

#endif
