/* The request pipeline for the threat feed and playbooks: see api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "GET /api/ai-security/threat-feed",
    "GET /api/ai-security/threat-feed/{id}",
    "GET /api/threat-intel/{id}/playbook",
    "POST /api/threat-intel/{id}/playbook",
    "GET /api/threat-intel/playbooks/history",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
