/* Imported indexes of existing package names (issue 20, LLM09): `bulwark packages import` reads a
 * file (engine/pkgindex.h's formats, plain or gzip-compressed) and puts its names into the store
 * (store/store_packages.h); the red team's judge asks the store through bw_packages_index after
 * the embedded lists. The index lives in the database, so a running server sees an import at
 * its next check (each check is a point lookup, nothing is cached to reload) and every instance
 * on one database sees the same names.
 *
 * Ownership: the caller keeps buf; nothing returned needs freeing. */
#ifndef BW_SERVICES_PACKAGES_H
#define BW_SERVICES_PACKAGES_H
#include "engine/pkgindex.h"
#include "engine/redteam/judge.h"
#include "store/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bw_pkg_report {
    int format;         /* the format read */
    bool gzip;          /* the file was gzip-compressed */
    int64_t read;       /* names read, duplicates included */
    int64_t distinct;   /* after normalising, each once */
    int64_t added;      /* not in the index before */
    int64_t total;      /* the ecosystem's index after */
};

/* Reads buf (len bytes; gzip-compressed is inflated first, up to BW_PKG_INDEX_MAX_FILE bytes)
 * in format (BW_PKGF_AUTO: detected) as names of ecosystem eco, and writes them (replace: they
 * become the whole index, else they are added). source names the file for status. The file is
 * read whole before anything is written: a malformed one, one without names or with more than
 * BW_PKG_INDEX_MAX_NAMES changes nothing. 0 with *rep; -1 with rej set (the input); -2 the
 * database failed. */
int bw_packages_import(struct db *db, int eco, int format, const char *buf, size_t len, bool replace,
                       const char *source, struct bw_pkg_report *rep, struct bw_pkg_reject *rej);

/* The judge's view of the imported index on db: a point lookup per name (judge.h). */
struct bw_rt_pkg_index bw_packages_index(struct db *db);

#endif
