/* Replies the resource handlers share, so each answer is written once. */
#ifndef BW_API_API_UTIL_H
#define BW_API_API_UTIL_H

struct bw_req;

/* The answer to a store call that failed (ST_ERROR): 503 UNAVAILABLE "storage unavailable". The
 * database layer has already logged and counted the failure, and the access log line carries the
 * code, so nothing more is logged here. */
void api_reply_storage(struct bw_req *r);

#endif
