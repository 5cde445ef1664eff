/* Typed storage functions per entity, over db.h. The API layer calls these and never writes
 * SQL. Structs are filled by value; nothing returned needs freeing unless stated. */
#ifndef BW_STORE_STORE_H
#define BW_STORE_STORE_H
#include "common/config.h"
#include "common/ids.h"
#include "common/limits.h"
#include "store/db.h"

#include <stdbool.h>
#include <stdint.h>

enum store_rc {
    ST_OK = 0,
    ST_NOTFOUND = 1,
    ST_CONFLICT = 2, /* unique violation (e.g. the email exists), or a state that forbids it */
    ST_LIMIT = 3,    /* a per-account limit is reached */
    ST_ERROR = -1,   /* the database failed; already logged */
};

/* One page of a list; every list function takes one. Offset paging: limit rows after skipping
 * offset (each skipped row is read: slower the deeper). Keyset paging, when after_id is set: the
 * limit rows that follow (after_int or after_text, after_id) in the list's order, read from the
 * index right there (the cost of a first page at any depth). The store reads limit + 1 rows and
 * fills `more` (another row follows this page) and the last row's key and id (last_*), from which
 * the API layer makes next_cursor (common/cursor.h). */
struct store_page {
    long limit, offset;
    const char *after_id;   /* NULL: offset paging */
    int64_t after_int;      /* the key, for lists whose key is an integer (created_us, ...) */
    const char *after_text; /* the key, for lists whose key is text (published) */
    /* filled by the store */
    bool more;
    int64_t last_int;
    char last_text[BW_CURSOR_TEXT_MAX + 1];
    char last_id[BW_CURSOR_ID_MAX + 1];
};

struct store_user {
    char id[BW_ID_MAX];
    char email[BW_EMAIL_MAX + 1];
    char password_hash[160];
    enum bw_tier tier;
    enum bw_role role;
    char managed_by[BW_ID_MAX]; /* "" when none */
    char created_at[21];
    int64_t token_gen; /* session tokens carry it (claim gen); a token of another generation has ended */
    bool disabled;     /* no login, no session, no API key */
};

struct store_key {
    char id[BW_ID_MAX];
    char user_id[BW_ID_MAX];
    char prefix[16];
    char label[BW_LABEL_MAX * 4 + 1]; /* bytes of up to 64 UTF-8 characters */
    bool active;
    char created_at[21];
    char last_used_at[21]; /* "" when never used */
    char rotated_from[16]; /* "" when not a rotation */
    char hash[65];         /* hex SHA-256 of the key; filled by callers that create keys */
    enum bw_tier tier;     /* the owner's, from the join */
    enum bw_role role;
    bool owner_disabled;
};

int store_user_insert(struct db *db, const struct store_user *u); /* ST_CONFLICT: email taken */
int store_user_by_email(struct db *db, const char *email, struct store_user *out);
int store_user_by_id(struct db *db, const char *id, struct store_user *out);
int store_user_count(struct db *db, int64_t *n);
/* All users, oldest first; *out is malloc'ed (free it), *n its length. */
int store_user_list(struct db *db, struct store_user **out, size_t *n);
int store_user_set_tier(struct db *db, const char *email, enum bw_tier tier);
/* One page of accounts, newest first (created_at, then id; keyset key: created_at, text): every
 * account when managed_by is NULL, else those whose manager is managed_by (migration 0037 indexes
 * both). *out malloc'ed (free it; the rows carry their password hashes: never show them); *total
 * counts every match. */
int store_user_page(struct db *db, const char *managed_by, struct store_page *pg, struct store_user **out, size_t *n,
                    int64_t *total);

/* Sets the account's password hash and adds one to its token generation (every session token
 * issued before ends), when its generation is still expect_gen (< 0: whatever it is). ST_OK with
 * *gen the new generation; ST_NOTFOUND when there is no such account or its generation moved. */
int store_user_set_password(struct db *db, const char *id, const char *hash, int64_t expect_gen, int64_t *gen);

/* Account changes made by `bulwark user`, each one transaction serialised with the others (so two
 * of them cannot both remove "the other" admin). ST_CONFLICT when the change would leave no enabled
 * admin account; ST_NOTFOUND when there is no account with that email. *out gets the account after
 * the change (for a deletion: as it was).
 *   disable   marks it disabled, ends its sessions (token generation + 1) and revokes its active API
 *             keys; already disabled: no change
 *   enable    clears the mark (its keys stay revoked, its sessions ended)
 *   set_role  changes the role and ends its sessions; the same role: no change
 *   delete    deletes the account and everything it owns: API keys, assets and their scans,
 *             assessments, saved playbooks, red-team engagements (their attack rows and jobs), and
 *             the orchestrator runs and snapshots of its own scope, webhooks and their deliveries
 *             (and their jobs); accounts it managed are kept
 *             without a manager. Audit aggregates stay (they age out with the retention). */
int store_user_disable(struct db *db, const char *email, struct store_user *out);
int store_user_enable(struct db *db, const char *email, struct store_user *out);
int store_user_set_role(struct db *db, const char *email, enum bw_role role, struct store_user *out);
int store_user_delete(struct db *db, const char *email, struct store_user *out);

/* Inserts k (id, user_id, hash, prefix, label, created_at) unless the user already has
 * max_active active keys (ST_LIMIT). Serialised per user by touching the user's row first. */
int store_key_create(struct db *db, const struct store_key *k, long max_active);
/* Finds the caller's key by id or key_prefix. */
int store_key_get(struct db *db, const char *user_id, const char *id_or_prefix, struct store_key *out);
/* Deactivates the key (idempotent); *out gets its state afterwards. */
int store_key_revoke(struct db *db, const char *user_id, const char *id_or_prefix, struct store_key *out);
/* Revokes the active key and inserts nk (id, hash, prefix, created_at set by the caller; label
 * and rotated_from are filled here) in one transaction. ST_CONFLICT when the key is revoked. */
int store_key_rotate(struct db *db, const char *user_id, const char *id_or_prefix, struct store_key *nk);
/* The caller's keys, newest first; *out malloc'ed. */
int store_key_list(struct db *db, const char *user_id, struct store_key **out, size_t *n);
/* The active key with this hash, with its owner's tier and role. */
int store_key_by_hash(struct db *db, const char *hash, struct store_key *out);
/* The same, revoked keys included (out->active tells), so a refusal can say which it was. */
int store_key_by_hash_any(struct db *db, const char *hash, struct store_key *out);
int store_key_touch(struct db *db, const char *key_id, const char *ts);

/* Settings: name -> value text. put_if_absent keeps an existing value (race-safe across
 * instances); get copies into out (cap bytes). */
/* Governance assessments: the result document as JSON text. get: *body malloc'ed; another
 * account's assessment is ST_NOTFOUND. */
int store_assessment_insert(struct db *db, const char *id, const char *user_id, const char *framework_id,
                            const char *body, const char *created_at);
int store_assessment_get(struct db *db, const char *user_id, const char *id, char **body);

/* AI assets, per account. The readers malloc connection, auth_sealed and components (store_asset_clear, or
 * store_asset_list_free for a list); writers only read them. */
struct store_asset {
    char id[48], user_id[48];
    char name[520], type[16], provider[520], endpoint[8200], env[264];
    int security_score;
    char risk_level[16], created_at[24];
    int64_t created_us;
    char last_scan_id[48], last_scanned_at[24]; /* "" when never scanned */
    char score_basis[8];  /* "static" or "live" (migration 0020) */
    char *connection;     /* the connection document as JSON text (no secret); NULL when none */
    char *auth_sealed;    /* the connection's secret, sealed (common/seal.h); NULL when none */
    char *components;     /* the validated components list as JSON text (migration 0033); NULL when none */
};
void store_asset_clear(struct store_asset *a);
void store_asset_list_free(struct store_asset *list, size_t n);
int store_asset_insert(struct db *db, const struct store_asset *a);
/* Writes the asset's name, provider, endpoint, env, connection, auth_sealed, security_score,
 * risk_level, score_basis and components as given (the caller read it first and changed what it changes).
 * ST_NOTFOUND when it is not the caller's (any more). */
int store_asset_update(struct db *db, const struct store_asset *a);
/* Newest first (created_us, then id; keyset key: created_us, an integer); type/risk NULL = any;
 * *out: free with store_asset_list_free; *total counts every match. */
int store_asset_list(struct db *db, const char *user_id, const char *type, const char *risk, struct store_page *pg,
                     struct store_asset **out, size_t *n, int64_t *total);
/* The backend's plan of the list's page statement, by offset or after a row, for tests. */
int store_asset_list_plan(struct db *db, bool by_type, bool by_risk, bool keyset, char *out, size_t cap);
/* The caller's asset; another account's is ST_NOTFOUND. */
int store_asset_get(struct db *db, const char *user_id, const char *id, struct store_asset *out);
/* Deletes the caller's asset and its scans, and cancels the engagements still running against it
 * (*cancelled of them). ST_NOTFOUND when it is not the caller's. */
int store_asset_delete(struct db *db, const char *user_id, const char *id, int64_t *cancelled);
/* A finished live scan: stored, and the asset takes its score, level and scan id, in one
 * transaction. ST_NOTFOUND when the asset was deleted meanwhile. */
struct store_asset_scan {
    char id[48], asset_id[48], user_id[48];
    int score;
    char risk_level[16], created_at[24];
    int64_t created_us;
    const char *body; /* the result document (JSON text) */
    /* the evidence columns (migration 0010), computed by the caller; NULL when has_evidence is
     * false */
    bool has_evidence;
    int64_t open_critical, open_high, open_medium, open_low, owasp_hit, owasp_tested;
    const char *owasp_findings;
    /* true: the scan is kept but the asset's score, level and last scan stay (a scan the egress
     * policy stopped); status: bw_scan_status_name (common/states.h; NULL: completed) */
    bool keeps_score;
    const char *status;
};
int store_asset_scan_save(struct db *db, const struct store_asset_scan *s);

/* Re-seals every sealed value in one transaction: each asset's auth_sealed, each webhook's
 * secret_sealed and the seal check setting (name), each through reseal (the old sealed text -> the
 * new one, malloc'ed; NULL aborts and rolls back: ST_ERROR). *n gets how many asset and webhook
 * secrets were re-sealed. */
int store_secrets_reseal(struct db *db, const char *check_setting, char *(*reseal)(void *arg, const char *sealed),
                         void *arg, int64_t *n);

/* A stored document of a list (scans, assessments): id, key and the document text (malloc'ed;
 * store_doc_list_free frees a list). */
struct store_doc {
    char id[48];
    char created_at[24];
    int64_t created_us;
    char *body;
};
void store_doc_list_free(struct store_doc *list, size_t n);
/* The asset's scans (the caller's: user_id), newest first (created_us, id), one page. */
int store_asset_scan_list(struct db *db, const char *user_id, const char *asset_id, struct store_page *pg,
                          struct store_doc **out, size_t *n, int64_t *total);
/* One scan of the caller's asset: *body malloc'ed; ST_NOTFOUND when not theirs. */
int store_asset_scan_get(struct db *db, const char *user_id, const char *asset_id, const char *scan_id, char **body);
/* The caller's assessments, newest first (created_at, id), one page. */
int store_assessment_list(struct db *db, const char *user_id, struct store_page *pg, struct store_doc **out,
                          size_t *n, int64_t *total);

int store_setting_get(struct db *db, const char *name, char *out, size_t cap);
int store_setting_put_if_absent(struct db *db, const char *name, const char *value);
/* Sets the value, replacing one there is. */
int store_setting_put(struct db *db, const char *name, const char *value);

#endif
