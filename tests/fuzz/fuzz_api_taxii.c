/* The request pipeline for the STIX bundle and the TAXII 2.1 routes (Accept negotiation, HTTP
 * Basic credentials, the query parameters, `next` cursors, the TAXII error resource): see
 * api_harness.h. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "GET /api/ai-security/threat-feed/stix",
    "GET /taxii2/",
    "GET /taxii2/intel/",
    "GET /taxii2/intel/collections/",
    "GET /taxii2/intel/collections/{id}/",
    "GET /taxii2/intel/collections/{id}/objects/",
    "GET /taxii2/intel/collections/{id}/objects/{object_id}/",
    "GET /taxii2/intel/collections/{id}/manifest/",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
