#include "auth/policy.h"

static struct bw_decision allow(void) { return (struct bw_decision){BW_OK, BW_TIER_FREE, NULL}; }

static struct bw_decision deny(enum bw_err e, enum bw_tier t, const char *m)
{
    return (struct bw_decision){e, t, m};
}

static bool is_account(const struct bw_principal *p)
{
    return p->kind == BW_AUTH_JWT || p->kind == BW_AUTH_APIKEY;
}

/* The admin key is a valid credential, but not an account's: routes that act for an account
 * refuse it with 403 (it authenticated; it may not do this) and name what they take instead. */
static struct bw_decision admin_key_refused(enum bw_tier need)
{
    return deny(BW_E_FORBIDDEN, need,
                "the admin key cannot be used here: this endpoint acts for an account; send an account's "
                "bearer token (Authorization: Bearer) or API key (X-API-Key)");
}

static struct bw_decision tier_at_least(const struct bw_principal *p, enum bw_tier need, const char *m)
{
    if (p->kind == BW_AUTH_ANON)
        return deny(BW_E_AUTH_REQUIRED, need, "authentication required: send a bearer token or an X-API-Key");
    if (p->kind == BW_AUTH_ADMINKEY)
        return admin_key_refused(need);
    if (p->tier >= need)
        return allow();
    return deny(BW_E_TIER_REQUIRED, need, m);
}

struct bw_decision bw_policy_check(enum bw_access a, const struct bw_principal *p)
{
    switch (a) {
    case BW_ACCESS_OPEN:
    case BW_ACCESS_PUBLIC:
    case BW_ACCESS_LOGIN:
        return allow();
    case BW_ACCESS_SIGNED_IN:
        if (p->kind == BW_AUTH_ADMINKEY)
            return admin_key_refused(BW_TIER_FREE);
        return is_account(p) ? allow()
                             : deny(BW_E_AUTH_REQUIRED, BW_TIER_FREE, "sign in first: send a bearer token or an X-API-Key");
    case BW_ACCESS_SESSION:
        if (p->kind == BW_AUTH_ADMINKEY)
            return deny(BW_E_FORBIDDEN, BW_TIER_FREE,
                        "the admin key cannot be used here: key management and password changes need an "
                        "account's session token (Authorization: Bearer, from POST /api/auth/login)");
        return p->kind == BW_AUTH_JWT
                   ? allow()
                   : deny(BW_E_AUTH_REQUIRED, BW_TIER_FREE,
                          "log in first: key management and password changes need a session token "
                          "(Authorization: Bearer)");
    case BW_ACCESS_STARTER:
        return tier_at_least(p, BW_TIER_STARTER, "this endpoint needs the STARTER plan or above");
    case BW_ACCESS_PRO:
        return tier_at_least(p, BW_TIER_PRO, "this endpoint needs the PRO plan or above");
    case BW_ACCESS_PRIVILEGED:
        if (p->kind == BW_AUTH_ADMINKEY ||
            (is_account(p) && (p->tier == BW_TIER_ENTERPRISE || p->role == BW_ROLE_MSSP || p->role == BW_ROLE_ADMIN)))
            return allow();
        if (p->kind == BW_AUTH_ANON)
            return deny(BW_E_AUTH_REQUIRED, BW_TIER_ENTERPRISE, "authentication required");
        return deny(BW_E_TIER_REQUIRED, BW_TIER_ENTERPRISE,
                    "this endpoint needs an ENTERPRISE plan, an mssp or admin role, or the admin key");
    case BW_ACCESS_ADMIN:
        if (p->kind == BW_AUTH_ADMINKEY || (is_account(p) && p->role == BW_ROLE_ADMIN))
            return allow();
        if (p->kind == BW_AUTH_ANON)
            return deny(BW_E_AUTH_REQUIRED, BW_TIER_FREE, "authentication required");
        return deny(BW_E_FORBIDDEN, BW_TIER_FREE, "this endpoint needs the admin key or the admin role");
    case BW_ACCESS_MANAGER:
        /* creating and disabling accounts: a session only, as key management (a leaked API key must
         * not mint accounts), and only accounts that manage others */
        if (p->kind == BW_AUTH_ADMINKEY)
            return deny(BW_E_FORBIDDEN, BW_TIER_FREE,
                        "the admin key cannot be used here: managed accounts need the session of an mssp or "
                        "admin account (Authorization: Bearer, from POST /api/auth/login); on the host, use "
                        "bulwark user");
        if (p->kind != BW_AUTH_JWT)
            return deny(BW_E_AUTH_REQUIRED, BW_TIER_FREE,
                        "log in first: managed accounts need a session token (Authorization: Bearer)");
        if (p->role == BW_ROLE_MSSP || p->role == BW_ROLE_ADMIN)
            return allow();
        return deny(BW_E_FORBIDDEN, BW_TIER_FREE, "managed accounts need the mssp or admin role");
    }
    return deny(BW_E_FORBIDDEN, BW_TIER_FREE, "not allowed");
}

const char *bw_access_name(enum bw_access a)
{
    switch (a) {
    case BW_ACCESS_OPEN: return "open";
    case BW_ACCESS_PUBLIC: return "public";
    case BW_ACCESS_LOGIN: return "login";
    case BW_ACCESS_SIGNED_IN: return "signed_in";
    case BW_ACCESS_SESSION: return "session";
    case BW_ACCESS_STARTER: return "starter";
    case BW_ACCESS_PRO: return "pro";
    case BW_ACCESS_PRIVILEGED: return "privileged";
    case BW_ACCESS_ADMIN: return "admin";
    case BW_ACCESS_MANAGER: return "manager";
    }
    return "?";
}
