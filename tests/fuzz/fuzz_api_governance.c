/* The request pipeline for governance frameworks and assessments: see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "GET /api/ai-security/governance/frameworks",
    "GET /api/ai-security/governance/frameworks/{id}",
    "POST /api/ai-security/governance/assess",
    "GET /api/ai-security/governance/assessments/{id}",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
