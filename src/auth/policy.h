/* Access levels of routes and the one decision of who may call what. Pure: no I/O. */
#ifndef BW_AUTH_POLICY_H
#define BW_AUTH_POLICY_H
#include "auth/auth.h"
#include "common/errors.h"

enum bw_access {
    BW_ACCESS_OPEN,       /* no credentials read, not rate limited (health) */
    BW_ACCESS_PUBLIC,     /* anonymous or any valid credential; rate limited */
    BW_ACCESS_LOGIN,      /* public, governed by the failed-login throttle instead */
    BW_ACCESS_SIGNED_IN,  /* any account credential (JWT or API key) */
    BW_ACCESS_SESSION,    /* JWT only: key management, password change */
    BW_ACCESS_STARTER,    /* account at STARTER or above */
    BW_ACCESS_PRO,        /* account at PRO or above */
    BW_ACCESS_PRIVILEGED, /* ENTERPRISE, role mssp/admin, or the admin key */
    BW_ACCESS_ADMIN,      /* the admin key or role admin */
    BW_ACCESS_MANAGER,    /* a session (JWT or console) of role mssp or admin: managed accounts */
};

struct bw_decision {
    enum bw_err err;            /* BW_OK, AUTH_REQUIRED, TIER_REQUIRED or FORBIDDEN */
    enum bw_tier required_tier; /* with TIER_REQUIRED */
    const char *message;        /* static text for the error reply */
};

/* Decides whether principal p may call a route of access level a. */
struct bw_decision bw_policy_check(enum bw_access a, const struct bw_principal *p);
/* The level's name as the OpenAPI document writes it (x-bulwark-access). */
const char *bw_access_name(enum bw_access a);

#endif
