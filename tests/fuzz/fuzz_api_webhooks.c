/* The request pipeline for the webhook routes (registration with its URL and event checks, the
 * list, delete, the delivery log's cursor paging and the test ping): see api_harness.h. A
 * registered URL is never looked up or connected to here: delivery is the job queue's, and the
 * harness aborts on any lookup. */
#include <stddef.h>

static const char *const FUZZ_API_ROUTES[] = {
    "POST /api/webhooks",
    "GET /api/webhooks",
    "DELETE /api/webhooks/{id}",
    "GET /api/webhooks/{id}/deliveries",
    "POST /api/webhooks/{id}/ping",
    NULL,
};
#define FUZZ_API_UNMATCHED 0
#include "api_harness.h"
