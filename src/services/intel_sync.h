/* `bulwark intel sync`: fetches the public intel sources and imports what changed, through the
 * same parse-everything-then-one-transaction path as `bulwark intel import` (intel_ingest.h).
 *
 * Sources, in this order (OSV first, so that KEV entries about its CVEs join their records; KEV
 * and ATLAS before EPSS, so that EPSS, last, scores the records they add): OSV advisories (a zip
 * or a JSON list, src/engine/intel/osvlist.h, kept to the packages of osv_packages), the CISA KEV
 * catalog (JSON), MITRE ATLAS (ATLAS.yaml), FIRST's EPSS CSV (gzip or plain).
 * Each is fetched through the egress guard (src/net/egress.h) under the operator's
 * BULWARK_EGRESS_ALLOW, at most BW_INTEL_SYNC_MAX_BYTES in BW_INTEL_SYNC_TIMEOUT_MS, redirects
 * followed (the public hosts redirect) and checked hop by hop, TLS verified.
 *
 * Conditional requests: the ETag and Last-Modified of the last response imported from a URL are
 * kept (intel_sync_state) and sent back as If-None-Match / If-Modified-Since; a 304 imports
 * nothing. Validators are stored only after the import committed, so a refused or failed
 * download is fetched whole the next time. A body cut at the size limit, a status other than
 * 200/304, a truncated gzip or any malformed document stores nothing from that source (its
 * state records why); the other sources go on.
 *
 * Blocking: network and database; call it from a CLI or a job, never an event thread. */
#ifndef BW_SERVICES_INTEL_SYNC_H
#define BW_SERVICES_INTEL_SYNC_H
#include "store/db.h"

#include <stdbool.h>
#include <stdint.h>

#define BW_SYNC_SOURCES 4

struct bw_sync_opts {
    const char *url[BW_SYNC_SOURCES]; /* kev, atlas, epss, osv; NULL: that source is off */
    const char *osv_packages;         /* the OSV package filter (osvlist.h); NULL: every advisory */
    unsigned egress_allow;
    const char *only; /* "kev" | "atlas" | "epss" | "osv" | NULL for every source */
    long timeout_ms;  /* one source's whole download; 0: BW_INTEL_SYNC_TIMEOUT_MS */
    /* called before each source is fetched (a job keeps its lease); false stops the sync there:
     * the sources left get status "stopped" and bw_intel_sync returns -2. NULL: never stops. */
    bool (*before_source)(void *arg);
    void *arg;
};

/* What became of one source; the names (bw_sync_status_name) are what intel_sync_state.status
 * stores and the CLI prints. */
enum bw_sync_status {
    BW_SYNC_OFF, BW_SYNC_IMPORTED, BW_SYNC_NOT_MODIFIED, BW_SYNC_REJECTED, BW_SYNC_FAILED,
    BW_SYNC_STOPPED /* a job's before_source said stop (its lease is gone) */
};
#define BW_SYNC__STATUSES 6
/* "off", "imported", "not_modified", "rejected", "failed", "stopped"; NULL outside the enum. */
const char *bw_sync_status_name(enum bw_sync_status s);

struct bw_sync_outcome {
    char source[8];
    enum bw_sync_status status;
    char error[400]; /* a parser's message (300) after its position */
    long http_status;
    /* imported: the import's counts (records for kev/atlas/osv, scores for epss; for osv, skipped
     * also counts the advisories outside the package filter) */
    long added, updated, unchanged, skipped, merged, unknown;
};

struct bw_config;
/* The sources and filter of the configuration (BULWARK_INTEL_*_URL, _OSV_PACKAGES), borrowed
 * from cfg, with egress allow; every other member zero. */
struct bw_sync_opts bw_sync_opts_of(const struct bw_config *cfg, unsigned allow);

/* The source names, index for index with bw_sync_opts.url. */
extern const char *const bw_sync_source_names[BW_SYNC_SOURCES];

/* Syncs every source (or opts->only) at time now_us; out gets one outcome per source. Returns 0
 * when no source was rejected or failed, -2 when before_source stopped it, else -1. */
int bw_intel_sync(struct db *db, const struct bw_sync_opts *opts, int64_t now_us,
                  struct bw_sync_outcome out[BW_SYNC_SOURCES]);

#endif
