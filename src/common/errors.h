/* The one table of API errors: enum, JSON code, HTTP status and default message. */
#ifndef BW_COMMON_ERRORS_H
#define BW_COMMON_ERRORS_H

#define BW_ERROR_MAP(X)                                                                    \
    X(VALIDATION_ERROR, 400, "request validation failed")                                  \
    X(INVALID_CREDENTIALS, 400, "invalid email or password")                               \
    X(AUTH_REQUIRED, 401, "authentication required")                                       \
    X(TIER_REQUIRED, 403, "your plan does not include this endpoint; upgrade required")    \
    X(FORBIDDEN, 403, "not allowed")                                                       \
    X(NOT_FOUND, 404, "resource not found")                                                \
    X(METHOD_NOT_ALLOWED, 405, "method not allowed")                                       \
    X(KEY_LIMIT_REACHED, 409, "key limit reached for your tier")                           \
    X(ENGAGEMENT_LIMIT_REACHED, 409, "too many active red-team engagements for your tier")  \
    X(CONFLICT, 409, "conflict")                                                           \
    X(PAYLOAD_TOO_LARGE, 413, "request body too large")                                    \
    X(UNSUPPORTED_MEDIA_TYPE, 415, "request body must be application/json")                \
    X(RESULT_TOO_LARGE, 422, "the answer would exceed a limit")                            \
    X(HEADERS_TOO_LARGE, 431, "request header fields too large")                           \
    X(RATE_LIMITED, 429, "too many requests")                                              \
    X(INTERNAL_ERROR, 500, "internal error")                                               \
    X(NOT_IMPLEMENTED, 501, "method not implemented")                                      \
    X(UNAVAILABLE, 503, "service unavailable")

enum bw_err {
    BW_OK = 0,
#define BW_X(name, status, msg) BW_E_##name,
    BW_ERROR_MAP(BW_X)
#undef BW_X
    BW_E__COUNT
};

/* The message of a storage failure: the 503's (api_reply_storage, the readiness gate) and the
 * error a job records when the store fails it. */
#define BW_MSG_STORAGE_UNAVAILABLE "storage unavailable"

const char *bw_err_code(enum bw_err e);    /* "VALIDATION_ERROR" */
unsigned bw_err_status(enum bw_err e);     /* 400 */
const char *bw_err_message(enum bw_err e); /* default human text */

#endif
