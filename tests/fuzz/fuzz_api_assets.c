/* The request pipeline for the AI asset register (with its components lists), its CycloneDX BOM and
 * its live scan: see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "POST /api/ai-security/assets/register",
    "GET /api/ai-security/assets",
    "GET /api/ai-security/assets/{id}",
    "PATCH /api/ai-security/assets/{id}",
    "GET /api/ai-security/assets/bom",
    "DELETE /api/ai-security/assets/{id}",
    "POST /api/ai-security/assets/{id}/scan",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
