/* Imported indexes of existing package names (packages.h). */
#include "services/packages.h"

#include "common/gzip.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/sbuf.h"
#include "common/timeutil.h"
#include "common/vec.h"
#include "store/store.h"
#include "store/store_packages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names as read: one arena of NUL-terminated names and their offsets (pointers are taken
 * once the arena has stopped moving). */
struct collect {
    struct bw_sb arena;
    BW_VEC(size_t) at;
};

static int collect_name(void *arg, const char *name, size_t len, struct bw_pkg_reject *rej)
{
    struct collect *c = arg;
    if (c->at.size >= BW_PKG_INDEX_MAX_NAMES) {
        snprintf(rej->msg, sizeof rej->msg, "more than %d names (BW_PKG_INDEX_MAX_NAMES)", BW_PKG_INDEX_MAX_NAMES);
        return -1;
    }
    if (!bw_vec_reserve(&c->at, c->at.size + 1, BW_PKG_INDEX_MAX_NAMES)) {
        snprintf(rej->msg, sizeof rej->msg, "out of memory");
        return -1;
    }
    c->at.entries[c->at.size++] = c->arena.len;
    bw_sb_putn(&c->arena, name, len);
    bw_sb_putc(&c->arena, '\0');
    if (c->arena.oom) {
        snprintf(rej->msg, sizeof rej->msg, "out of memory");
        return -1;
    }
    return 0;
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The names of buf, sorted, each once: *names points into c->arena. 0, or -1 with rej set. */
static int read_names(int eco, int format, const char *buf, size_t len, struct collect *c, const char ***names,
                      size_t *n, struct bw_pkg_report *rep, struct bw_pkg_reject *rej)
{
    char *inflated = NULL;
    size_t ilen = 0;
    memset(rej, 0, sizeof *rej);
    if (bw_is_gzip(buf, len)) {
        rep->gzip = true;
        if (bw_gunzip(buf, len, BW_PKG_INDEX_MAX_FILE, &inflated, &ilen, rej->msg, sizeof rej->msg) != 0)
            return -1;
        buf = inflated;
        len = ilen;
    }
    int rc = bw_pkg_parse(eco, format, buf, len, collect_name, c, &rep->format, rej);
    free(inflated);
    if (rc != 0)
        return -1;
    rep->read = (int64_t)c->at.size;
    const char **v = malloc(c->at.size * sizeof *v);
    if (!v) {
        snprintf(rej->msg, sizeof rej->msg, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < c->at.size; i++)
        v[i] = c->arena.p + c->at.entries[i];
    qsort(v, c->at.size, sizeof *v, cmp_name);
    size_t k = 0;
    for (size_t i = 0; i < c->at.size; i++)
        if (k == 0 || strcmp(v[k - 1], v[i]) != 0)
            v[k++] = v[i];
    *names = v;
    *n = k;
    rep->distinct = (int64_t)k;
    return 0;
}

int bw_packages_import(struct db *db, int eco, int format, const char *buf, size_t len, bool replace,
                       const char *source, struct bw_pkg_report *rep, struct bw_pkg_reject *rej)
{
    memset(rep, 0, sizeof *rep);
    struct collect c = {0};
    const char **names = NULL;
    size_t n = 0;
    int rc = read_names(eco, format, buf, len, &c, &names, &n, rep, rej);
    if (rc == 0) {
        char at[21];
        bw_iso8601(bw_now_s(), at);
        struct store_pkg_import im = {.ecosystem = bw_pkg_eco_name(eco),
                                      .names = names,
                                      .n = n,
                                      .replace = replace,
                                      .source = source ? source : "",
                                      .format = bw_pkg_format_name(rep->format),
                                      .at = at};
        if (store_packages_import(db, &im, &rep->added, &rep->total) != ST_OK)
            rc = -2;
    }
    free(names);
    free(c.arena.p);
    free(c.at.entries);
    return rc;
}

/* One lookup a name; a database that does not answer leaves the name unverified (and logs). */
static bool index_known(void *arg, const char *ecosystem, const char *name)
{
    bool known = false;
    if (store_packages_known(arg, ecosystem, name, &known) != ST_OK) {
        bw_logf(BW_LOG_WARN, NULL, "package index: lookup failed; %s %s stays unverified", ecosystem, name);
        return false;
    }
    return known;
}

struct bw_rt_pkg_index bw_packages_index(struct db *db) { return (struct bw_rt_pkg_index){index_known, db}; }
