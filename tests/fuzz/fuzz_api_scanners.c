/* The request pipeline for the code, agent and MCP scanners: see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "POST /api/vibe-code/scan",
    "GET /api/vibe-code/patterns",
    "POST /api/ai-security/agents/scan",
    "POST /api/mcp-security/scan",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
