/* Replies the resource handlers share, so each answer is written once. */
#ifndef BW_API_API_UTIL_H
#define BW_API_API_UTIL_H

#include <jansson.h>

struct bw_req;

/* The answer to a store call that failed (ST_ERROR): 503 UNAVAILABLE "storage unavailable". The
 * database layer has already logged and counted the failure, and the access log line carries the
 * code, so nothing more is logged here. */
void api_reply_storage(struct bw_req *r);

/* The answer to a pure engine's scan of the request body (agent and MCP scans): with errors (the
 * engine's {field, message} list) 400 VALIDATION_ERROR naming the fields; without a result 500
 * (failed: the logged reason); else 200 with result and its scanned_at, now. Takes both. */
void api_reply_scan(struct bw_req *r, json_t *result, json_t *errors, const char *failed);

#endif
