/* The request pipeline for the orchestrator (god mode): see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "GET /api/orchestrator/god-mode/status",
    "GET /api/orchestrator/god-mode/ciso",
    "GET /api/orchestrator/god-mode/aspm",
    "GET /api/orchestrator/god-mode/compliance",
    "GET /api/orchestrator/god-mode/hunt-pack",
    "POST /api/orchestrator/god-mode/run",
    "GET /api/orchestrator/god-mode/run/{job_id}",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
