/* Route matching on a fixed table: first byte picks the method, the rest is the path. */
#include "common/limits.h"
#include "http/http.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void h(struct bw_req *r) { (void)r; }

static const struct bw_route routes[] = {
    {BW_GET, "/healthz", BW_ACCESS_OPEN, h, 0, NULL},
    {BW_GET, "/api/developer/keys", BW_ACCESS_SESSION, h, 0, NULL},
    {BW_POST, "/api/developer/keys", BW_ACCESS_SESSION, h, BW_ROUTE_BODY, NULL},
    {BW_DELETE, "/api/developer/keys/{id}", BW_ACCESS_SESSION, h, 0, NULL},
    {BW_POST, "/api/developer/keys/{id}/rotate", BW_ACCESS_SESSION, h, 0, NULL},
    {BW_GET, "/api/a/{x}/b/{y}", BW_ACCESS_PUBLIC, h, 0, NULL},
    {BW_PUT, "/api/a/{x}/b/{y}", BW_ACCESS_PUBLIC, h, 0, NULL},
};

static struct bw_req g_req; /* large; overwritten for every input */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int inited;
    if (!inited) {
        if (bw_router_init(routes, sizeof routes / sizeof *routes) != 0)
            abort();
        inited = 1;
    }
    if (size < 1 || size - 1 > BW_MAX_PATH)
        return 0;
    enum bw_method m = (enum bw_method)(data[0] % (BW_OTHER + 1));
    char path[BW_MAX_PATH + 1];
    memcpy(path, data + 1, size - 1);
    path[size - 1] = '\0';
    memset(&g_req, 0, sizeof g_req);
    char allow[64];
    const struct bw_route *rt = bw_router_match(&g_req, m, path, allow, (size_t)(data[0] >> 3) % sizeof allow);
    if (rt) {
        if (g_req.nparams < 0 || g_req.nparams > BW_MAX_PATH_PARAMS)
            abort();
        for (int i = 0; i < g_req.nparams; i++) {
            size_t n = strlen(g_req.params[i]);
            if (n == 0 || n > BW_MAX_PATH_PARAM_LEN || strchr(g_req.params[i], '/'))
                abort();
        }
        if (rt->method != (m == BW_HEAD ? BW_GET : m))
            abort();
    }
    return 0;
}
