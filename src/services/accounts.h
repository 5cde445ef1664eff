/* Creating an account, whoever asks: `bulwark user add` (src/cli/user.c) and POST /api/accounts
 * (src/api/accounts.c) check the same fields with the same words and store the account the same
 * way. The checks are pure; bw_account_create hashes the password (argon2id: call it from a
 * blocking pool thread, never an HTTP event thread) and inserts the row.
 *
 * Ownership: nothing is allocated; the caller's buffers are filled. */
#ifndef BW_SERVICES_ACCOUNTS_H
#define BW_SERVICES_ACCOUNTS_H
#include "common/config.h"
#include "common/limits.h"
#include "store/db.h"
#include "store/store.h"

#include <jansson.h>
#include <stdbool.h>

/* Whether e is an email address as accounts take them: 3..BW_EMAIL_MAX bytes, one '@' with
 * something on both sides, no control character or space. */
bool bw_account_email_ok(const char *e);
/* e lowercased (emails are stored so) into out, cut at BW_EMAIL_MAX bytes. */
void bw_account_email_lower(const char *e, char out[BW_EMAIL_MAX + 1]);
/* Whether a password's length is BW_PASSWORD_MIN..BW_PASSWORD_MAX bytes. */
bool bw_account_password_ok(const char *pw);

/* What is wrong with a tier, role, email or password, worded for a message after the field's
 * name ("must be FREE, STARTER, PRO or ENTERPRISE"), or NULL when it is good. */
#define BW_ACCOUNT_TIER_WORDS "must be FREE, STARTER, PRO or ENTERPRISE"
#define BW_ACCOUNT_ROLE_WORDS "must be user, mssp or admin"
#define BW_ACCOUNT_EMAIL_WORDS "is not an email address"
#define BW_ACCOUNT_PASSWORD_WORDS "must be 8 to 256 bytes"
_Static_assert(BW_PASSWORD_MIN == 8 && BW_PASSWORD_MAX == 256, "BW_ACCOUNT_PASSWORD_WORDS names the limits");

/* The account as `bulwark user` prints it and /api/accounts answers it: {id, email, tier, role,
 * managed_by (null when none), created_at, disabled}; never its password hash or token generation.
 * A new reference. */
json_t *bw_account_json(const struct store_user *u);

/* A new account: email (checked, lowercased here), the password hashed, a new usr_ id, now as
 * created_at, managed_by the manager's account id ("" or NULL: none). *out gets the row as stored
 * (its password_hash included: the caller must not show it). ST_OK; ST_CONFLICT when the email is
 * taken; ST_ERROR when the database failed (logged) or hashing failed (*hash_failed set). */
int bw_account_create(struct db *db, const char *email, const char *password, enum bw_tier tier, enum bw_role role,
                      const char *managed_by, struct store_user *out, bool *hash_failed);

#endif
