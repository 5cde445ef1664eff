/* The request pipeline for the login, the key routes (session only) and managed accounts (an mssp
 * or admin session): see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "POST /api/auth/login",
    "POST /api/developer/keys",
    "GET /api/developer/keys",
    "DELETE /api/developer/keys/{id}",
    "POST /api/developer/keys/{id}/rotate",
    "GET /api/accounts",
    "POST /api/accounts",
    "POST /api/accounts/{id}/disable",
    "POST /api/accounts/{id}/enable",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
