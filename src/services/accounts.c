#include "services/accounts.h"

#include "auth/password.h"
#include "common/ids.h"
#include "common/timeutil.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool bw_account_email_ok(const char *e)
{
    size_t n = strlen(e);
    const char *at = strchr(e, '@');
    if (n < 3 || n > BW_EMAIL_MAX || !at || at == e || !at[1] || strchr(at + 1, '@'))
        return false;
    for (const char *c = e; *c; c++)
        if ((unsigned char)*c <= ' ' || *c == 0x7f)
            return false;
    return true;
}

void bw_account_email_lower(const char *e, char out[BW_EMAIL_MAX + 1])
{
    size_t i = 0;
    for (; e[i] && i < BW_EMAIL_MAX; i++)
        out[i] = (char)tolower((unsigned char)e[i]);
    out[i] = '\0';
}

bool bw_account_password_ok(const char *pw)
{
    size_t n = strlen(pw);
    return n >= BW_PASSWORD_MIN && n <= BW_PASSWORD_MAX;
}

json_t *bw_account_json(const struct store_user *u)
{
    return json_pack("{s:s,s:s,s:s,s:s,s:s?,s:s,s:b}", "id", u->id, "email", u->email, "tier", bw_tier_name(u->tier),
                     "role", bw_role_name(u->role), "managed_by", u->managed_by[0] ? u->managed_by : NULL,
                     "created_at", u->created_at, "disabled", u->disabled);
}

int bw_account_create(struct db *db, const char *email, const char *password, enum bw_tier tier, enum bw_role role,
                      const char *managed_by, struct store_user *out, bool *hash_failed)
{
    *hash_failed = false;
    memset(out, 0, sizeof *out);
    bw_account_email_lower(email, out->email);
    if (managed_by)
        snprintf(out->managed_by, sizeof out->managed_by, "%s", managed_by);
    bw_id_new("usr_", out->id);
    out->tier = tier;
    out->role = role;
    bw_iso8601(bw_now_s(), out->created_at);
    if (bw_password_hash(password, out->password_hash) != 0) {
        *hash_failed = true;
        return ST_ERROR;
    }
    return store_user_insert(db, out);
}
