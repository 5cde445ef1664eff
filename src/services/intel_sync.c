/* The intel sync (intel_sync.h). */
#include "services/intel_sync.h"

#include "common/config.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "engine/intel/epss.h"
#include "engine/intel/osvlist.h"
#include "engine/intel/sources.h"
#include "net/egress.h"
#include "services/intel_ingest.h"
#include "store/store_intel.h"

#include <jansson.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *const bw_sync_source_names[BW_SYNC_SOURCES] = {"kev", "atlas", "epss", "osv"};
enum { S_KEV, S_ATLAS, S_EPSS, S_OSV };
/* the order they are synced in (intel_sync.h) */
static const int ORDER[BW_SYNC_SOURCES] = {S_OSV, S_KEV, S_ATLAS, S_EPSS};

_Static_assert(BW_SYNC_STOPPED + 1 == BW_SYNC__STATUSES, "one name per sync status");
static const char *const SYNC_STATUSES[BW_SYNC__STATUSES] = {"off", "imported", "not_modified", "rejected", "failed", "stopped"};

const char *bw_sync_status_name(enum bw_sync_status s)
{
    return (unsigned)s < BW_SYNC__STATUSES ? SYNC_STATUSES[s] : NULL;
}

static void outcome(struct bw_sync_outcome *o, enum bw_sync_status status, const char *error)
{
    o->status = status;
    if (error)
        snprintf(o->error, sizeof o->error, "%s", error);
}

struct osv_acc {
    json_t *records;
    const char *filter;
    long filtered;
    char *msg;
    size_t cap;
};

/* One advisory of an OSV source: outside the filter it is counted; inside, normalised into
 * records like a file of `bulwark intel import --format osv`. */
static int osv_doc(const char *name, const char *json, size_t len, void *arg)
{
    struct osv_acc *a = arg;
    json_error_t je;
    json_t *adv = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
    if (!adv) {
        snprintf(a->msg, a->cap, "%.100s: line %d, column %d: %s", name, je.line, je.column, je.text);
        return -1;
    }
    bool wanted = bw_osv_wanted(adv, a->filter);
    json_decref(adv);
    if (!wanted) {
        a->filtered++;
        return 0;
    }
    struct bw_intel_reject rej;
    memset(&rej, 0, sizeof rej);
    if (bw_intel_parse_source(BW_INTEL_OSV, json, len, true, a->records, &rej) != 0) {
        snprintf(a->msg, a->cap, "%.100s: line %d, column %d: %s", name, rej.at.line, rej.at.column, rej.msg);
        return -1;
    }
    return 0;
}

/* An OSV source: every wanted advisory normalised (any failure rejects the source) and imported
 * in one transaction. */
static int import_osv(struct db *db, const char *filter, const char *body, size_t len, int64_t now_us,
                      struct bw_sync_outcome *o)
{
    struct osv_acc a = {.records = json_array(), .filter = filter, .msg = o->error, .cap = sizeof o->error};
    if (!a.records)
        return -2;
    if (bw_osv_list(body, len, osv_doc, &a, o->error, sizeof o->error) != 0) {
        json_decref(a.records);
        return -1;
    }
    struct bw_ingest_report rep;
    int rc = bw_ingest(db, a.records, false, now_us, &rep);
    json_decref(a.records);
    if (rc != 0)
        return -2;
    o->added = rep.added;
    o->updated = rep.updated;
    o->unchanged = rep.unchanged;
    o->skipped = rep.skipped + a.filtered;
    o->merged = rep.merged;
    return 0;
}

/* Validates and imports a 200's body: 0 imported, -1 rejected (nothing stored), -2 the database
 * failed. */
static int import_body(struct db *db, int src, const struct bw_sync_opts *opts, const char *body, size_t len,
                       int64_t now_us, struct bw_sync_outcome *o)
{
    if (src == S_OSV)
        return import_osv(db, opts->osv_packages, body, len, now_us, o);
    struct bw_intel_reject rej;
    memset(&rej, 0, sizeof rej);
    if (src == S_EPSS) {
        struct bw_epss_file f;
        if (bw_intel_epss_load(body, len, &f, &rej) != 0) {
            snprintf(o->error, sizeof o->error, "line %d, column %d: %s", rej.at.line, rej.at.column, rej.msg);
            return -1;
        }
        struct bw_epss_report rep;
        int rc = bw_ingest_epss(db, &f, now_us, &rep);
        bw_epss_free(&f);
        if (rc != 0)
            return -2;
        o->updated = rep.updated;
        o->unchanged = rep.unchanged;
        o->unknown = rep.unknown;
        return 0;
    }
    json_t *records = json_array();
    if (!records)
        return -2;
    if (bw_intel_parse_source(src == S_KEV ? BW_INTEL_KEV : BW_INTEL_ATLAS, body, len, src == S_KEV, records, &rej) != 0) {
        snprintf(o->error, sizeof o->error, "line %d, column %d: %s", rej.at.line, rej.at.column, rej.msg);
        json_decref(records);
        return -1;
    }
    struct bw_ingest_report rep;
    int rc = bw_ingest(db, records, src == S_KEV, now_us, &rep);
    json_decref(records);
    if (rc != 0)
        return -2;
    o->added = rep.added;
    o->updated = rep.updated;
    o->unchanged = rep.unchanged;
    o->skipped = rep.skipped;
    o->merged = rep.merged;
    return 0;
}

/* One source: fetch (conditional), validate, import, record the state. */
static int sync_one(struct db *db, int src, const struct bw_sync_opts *opts, long timeout_ms, int64_t now_us,
                    struct bw_sync_outcome *o)
{
    const char *url = opts->url[src];
    /* what the validators belong to: the URL, and for OSV its package filter too (a 304 must not
     * hide advisories a widened filter now wants). A fragment is never sent, so it cannot clash
     * with a URL the server tells apart. */
    char key[sizeof ((struct store_sync_state *)0)->url];
    snprintf(key, sizeof key, "%s", url);
    if (src == S_OSV && opts->osv_packages && opts->osv_packages[0]) {
        if (!bw_osv_filter_valid(opts->osv_packages)) { /* a configuration error: nothing fetched */
            outcome(o, BW_SYNC_REJECTED, "BULWARK_INTEL_OSV_PACKAGES is not a list of [Ecosystem:]name");
            return -1;
        }
        unsigned char h[16];
        crypto_generichash(h, sizeof h, (const unsigned char *)opts->osv_packages, strlen(opts->osv_packages), NULL, 0);
        char hex[33];
        sodium_bin2hex(hex, sizeof hex, h, sizeof h);
        snprintf(key, sizeof key, "%s#bulwark-osv-packages=%s", url, hex);
    }
    struct store_sync_state st;
    int have = store_intel_sync_get(db, bw_sync_source_names[src], &st);
    if (have == ST_ERROR) {
        outcome(o, BW_SYNC_FAILED, "the database failed");
        return -1;
    }
    /* validators only for the URL (and filter) they came from */
    bool same = have == ST_OK && strcmp(st.url, key) == 0;
    char inm[300], ims[100];
    const char *headers[3] = {NULL, NULL, NULL};
    int nh = 0;
    if (same && st.etag[0] && snprintf(inm, sizeof inm, "If-None-Match: %s", st.etag) < (int)sizeof inm)
        headers[nh++] = inm;
    if (same && st.last_modified[0] &&
        snprintf(ims, sizeof ims, "If-Modified-Since: %s", st.last_modified) < (int)sizeof ims)
        headers[nh++] = ims;
    if (!same) {
        memset(&st, 0, sizeof st);
        snprintf(st.source, sizeof st.source, "%s", bw_sync_source_names[src]);
        snprintf(st.url, sizeof st.url, "%s", key);
    }
    struct bw_egress_req rq = {.url = url,
                               .headers = headers,
                               .connect_timeout_ms = BW_INTEL_SYNC_CONNECT_MS,
                               .timeout_ms = timeout_ms,
                               .max_response = BW_INTEL_SYNC_MAX_BYTES,
                               .max_redirects = 5,
                               .verify_tls = true};
    struct bw_egress_resp r;
    (void)bw_egress_request(opts->egress_allow, &rq, &r);
    o->http_status = r.status;
    int rc = 0;
    if (r.outcome != BW_EG_OK) {
        outcome(o, BW_SYNC_FAILED, r.error[0] ? r.error : bw_egress_outcome_name(r.outcome));
        rc = -1;
    } else if (r.tls && !r.tls_verify_ok) {
        outcome(o, BW_SYNC_FAILED, NULL);
        snprintf(o->error, sizeof o->error, "the certificate did not verify: %s", r.tls_error);
        rc = -1;
    } else if (r.status == 304 && same) {
        outcome(o, BW_SYNC_NOT_MODIFIED, NULL);
    } else if (r.status != 200) {
        outcome(o, BW_SYNC_FAILED, NULL);
        snprintf(o->error, sizeof o->error, "the source answered HTTP %ld", r.status);
        rc = -1;
    } else if (r.truncated) {
        outcome(o, BW_SYNC_REJECTED, NULL);
        snprintf(o->error, sizeof o->error, "larger than %u bytes", BW_INTEL_SYNC_MAX_BYTES);
        rc = -1;
    } else {
        int ir = import_body(db, src, opts, r.body, r.body_len, now_us, o);
        if (ir == 0) {
            outcome(o, BW_SYNC_IMPORTED, NULL);
            if (!bw_egress_header(&r, "ETag", st.etag, sizeof st.etag))
                st.etag[0] = '\0';
            if (!bw_egress_header(&r, "Last-Modified", st.last_modified, sizeof st.last_modified))
                st.last_modified[0] = '\0';
            bw_iso8601(now_us / 1000000, st.imported_at);
        } else {
            o->status = ir == -1 ? BW_SYNC_REJECTED : BW_SYNC_FAILED;
            if (ir == -2)
                snprintf(o->error, sizeof o->error, "the database refused the import; nothing was written");
            rc = -1;
        }
    }
    bw_egress_resp_free(&r);
    bw_iso8601(now_us / 1000000, st.checked_at);
    snprintf(st.status, sizeof st.status, "%s", bw_sync_status_name(o->status));
    snprintf(st.error, sizeof st.error, "%s", o->error);
    if (store_intel_sync_put(db, &st) != ST_OK)
        bw_logf(BW_LOG_WARN, NULL, "intel sync: the state of %s could not be stored", st.source);
    return rc;
}

struct bw_sync_opts bw_sync_opts_of(const struct bw_config *cfg, unsigned allow)
{
    return (struct bw_sync_opts){
        .url = {cfg->intel_kev_url, cfg->intel_atlas_url, cfg->intel_epss_url, cfg->intel_osv_url},
        .osv_packages = cfg->intel_osv_packages,
        .egress_allow = allow};
}

int bw_intel_sync(struct db *db, const struct bw_sync_opts *opts, int64_t now_us,
                  struct bw_sync_outcome out[BW_SYNC_SOURCES])
{
    int rc = 0;
    long timeout = opts->timeout_ms > 0 ? opts->timeout_ms : BW_INTEL_SYNC_TIMEOUT_MS;
    for (int k = 0; k < BW_SYNC_SOURCES; k++) {
        int i = ORDER[k];
        struct bw_sync_outcome *o = &out[i];
        memset(o, 0, sizeof *o);
        snprintf(o->source, sizeof o->source, "%s", bw_sync_source_names[i]);
        if (!opts->url[i] || (opts->only && strcmp(opts->only, bw_sync_source_names[i]) != 0)) {
            outcome(o, BW_SYNC_OFF, NULL);
            continue;
        }
        if (rc == -2 || (opts->before_source && !opts->before_source(opts->arg))) {
            outcome(o, BW_SYNC_STOPPED, NULL);
            rc = -2;
            continue;
        }
        if (sync_one(db, i, opts, timeout, now_us, o) != 0)
            rc = -1;
    }
    return rc;
}
