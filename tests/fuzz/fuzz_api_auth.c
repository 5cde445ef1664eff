/* The request pipeline for the login and the key routes (session only): see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "POST /api/auth/login",
    "POST /api/developer/keys",
    "GET /api/developer/keys",
    "DELETE /api/developer/keys/{id}",
    "POST /api/developer/keys/{id}/rotate",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
