/* Imported indexes of existing package names (migration 0039; src/services/packages.h reads the
 * files). Built on db.h like store.h; return codes are store.h's ST_*.
 *
 * Ownership: the caller keeps what it passes; store_packages_status's array is the caller's to
 * free. */
#ifndef BW_STORE_STORE_PACKAGES_H
#define BW_STORE_STORE_PACKAGES_H
#include "store/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store_pkg_import {
    const char *ecosystem;    /* "npm" | "pypi" */
    const char *const *names; /* normalised, each once */
    size_t n;
    bool replace;             /* the ecosystem's index becomes these names (else they are added) */
    const char *source, *format, *at; /* for status: the file, its format, the time (ISO 8601) */
};

/* Writes the names: on PostgreSQL in one transaction (COPY into a temporary table, then one
 * INSERT of the new ones); on SQLite in transactions of BW_PKG_TX_NAMES names, so the server's
 * writes are not held behind the whole import (a replace empties the index in the first; one
 * that fails midway leaves the names written so far, and the status row of the last import). *added: names that
 * were not in the index; *total: its names after. ST_OK or ST_ERROR. */
int store_packages_import(struct db *db, const struct store_pkg_import *im, int64_t *added, int64_t *total);

/* Whether name (normalised) is in the ecosystem's index: ST_OK (*known set) or ST_ERROR. */
int store_packages_known(struct db *db, const char *ecosystem, const char *name, bool *known);

struct store_pkg_index {
    char ecosystem[16];
    int64_t names;
    char source[256], format[32], imported_at[32];
};
/* Every ecosystem's index, by ecosystem (*out malloc'ed; NULL when none). */
int store_packages_status(struct db *db, struct store_pkg_index **out, size_t *n);

/* Empties the ecosystem's index (NULL: every one); *removed names. ST_OK or ST_ERROR. */
int store_packages_clear(struct db *db, const char *ecosystem, int64_t *removed);

#endif
