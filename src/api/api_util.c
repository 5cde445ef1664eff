#include "api/api_util.h"

#include "http/http.h"

void api_reply_storage(struct bw_req *r) { bw_reply_error(r, BW_E_UNAVAILABLE, "storage unavailable", NULL); }
