/* The web console's sessions (migration 0034, `console_sessions`): rows found by the hash of the
 * cookie's id, read together with the account they belong to. What makes a session live (its
 * generation, its idle and absolute limits) is decided by src/auth/console.c, not here. */
#ifndef BW_STORE_STORE_CONSOLE_H
#define BW_STORE_STORE_CONSOLE_H
#include "common/ids.h"
#include "store/db.h"
#include "store/store.h"

#include <stdbool.h>
#include <stdint.h>

struct store_console_session {
    char user_id[BW_ID_MAX];
    int64_t gen;       /* the account's token generation when the session began */
    int64_t created_s; /* epoch seconds */
    int64_t seen_s;
    /* the account as it is now */
    enum bw_tier tier;
    enum bw_role role;
    int64_t user_gen;
    bool disabled;
};

/* Begins a session (id_hash: 64 hex digits) for user_id at generation gen. Within one transaction
 * the account's ended sessions (another generation, or past either limit at now_s) are deleted,
 * and then its oldest live ones beyond max - 1, so an account holds at most max. ST_OK or
 * ST_ERROR. */
int store_console_create(struct db *db, const char *id_hash, const char *user_id, int64_t gen, int64_t now_s,
                         int64_t idle_s, int64_t max_age_s, int max);

/* The session and its account: ST_OK, ST_NOTFOUND or ST_ERROR. */
int store_console_get(struct db *db, const char *id_hash, struct store_console_session *out);

/* Its last-seen time. ST_OK (also when it is gone) or ST_ERROR. */
int store_console_touch(struct db *db, const char *id_hash, int64_t now_s);

/* Ends one session (sign-out, or found ended). ST_OK (also when it is gone) or ST_ERROR. */
int store_console_delete(struct db *db, const char *id_hash);

/* The account's sessions (live or not), for tests and operators. ST_OK or ST_ERROR. */
int store_console_count(struct db *db, const char *user_id, int64_t *n);

#endif
