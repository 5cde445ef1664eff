/* Counters of the HTTP layer for /metrics: requests by route template, method and status, latency
 * histograms per route, rate-limit rejections, auth failures and access denials.
 *
 * The hot path takes no lock, allocates nothing and makes no system call: each thread adds to a
 * cache-line aligned slot of its own (BW_METRICS_SLOTS of them; threads beyond that share slots,
 * which only costs contention since the adds are atomic), indexed by the route's position in the
 * static route table and the status's index in a fixed set (common/metrics.h). A scrape sums the
 * slots. Series are written only once they have counted something, except the small fixed sets
 * (auth failure reasons, tiers, principal kinds), which are always there. */
#ifndef BW_HTTP_METRICS_H
#define BW_HTTP_METRICS_H
#include "auth/auth.h"
#include "auth/policy.h"
#include "common/limits.h"
#include "http/http.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The route index of a request that matched no route (404, 405): labelled "unmatched". */
#define BW_HTTP_ROUTE_UNMATCHED ((size_t)BW_METRICS_ROUTES_MAX)

/* One answered request: route is its index in the route table (< BW_METRICS_ROUTES_MAX) or
 * BW_HTTP_ROUTE_UNMATCHED; m the request's method (HEAD on a GET route counts as HEAD). */
void bw_http_metrics_request(size_t route, enum bw_method m, unsigned status, uint64_t dur_us);
/* A 429 from the per-hour limit; account: a JWT or API key caller, else anonymous. */
void bw_http_metrics_rate_limited(bool account);
/* A 401 for a credential that resolve refused. */
void bw_http_metrics_auth_failure(enum bw_auth_fail why);
/* The access policy refused p: 401 (missing or wrong kind of credential), 403 TIER_REQUIRED (by
 * the tier it needs) or 403 FORBIDDEN. */
void bw_http_metrics_denied(const struct bw_decision *d, const struct bw_principal *p);

/* Writes the families above as Prometheus text; routes is the table the indexes refer to. */
void bw_http_metrics_write(FILE *f, const struct bw_route *routes, size_t n);

#endif
