/* The web console's credential: an HttpOnly cookie carrying an opaque session id, honoured only
 * together with an X-CSRF-Token header bound to that id. Pure pieces here (the Cookie header
 * parser, id and token shapes); the sessions themselves are bw_auth_console_* in auth/auth.h. */
#ifndef BW_AUTH_CONSOLE_H
#define BW_AUTH_CONSOLE_H
#include "common/limits.h"

#include <stdbool.h>
#include <stddef.h>

/* The cookie's name. Not "__Host-": that prefix needs Secure, which plain-HTTP servers cannot set. */
#define BW_CONSOLE_COOKIE "bulwark_console"

/* The value of the first cookie called name in a Cookie request header (RFC 6265 5.4: pairs split
 * by ';', whitespace around them ignored, a value optionally in double quotes) into out,
 * NUL-terminated: true when there is one, its value is made only of cookie-octets (RFC 6265
 * 4.1.1) and fits in cap - 1 bytes. A header longer than BW_COOKIE_HEADER_MAX is not read. */
bool bw_cookie_value(const char *header, const char *name, char *out, size_t cap);

/* Whether s has the shape of a session id or CSRF token: BW_CONSOLE_ID_LEN base64url characters. */
bool bw_console_token_wellformed(const char *s);

/* A new session id: BW_CONSOLE_ID_LEN base64url characters of 32 random bytes. */
void bw_console_new_id(char out[BW_CONSOLE_ID_LEN + 1]);

/* What the database knows a session by: the SHA-256 of its id, as 64 hex digits. */
void bw_console_id_hash(const char *id, char out[65]);

/* The CSRF token of session id under key (HMAC-SHA256 of a domain label and the id, base64url),
 * and its check in constant time. The key is the server's token secret: a token is good for one
 * session and nothing else, and no table holds it. */
void bw_console_csrf(const unsigned char *key, size_t key_len, const char *id, char out[BW_CONSOLE_CSRF_LEN + 1]);
bool bw_console_csrf_ok(const unsigned char *key, size_t key_len, const char *id, const char *token);

#endif
