/* The request pipeline for red-team engagements: see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "POST /api/ai-security/redteam/engage",
    "GET /api/ai-security/redteam/{id}/report",
    "POST /api/ai-security/redteam/{id}/cancel",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
