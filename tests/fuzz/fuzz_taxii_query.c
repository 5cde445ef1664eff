/* The TAXII 2.1 query parser (src/engine/intel/taxii.c) on any query string: the input is split at
 * '&' into name=value pairs (as libmicrohttpd hands them over, decoded; a pair without '=' has no
 * value). It must never crash or leak, and when it accepts a query: the limit is 1..max, every
 * match list within its bound and each id shaped as a STIX id, the canonical text NUL-terminated
 * and the same when the pairs come in the reverse order (so a `next` does not depend on the order
 * a client writes its parameters in, as long as each is given once), and matching objects built
 * from the query's own values agrees with the filters. */
#include "engine/intel/taxii.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 32

static size_t split(char *text, const char *(*pairs)[2])
{
    size_t n = 0;
    char *p = text;
    while (n < MAX_PAIRS) {
        char *amp = strchr(p, '&');
        if (amp)
            *amp = '\0';
        char *eq = strchr(p, '=');
        if (eq)
            *eq = '\0';
        pairs[n][0] = p;
        pairs[n][1] = eq ? eq + 1 : NULL;
        n++;
        if (!amp)
            break;
        p = amp + 1;
    }
    return n;
}

/* Whether a parameter name appears twice (the server refuses such a query before any handler). */
static int repeated(const char *(*pairs)[2], size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(pairs[i][0], pairs[j][0]) == 0)
                return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *pairs[MAX_PAIRS][2];
    size_t n = split(text, pairs);
    struct bw_taxii_query q;
    json_t *errors = NULL;
    if (bw_taxii_query_parse((const char *const(*)[2])pairs, n, &q, &errors) != 0) {
        if (!json_is_array(errors) || json_array_size(errors) == 0)
            abort();
        json_decref(errors);
        free(text);
        return 0;
    }
    if (errors || q.limit < 1 || q.limit > BW_TAXII_LIMIT_MAX || q.ntypes > BW_TAXII_MATCH_MAX ||
        q.nids > BW_TAXII_MATCH_MAX || q.nversions > BW_TAXII_MATCH_MAX ||
        memchr(q.canon, '\0', sizeof q.canon) == NULL)
        abort();
    for (size_t i = 0; i < q.nids; i++)
        if (!strstr(q.ids[i], "--") || strlen(strstr(q.ids[i], "--") + 2) != 36)
            abort();
    if (!repeated(pairs, n)) {
        const char *rev[MAX_PAIRS][2];
        for (size_t i = 0; i < n; i++) {
            rev[i][0] = pairs[n - 1 - i][0];
            rev[i][1] = pairs[n - 1 - i][1];
        }
        struct bw_taxii_query r;
        if (bw_taxii_query_parse((const char *const(*)[2])rev, n, &r, NULL) != 0 || strcmp(r.canon, q.canon) != 0)
            abort();
        bw_taxii_query_free(&r);
    }
    /* an object named by the query's own first id (or type) and version matches it */
    if (q.spec_21 && q.nids > 0) {
        const char *id = q.ids[0];
        size_t tl = (size_t)(strstr(id, "--") - id);
        char type[256];
        if (tl < sizeof type) {
            memcpy(type, id, tl);
            type[tl] = '\0';
            json_t *o = json_pack("{s:s,s:s,s:s}", "type", type, "id", id, "modified",
                                  q.nversions ? q.versions[0] : "2026-01-01T00:00:00.000Z");
            bool types_ok = q.ntypes == 0;
            for (size_t i = 0; i < q.ntypes; i++)
                types_ok |= strcmp(q.types[i], type) == 0;
            if (o && types_ok && (q.any_version || q.nversions) && !bw_taxii_match(&q, o))
                abort();
            json_decref(o);
        }
    }
    char t[32];
    if (q.has_added_after) {
        int64_t back;
        bw_taxii_time(q.added_after_us, t);
        if (bw_taxii_parse_time(t, &back) != 0 || (q.added_after_us >= 0 && back != q.added_after_us))
            abort();
    }
    bw_taxii_query_free(&q);
    free(text);
    return 0;
}
