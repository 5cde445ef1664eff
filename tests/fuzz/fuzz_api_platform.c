/* The request pipeline for health, the OpenAPI document and metrics, and requests no route takes (404, 405, 501): see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "GET /healthz",
    "GET /readyz",
    "GET /api/openapi.json",
    "GET /metrics",
    NULL,
};
#define FUZZ_API_UNMATCHED 1
#include "api_harness.h"
