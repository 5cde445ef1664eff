/* Principals: who is calling. Resolves the Authorization and X-API-Key headers into a
 * principal, with a short-lived cache of verified credentials so the hot path of a repeat
 * caller touches no database. A present but invalid credential is an error, never anonymous. */
#ifndef BW_AUTH_AUTH_H
#define BW_AUTH_AUTH_H
#include "auth/apikey.h"
#include "auth/console.h"
#include "common/config.h"
#include "common/errors.h"
#include "common/ids.h"
#include "store/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bw_auth_kind { BW_AUTH_ANON, BW_AUTH_JWT, BW_AUTH_APIKEY, BW_AUTH_ADMINKEY };

struct bw_principal {
    enum bw_auth_kind kind;
    char user_id[BW_ID_MAX];   /* "" for anonymous and the admin key */
    enum bw_tier tier;
    enum bw_role role;
    char key_id[BW_ID_MAX];    /* API key callers */
    char key_prefix[16];
    int64_t token_gen;         /* session (JWT) callers: the generation the token carries */
};

/* Why a credential was refused, for the auth-failure metric. resolve reports INVALID, EXPIRED or
 * REVOKED; the access policy decides MISSING (no credential where one is needed) and WRONG_KIND
 * (an API key where a session is needed, the admin key where an account is). */
enum bw_auth_fail {
    BW_AUTH_FAIL_MISSING,
    BW_AUTH_FAIL_INVALID,    /* malformed, unknown, bad signature, both headers, no such account */
    BW_AUTH_FAIL_EXPIRED,    /* a token whose signature is good but whose exp has passed */
    BW_AUTH_FAIL_REVOKED,    /* a key that exists but was revoked or rotated away */
    BW_AUTH_FAIL_WRONG_KIND,
    BW_AUTH_FAIL__COUNT
};
/* "missing", "invalid", "expired", "revoked", "wrong_kind". */
const char *bw_auth_fail_name(enum bw_auth_fail f);

struct bw_auth;

/* jwt secret bytes are copied; admin_hash is the SHA-256 (32 bytes) of the admin key. */
struct bw_auth *bw_auth_new(struct db *db, const unsigned char *jwt_secret, size_t jwt_len,
                            const unsigned char admin_hash[32], long cache_ms);
void bw_auth_free(struct bw_auth *a);

/* Resolves the two headers (either may be NULL). Returns BW_OK with *out filled (anonymous when
 * neither is present), BW_E_AUTH_REQUIRED with *why and *fail (may be NULL) set for a bad
 * credential, or BW_E_UNAVAILABLE when the database cannot be asked. A session token is good
 * while its generation is the account's and the account is enabled; an API key while it is active
 * and its account enabled. The account is read at most once per BULWARK_AUTH_CACHE_MS (and again
 * at once after a notification, or when a token is newer than what was read). */
enum bw_err bw_auth_resolve(struct bw_auth *a, const char *authorization, const char *x_api_key,
                            struct bw_principal *out, const char **why, enum bw_auth_fail *fail);

/* Drops cached state of a key (after revoke/rotate) so it stops working at once: here, and on the
 * other instances sharing the database through a notification on BW_AUTH_CHANNEL (PostgreSQL;
 * each instance listens from bw_auth_new on, and empties its cache whenever its listener
 * (re)connects, so a lost notification cannot outlive BULWARK_AUTH_CACHE_MS). */
void bw_auth_forget_key(struct bw_auth *a, const char *key_id);

/* The same for everything cached of an account (its sessions and keys are read again): after its
 * password, tier, role or state changed. */
void bw_auth_forget_user(struct bw_auth *a, const char *user_id);
/* Drops this instance's cached state of an account it has just read (a login), so the new session
 * is judged on what it was issued from, not on an older read (SQLite: `bulwark user enable` cannot
 * notify the server). Nothing is broadcast. */
void bw_auth_refresh_user(struct bw_auth *a, const char *user_id);

/* The channel and payloads of those notifications: "key:<key id>", "user:<user id>" (an account's
 * tier, role, password or state changed: its sessions and keys are read again), "*" (everything). */
#define BW_AUTH_CHANNEL "bulwark_auth"

/* Signs a session token for the user carrying its token generation (a token whose generation is
 * not the account's is refused: a password change, disable or role change ends every earlier
 * one); *out malloc'ed. */
/* The password of an `Authorization: Basic base64(user:password)` value into out (NUL-terminated;
 * the user part is ignored): true; false when authorization is not Basic (NULL, another scheme).
 * A Basic value that does not decode, has no ':' or whose password is empty or longer than cap - 1
 * gives true with out "" (a credential that was sent and is wrong: 401, never anonymous). */
bool bw_auth_basic_password(const char *authorization, char *out, size_t cap);

int bw_auth_issue_token(struct bw_auth *a, const char *user_id, enum bw_tier tier, enum bw_role role, int64_t gen,
                        char **out, long *expires_in);

/* ---- the web console's sessions (auth/console.h; rows of store/store_console.h) ----
 * A session is live while its account is enabled and at the generation the session began with
 * (a password change, disable or role change ends every session of the account, as it ends
 * session tokens), for at most BW_CONSOLE_MAX_AGE_S and while used within BW_CONSOLE_IDLE_S. A
 * live session's principal is a session's (BW_AUTH_JWT, token_gen its generation). */

/* Begins a session for the account at generation gen (ending its oldest beyond
 * BW_CONSOLE_SESSIONS_MAX): id (the cookie's value) and its CSRF token. BW_OK or BW_E_UNAVAILABLE. */
enum bw_err bw_auth_console_begin(struct bw_auth *a, const char *user_id, int64_t gen,
                                  char id[BW_CONSOLE_ID_LEN + 1], char csrf[BW_CONSOLE_CSRF_LEN + 1]);

/* A request's Cookie and X-CSRF-Token headers (either may be NULL). Without a console cookie or
 * without the header: BW_OK, anonymous (a cookie alone is no credential: a browser sends it with
 * requests other sites make). Otherwise BW_OK with the session's principal, or
 * BW_E_AUTH_REQUIRED with *why and *fail (a malformed cookie or token, a token that is not the
 * session's, a session that has ended), or BW_E_UNAVAILABLE. */
enum bw_err bw_auth_console_resolve(struct bw_auth *a, const char *cookie, const char *csrf, struct bw_principal *out,
                                    const char **why, enum bw_auth_fail *fail);

/* The live session the Cookie header names, without a CSRF token: its principal, its token and
 * when it ends at the latest (epoch seconds), for a page that was reloaded and must learn the
 * token again (the answer is readable only by the console's own origin). BW_OK,
 * BW_E_AUTH_REQUIRED (*why) or BW_E_UNAVAILABLE. */
enum bw_err bw_auth_console_current(struct bw_auth *a, const char *cookie, struct bw_principal *out,
                                    char csrf[BW_CONSOLE_CSRF_LEN + 1], int64_t *ends_s, const char **why);

/* Ends the session the Cookie header names, if any (sign-out). BW_OK or BW_E_UNAVAILABLE. */
enum bw_err bw_auth_console_end(struct bw_auth *a, const char *cookie);

/* Label for logs, never a secret: "anonymous", "admin_key", the key prefix "svc_XXXXXXXX" (the
 * first 12 characters, as the key list shows them), or the account id for a session. */
const char *bw_principal_label(const struct bw_principal *p, char buf[64]);

#endif
