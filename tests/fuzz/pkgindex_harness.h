/* The imported package index's readers (src/engine/pkgindex.c), one fuzz target per format
 * (fuzz_pkg_*.c), with the same checks: every name handed over is in the ecosystem's normal form
 * (normalising it again changes nothing) and within BW_PKG_NAME_MAX; a refusal says why and
 * where. The first byte picks the ecosystem, the rest is the file. */
#ifndef BW_FUZZ_PKGINDEX_HARNESS_H
#define BW_FUZZ_PKGINDEX_HARNESS_H
#include "engine/pkgindex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pkg_fuzz {
    int eco;
    size_t names;
};

static int pkg_fuzz_name(void *arg, const char *name, size_t len, struct bw_pkg_reject *rej)
{
    (void)rej;
    struct pkg_fuzz *f = arg;
    char again[BW_PKG_NAME_MAX + 1];
    if (len == 0 || len > BW_PKG_NAME_MAX || strlen(name) != len)
        abort();
    if (bw_pkg_normalise(f->eco, name, len, again, sizeof again) != len || memcmp(again, name, len) != 0)
        abort();
    f->names++;
    return 0;
}

static int pkg_fuzz_run(int format, const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct pkg_fuzz f = {.eco = data[0] & 1 ? BW_PKG_PYPI : BW_PKG_NPM};
    struct bw_pkg_reject rej;
    int used = -1;
    int rc = bw_pkg_parse(f.eco, format, (const char *)data + 1, size - 1, pkg_fuzz_name, &f, &used, &rej);
    if (format != BW_PKGF_AUTO && used != format)
        abort();
    if (rc == 0 && f.names == 0)
        abort();
    if (rc != 0 && (!rej.msg[0] || rej.line < 1 || rej.column < 1))
        abort();
    return 0;
}

#endif
