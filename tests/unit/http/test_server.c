/* The HTTP layer on its own (src/http/server.c): a context, a route table and hooks, no
 * application. The response hook sees every answered request once, with its final status (also
 * after work on the pool); handlers get the opaque context; readiness asks its hook. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/config.h"
#include "common/log.h"
#include "common/pool.h"
#include "http/http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_marker; /* the handlers' context: its address */

static void h_ok(struct bw_req *r)
{
    static const char body[] = "{\"ok\":true}";
    if (r->ctx != &g_marker) {
        bw_reply_internal(r, "handler context not passed");
        return;
    }
    bw_reply_static(r, 200, body, sizeof body - 1);
}

static void h_echo(struct bw_req *r) { bw_reply_json(r, 201, json_incref(r->json)); }

static void slow_work(struct bw_req *r) { bw_reply_json(r, 202, json_pack("{s:b}", "deferred", 1)); }

static void h_slow(struct bw_req *r) { bw_req_defer(r, slow_work); }

static const struct bw_route routes[] = {
    {BW_GET, "/ok", BW_ACCESS_OPEN, h_ok, 0, NULL},
    {BW_POST, "/echo", BW_ACCESS_OPEN, h_echo, BW_ROUTE_BODY, NULL},
    {BW_GET, "/slow", BW_ACCESS_OPEN, h_slow, 0, NULL},
    {BW_GET, "/readyz", BW_ACCESS_OPEN, bw_http_readyz, 0, NULL},
};

/* What the response hook saw. */
static struct {
    int calls;
    unsigned status;
    const struct bw_route *route;
    void *ctx;
} g_seen;

static void on_response(void *arg, const struct bw_req *r, unsigned status)
{
    assert_ptr_equal(arg, &g_seen);
    g_seen.calls++;
    g_seen.status = status;
    g_seen.route = r->route;
    g_seen.ctx = r->ctx;
}

static const char *g_not_ready; /* what the readiness hook answers */

static const char *ready(void *arg)
{
    assert_ptr_equal(arg, &g_not_ready);
    return g_not_ready;
}

static struct bw_config g_cfg;
static struct bw_http_ctx g_h;

static int setup(void **state)
{
    (void)state;
    bw_log_set_level(BW_LOG_ERROR); /* no access log lines */
    g_cfg.max_body = 64;
    g_h.cfg = &g_cfg;
    g_h.blocking = bw_pool_new(1, 4);
    g_h.backend = "test";
    g_h.on_response.fn = on_response;
    g_h.on_response.arg = &g_seen;
    g_h.ready.fn = ready;
    g_h.ready.arg = &g_not_ready;
    g_h.handler_ctx = &g_marker;
    return g_h.blocking && bw_router_init(routes, sizeof routes / sizeof routes[0]) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    bw_pool_free(g_h.blocking);
    return 0;
}

/* One request; the reply's status, its body in body (cap bytes). */
static unsigned call(const char *method, const char *url, const char *json, char *body, size_t cap)
{
    static const char *const hdrs[][2] = {{"Content-Type", "application/json"}};
    struct bw_synth_req in = {.method = method, .url = url, .headers = hdrs, .nheaders = 1, .ip = "192.0.2.1",
                              .body = json, .body_len = json ? strlen(json) : 0};
    struct bw_synth_resp out;
    memset(&g_seen, 0, sizeof g_seen);
    assert_int_equal(bw_http_synthetic(&g_h, &in, &out), 0);
    snprintf(body, cap, "%s", out.body);
    free(out.body);
    return out.status;
}

static void hook_sees_final_status(void **state)
{
    (void)state;
    char body[512];
    static const struct {
        const char *method, *url, *json;
        unsigned status;
        int route; /* index in routes, -1 for none */
    } cases[] = {
        {"GET", "/ok", NULL, 200, 0},
        {"POST", "/echo", "{\"a\":1}", 201, 1},
        {"POST", "/echo", "{\"a\":", 400, 1},
        {"POST", "/echo", "{\"a\":\"0123456789012345678901234567890123456789012345678901234567890123\"}", 413, 1},
        {"GET", "/nope", NULL, 404, -1},
        {"DELETE", "/ok", NULL, 405, -1},
        {"BREW", "/ok", NULL, 501, -1},
        {"GET", "/slow", NULL, 202, 2}, /* answered on the pool: the hook runs once that is done */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned st = call(cases[i].method, cases[i].url, cases[i].json, body, sizeof body);
        assert_int_equal(st, cases[i].status);
        assert_int_equal(g_seen.calls, 1);
        assert_int_equal(g_seen.status, st);
        assert_ptr_equal(g_seen.route, cases[i].route < 0 ? NULL : &routes[cases[i].route]);
        assert_ptr_equal(g_seen.ctx, &g_marker);
    }
    assert_int_equal(call("GET", "/ok", NULL, body, sizeof body), 200);
    assert_string_equal(body, "{\"ok\":true}");

    /* no hook registered: requests are answered all the same */
    g_h.on_response.fn = NULL;
    assert_int_equal(call("GET", "/ok", NULL, body, sizeof body), 200);
    assert_int_equal(g_seen.calls, 0);
    g_h.on_response.fn = on_response;
}

static void readyz_asks_its_hook(void **state)
{
    (void)state;
    char body[512];
    g_not_ready = NULL;
    assert_int_equal(call("GET", "/readyz", NULL, body, sizeof body), 200);
    assert_string_equal(body, "{\"status\":\"ready\",\"database\":\"test\"}");

    g_not_ready = "storage unreachable";
    assert_int_equal(call("GET", "/readyz", NULL, body, sizeof body), 503);
    assert_non_null(strstr(body, "\"code\":\"UNAVAILABLE\""));
    assert_non_null(strstr(body, "\"message\":\"storage unreachable\""));
    g_not_ready = NULL;

    /* draining wins over the hook, and open routes still answer */
    atomic_store(&g_h.stopping, true);
    assert_int_equal(call("GET", "/readyz", NULL, body, sizeof body), 503);
    assert_non_null(strstr(body, "\"message\":\"shutting down\""));
    assert_int_equal(call("GET", "/ok", NULL, body, sizeof body), 200);
    atomic_store(&g_h.stopping, false);

    g_h.ready.fn = NULL; /* no hook: always ready */
    assert_int_equal(call("GET", "/readyz", NULL, body, sizeof body), 200);
    g_h.ready.fn = ready;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hook_sees_final_status),
        cmocka_unit_test(readyz_asks_its_hook),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
