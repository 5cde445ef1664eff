/* Threat intelligence: GET /api/ai-security/threat-feed (public), the playbook of one threat
 * (GET public, POST and history for accounts).
 *
 * Playbooks: anonymous callers (and the admin key, which is not an account) get one computed on
 * demand from the stored record, persisted:false, stale:false, with a playbook_id derived from
 * the record id and version, so the same record version always gives the same envelope. Accounts
 * get their latest saved generation, created on their first GET; it is stale once the record's
 * version moved past the one it was generated from. POST saves a new generation (201). The
 * playbook bytes are bw_playbook_text's, stored and served as they are (spliced into the
 * envelope, never re-serialised). */
#include "api/api.h"
#include "api/api_util.h"
#include "common/bcache.h"
#include "common/ids.h"
#include "common/limits.h"
#include "common/sbuf.h"
#include "common/timeutil.h"
#include "engine/intel/epss.h"
#include "engine/intel/intel.h"
#include "engine/intel/attack.h"
#include "engine/intel/playbook.h"
#include "store/store_intel.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char JSON_TYPE[] = "application/json; charset=utf-8";

/* Matches a query value against allowed values; *out gets the stored spelling (the record type
 * for a plural filter name). */
static bool pick(const char *v, const char *const *names, const char *const *stored, size_t n, const char **out)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = stored[i];
            return true;
        }
    return false;
}

static void reply_buf(struct bw_req *r, unsigned status, struct bw_sb *b)
{
    bw_reply_text(r, status, JSON_TYPE, b->p, b->len); /* the buffer is the reply's now */
    memset(b, 0, sizeof *b);
}

static bool put(struct bw_sb *b, const char *s)
{
    bw_sb_puts(b, s);
    return !b->oom;
}

/* sort=published|risk|epss: the cursor's sort number is the store's order. */
static const char *const SORTS[] = {"published", "risk", "epss"};

/* The feed's query: type, severity, epss_min, since, sort; the cursor's filter text into filters. */
static void feed_query(struct bw_req *r, struct bw_verr *v, struct store_feed_query *q, char *filters, size_t cap)
{
    memset(q, 0, sizeof *q);
    q->epss_min = -1;
    q->since_us = -1;
    const char *tq = bw_query(r, "type"), *sq = bw_query(r, "severity"), *eq = bw_query(r, "epss_min"),
               *since = bw_query(r, "since"), *so = bw_query(r, "sort");
    if (tq && !pick(tq, bw_intel_type_filters, bw_intel_types, BW_INTEL_NTYPES, &q->type))
        bw_verr_add(v, "type", "must be one of prompt_attacks, agent_threats, ai_cves, model_advisories");
    if (sq && !pick(sq, bw_intel_severities, bw_intel_severities, 4, &q->severity))
        bw_verr_add(v, "severity", "must be one of CRITICAL, HIGH, MEDIUM, LOW");
    if (eq && (q->epss_min = bw_epss_decimal(eq, strlen(eq))) < 0)
        bw_verr_add(v, "epss_min", "must be a decimal from 0 to 1");
    int64_t since_s = 0;
    if (since) {
        if (bw_parse_iso8601(since, &since_s) != 0)
            bw_verr_add(v, "since", "must be an ISO 8601 UTC time (YYYY-MM-DDTHH:MM:SSZ)");
        else /* changed after the second named: anything in a later second */
            q->since_us = since_s * 1000000 + 999999;
    }
    const char *sort = "published";
    if (so && !pick(so, SORTS, SORTS, 3, &sort))
        bw_verr_add(v, "sort", "must be one of published, risk, epss");
    q->sort = strcmp(sort, "risk") == 0 ? STORE_FEED_RISK : strcmp(sort, "epss") == 0 ? STORE_FEED_EPSS
                                                                                   : STORE_FEED_PUBLISHED;
    /* the stored spellings, so ?type=ai_cves and a cursor agree; epss_min as parts per billion, so
     * 0.5 and 0.50 agree */
    snprintf(filters, cap, "type=%s&severity=%s&epss_min=%" PRId64 "&since=%" PRId64, q->type ? q->type : "",
             q->severity ? q->severity : "", q->epss_min, q->since_us);
}

static int sync_entry(const struct store_sync_state *s, void *arg)
{
    /* what a feed reader needs to judge freshness; the URL and the error stay with the operator
     * (logs, the CLI's report): a mirror's address or token is nobody else's business */
    return json_array_append_new(arg, json_pack("{s:s,s:s,s:s?,s:s?}", "source", s->source, "status", s->status,
                                                 "checked_at", s->checked_at[0] ? s->checked_at : NULL,
                                                 "imported_at", s->imported_at[0] ? s->imported_at : NULL)) == 0
               ? ST_OK
               : ST_ERROR;
}

/* The feed's "sync" member: the last sync outcome per source (intel_sync_state), as JSON text. */
static char *sync_json(struct db *db)
{
    json_t *arr = json_array();
    char *out = arr && store_intel_sync_each(db, sync_entry, arr) == ST_OK ? json_dumps(arr, JSON_COMPACT) : NULL;
    json_decref(arr);
    return out;
}

/* Answers from cache c what it holds under key (304 when If-None-Match names its tag); false on
 * a miss, with nothing answered. */
static bool reply_cached(struct bw_req *r, struct bw_bcache *c, const char *key)
{
    struct bw_sb b = {0};
    char etag[BW_BCACHE_TAG_MAX];
    if (!bw_bcache_get(c, key, &b.p, &b.len, etag))
        return false;
    b.cap = b.len + 1;
    if (api_not_modified(r, etag))
        free(b.p);
    else
        reply_buf(r, 200, &b);
    return true;
}

void api_threat_feed(struct bw_req *r)
{
    struct bw_verr v = {0};
    struct store_feed_query q;
    char filters[160];
    feed_query(r, &v, &q, filters, sizeof filters);
    struct api_page pg;
    api_page_query(r, &v, &pg, BW_CURSOR_FEED, (uint8_t)q.sort, filters, q.sort == STORE_FEED_PUBLISHED);
    if (bw_verr_reply(r, &v))
        return;
    long limit = pg.page.limit;
    /* A page is a function of the query and the intel generation (every intel write raises it in
     * its transaction, on every instance and from the CLI too), and a page already built for both
     * is answered from memory with its tag. The generation is watched (store_intel_gen_get: no
     * read unless a write was notified on PostgreSQL or seen in the files on SQLite). Read before the page, so a page built
     * after a write that raced it is at worst newer than its key, never older. */
    struct api_ctx *ctx = api_ctx(r);
    int64_t gen = 0;
    if (store_intel_gen_get(ctx->intel_gen, &gen) != ST_OK) {
        api_reply_storage(r);
        return;
    }
    const char *cur = bw_query(r, "cursor");
    char key[sizeof filters + BW_CURSOR_MAX + 96], etag[BW_BCACHE_TAG_MAX];
    snprintf(key, sizeof key, "%" PRId64 " %d %ld %ld %s %.*s", gen, (int)q.sort, limit, pg.page.offset, filters,
             BW_CURSOR_MAX, cur ? cur : "");
    if (reply_cached(r, ctx->feed_pages, key))
        return;
    struct bw_sb b = {0};
    /* one buffer for the whole body, sized for a typical page so it rarely grows */
    int64_t total = 0, updated_us = 0;
    if (!bw_sb_grow(&b, (size_t)limit * 2048 + 256 + BW_CURSOR_MAX) || !put(&b, "{\"feed\":[") ||
        store_intel_feed(ctx->db, &q, &pg.page, &b, &total, &updated_us) != ST_OK) {
        free(b.p);
        api_reply_storage(r);
        return;
    }
    char tail[200 + BW_CURSOR_MAX], ts[21], next[BW_CURSOR_MAX + 1];
    bw_iso8601(updated_us / 1000000, ts);
    api_next_cursor(r, &pg, next); /* base64url: written without escaping */
    snprintf(tail, sizeof tail,
             "],\"total\":%" PRId64 ",\"limit\":%ld,\"offset\":%ld,\"next_cursor\":%s%s%s,\"updated_at\":%s%s%s,"
             "\"sync\":",
             total, limit, pg.page.offset, next[0] ? "\"" : "", next[0] ? next : "null", next[0] ? "\"" : "",
             updated_us ? "\"" : "", updated_us ? ts : "null", updated_us ? "\"" : "");
    char *sync = sync_json(ctx->db);
    if (!sync) {
        free(b.p);
        api_reply_storage(r);
        return;
    }
    bool ok = put(&b, tail) && put(&b, sync) && put(&b, "}");
    free(sync);
    if (!ok) {
        free(b.p);
        bw_reply_internal(r, "out of memory");
        return;
    }
    /* the page is a function of the query and the store: its bytes are its tag */
    api_etag_of((const char *const[]){b.p}, (const size_t[]){b.len}, 1, etag);
    bw_bcache_put(ctx->feed_pages, key, b.p, b.len, etag);
    if (api_not_modified(r, etag)) {
        free(b.p);
        return;
    }
    reply_buf(r, 200, &b);
}

static int load_record(struct bw_req *r, char **doc, int64_t *version);

/* GET /api/ai-security/threat-feed/{id}: the whole record document. Members added after a
 * record was stored (epss, epss_history, changed_at) are filled in with their empty values, so
 * every record has the same shape. */
void api_threat_record(struct bw_req *r)
{
    char *text = NULL;
    int64_t version = 0;
    if (load_record(r, &text, &version) != 0)
        return;
    json_t *doc = json_loads(text, 0, NULL);
    free(text);
    if (!doc) {
        bw_reply_internal(r, "a stored record is not JSON");
        return;
    }
    if (!json_object_get(doc, "epss"))
        json_object_set_new(doc, "epss", json_null());
    if (!json_object_get(doc, "epss_history"))
        json_object_set_new(doc, "epss_history", json_array());
    if (!json_object_get(doc, "changed_at"))
        json_object_set(doc, "changed_at", json_object_get(doc, "enriched_at"));
    char *body = json_dumps(doc, BW_INTEL_DUMP_FLAGS);
    json_decref(doc);
    if (!body) {
        bw_reply_internal(r, "out of memory");
        return;
    }
    struct bw_sb b = {body, strlen(body), strlen(body) + 1, false};
    char etag[32];
    api_etag_of((const char *const[]){b.p}, (const size_t[]){b.len}, 1, etag);
    if (api_not_modified(r, etag)) {
        free(b.p);
        return;
    }
    reply_buf(r, 200, &b);
}

/* ---- playbooks ----------------------------------------------------------------------------------- */

static bool account(const struct bw_principal *p)
{
    return (p->kind == BW_AUTH_JWT || p->kind == BW_AUTH_APIKEY) && p->user_id[0];
}

/* The record of the path's id: 0 with *doc, or -1 after answering (404 for an unknown id, which
 * includes ids that cannot exist). */
static int load_record(struct bw_req *r, char **doc, int64_t *version)
{
    const char *id = r->params[0];
    int rc = bw_intel_id_valid(id) ? store_intel_get(api_ctx(r)->db, id, doc, version) : ST_NOTFOUND;
    if (rc == ST_OK)
        return 0;
    if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no threat-intelligence record with this id", NULL);
    else
        api_reply_storage(r);
    return -1;
}

/* The playbook text of a record document and its risk tier; NULL when generation failed. */
static char *generate(const char *doc_text, char tier[BW_PLAYBOOK_TIER_MAX])
{
    json_t *doc = json_loads(doc_text, 0, NULL);
    char *text = doc ? bw_playbook_text(doc, NULL, tier) : NULL;
    json_decref(doc);
    return text;
}

/* "pbk_" + 22 base62 characters of SHA-256(id, version): stable for a record version. */
static void anonymous_id(const char *threat, int64_t version, char out[BW_ID_MAX])
{
    static const char b62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    char msg[BW_INTEL_ID_MAX + 64];
    int n = snprintf(msg, sizeof msg, "bulwark anonymous playbook\n%s\n%" PRId64, threat, version);
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)msg, (unsigned long long)n);
    memcpy(out, "pbk_", 4);
    for (int i = 0; i < BW_ID_RANDOM_LEN; i++)
        out[4 + i] = b62[h[i] % 62];
    out[4 + BW_ID_RANDOM_LEN] = '\0';
}

/* The envelope's members before "playbook" into b (false: out of memory). Ids and times are
 * plain ASCII (validated ids, base62, ISO 8601), so they are written without escaping. */
static bool envelope_head(struct bw_sb *b, const char *pbk_id, const char *threat, bool persisted, bool stale,
                          int64_t record_version, const char *generated_at)
{
    bw_sb_printf(b,
                 "{\"success\":true,\"playbook_id\":\"%s\",\"threat_id\":\"%s\",\"persisted\":%s,\"stale\":%s,"
                 "\"record_version\":%" PRId64 ",\"generated_at\":%s%s%s,\"playbook\":",
                 pbk_id, threat, persisted ? "true" : "false", stale ? "true" : "false", record_version,
                 generated_at ? "\"" : "", generated_at ? generated_at : "null", generated_at ? "\"" : "");
    return !b->oom;
}

/* The envelope around stored playbook bytes into b (false: out of memory). */
static bool envelope(struct bw_sb *b, const char *pbk_id, const char *threat, bool persisted, bool stale,
                     int64_t record_version, const char *generated_at, const char *text)
{
    return envelope_head(b, pbk_id, threat, persisted, stale, record_version, generated_at) && put(b, text) &&
           put(b, "}");
}

static void reply_playbook(struct bw_req *r, unsigned status, const char *pbk_id, const char *threat, bool persisted,
                           bool stale, int64_t record_version, const char *generated_at, const char *text)
{
    struct bw_sb b = {0};
    if (!envelope(&b, pbk_id, threat, persisted, stale, record_version, generated_at, text)) {
        free(b.p);
        bw_reply_internal(r, "out of memory");
        return;
    }
    reply_buf(r, status, &b);
}

static void reply_saved(struct bw_req *r, const struct store_playbook *pb, const char *text);

/* Generates a playbook from the current record and saves it as the caller's newest. */
static void save_new(struct bw_req *r, unsigned status, const char *doc, int64_t version)
{
    struct store_playbook pb;
    memset(&pb, 0, sizeof pb);
    char *text = generate(doc, pb.risk_tier);
    if (!text) {
        bw_reply_internal(r, "playbook generation failed");
        return;
    }
    bw_id_new("pbk_", pb.id);
    snprintf(pb.user_id, sizeof pb.user_id, "%s", r->principal.user_id);
    snprintf(pb.threat_id, sizeof pb.threat_id, "%.64s", r->params[0]); /* validated: at most 64 */
    pb.record_version = version;
    pb.generated_us = bw_now_us();
    bw_iso8601(pb.generated_us / 1000000, pb.generated_at);
    pb.current_version = version;
    if (store_playbook_insert(api_ctx(r)->db, &pb, text) != ST_OK)
        api_reply_storage(r);
    else if (status == 200)
        reply_saved(r, &pb, text); /* a GET: the answer later GETs give, with its tag */
    else
        reply_playbook(r, status, pb.id, pb.threat_id, true, false, version, pb.generated_at, text);
    free(text);
}

/* The playbook computed for a record as stored now, saved nowhere: the same bytes for every
 * caller, so the envelope is kept in the playbook cache, with its ETag, under the id and a digest
 * of its inputs (below). A request costs one point read of the record (its document and version
 * together: a miss, the usual case over a large feed, then needs no second read, and a hit only
 * digests the ~2 KB document and drops it). Any change to the document (a fact, which also moves
 * the version, or a new EPSS score, which does not) is a new key, so a changed record is never
 * answered from an older entry, and the old one ages out of the LRU; an unchanged record keeps
 * its entry, whatever else was imported. */
static void reply_on_demand(struct bw_req *r)
{
    struct api_ctx *ctx = api_ctx(r);
    const char *threat = r->params[0];
    char *doc = NULL;
    int64_t version = 0;
    if (load_record(r, &doc, &version) != 0)
        return;
    /* The digest of what the bytes are a function of: this binary, the ATT&CK/ATLAS tables' state
     * (compiled in, but a process that failed to load them, out of memory at the first use,
     * writes other bytes from the same inputs), the id, the version and the record's document.
     * It keys the cache, not the version alone: an EPSS score moves the record's risk score,
     * which the playbook states, without a new version (docs/architecture.md). It is the ETag
     * too, rather than a digest of the ~20 KB written, unless the binary has no build ID. */
    const char *bid = api_build_id();
    char ver[24], tables[64], inputs[32];
    snprintf(ver, sizeof ver, "%" PRId64, version);
    snprintf(tables, sizeof tables, "%d %zu %zu", bw_attack_load(), bw_attack_technique_count(),
             bw_atlas_technique_count());
    const char *parts[] = {"anonymous playbook", bid, tables, threat, ver, doc};
    size_t lens[] = {18, strlen(bid), strlen(tables), strlen(threat), strlen(ver), strlen(doc)};
    api_etag_of(parts, lens, 6, inputs);
    char key[BW_INTEL_ID_MAX + 48], etag[BW_BCACHE_TAG_MAX];
    snprintf(key, sizeof key, "%.64s %s", threat, inputs); /* validated: at most 64 */
    if (reply_cached(r, ctx->playbooks, key)) {
        free(doc);
        return;
    }
    /* generated straight into the envelope */
    struct bw_sb b = {0};
    char id[BW_ID_MAX];
    anonymous_id(threat, version, id);
    json_t *rec = json_loads(doc, 0, NULL);
    free(doc);
    bool parsed = rec != NULL;
    bool ok = parsed && envelope_head(&b, id, threat, false, false, version, NULL) && bw_playbook_write(&b, rec, NULL) &&
              put(&b, "}");
    json_decref(rec);
    if (!ok) {
        free(b.p);
        if (parsed && b.oom)
            bw_reply_internal(r, "out of memory");
        else
            bw_reply_internal(r, "playbook generation failed");
        return;
    }
    if (*bid)
        snprintf(etag, sizeof etag, "%s", inputs);
    else
        api_etag_of((const char *const[]){b.p}, (const size_t[]){b.len}, 1, etag);
    bw_bcache_put(ctx->playbooks, key, b.p, b.len, etag);
    if (api_not_modified(r, etag))
        free(b.p);
    else
        reply_buf(r, 200, &b);
}

/* A saved generation: its answer is fixed by the account, the generation and whether the record
 * moved on since (stale), so that is its ETag. */
static void reply_saved(struct bw_req *r, const struct store_playbook *pb, const char *text)
{
    char cur[24], etag[32];
    snprintf(cur, sizeof cur, "%" PRId64, pb->current_version);
    const char *parts[] = {"saved", r->principal.user_id, pb->id, cur};
    size_t lens[] = {5, strlen(parts[1]), strlen(parts[2]), strlen(cur)};
    api_etag_of(parts, lens, 4, etag);
    if (api_not_modified(r, etag))
        return;
    reply_playbook(r, 200, pb->id, pb->threat_id, true, pb->current_version > pb->record_version, pb->record_version,
                   pb->generated_at, text);
}

void api_playbook_get(struct bw_req *r)
{
    if (!account(&r->principal)) {
        reply_on_demand(r);
        return;
    }
    /* the saved generation first: one statement (it joins the record for its version now); the
     * record itself is read only when there is none yet */
    struct store_playbook pb;
    char *text = NULL;
    int rc = bw_intel_id_valid(r->params[0])
                 ? store_playbook_latest(api_ctx(r)->db, r->principal.user_id, r->params[0], &pb, &text)
                 : ST_NOTFOUND;
    if (rc == ST_OK) {
        reply_saved(r, &pb, text);
    } else if (rc == ST_NOTFOUND && r->method == BW_HEAD) {
        reply_on_demand(r); /* HEAD is safe (RFC 9110 9.2.1): it saves nothing */
    } else if (rc == ST_NOTFOUND) {
        char *doc = NULL;
        int64_t version = 0;
        if (load_record(r, &doc, &version) == 0)
            save_new(r, 200, doc, version); /* the first GET of an account creates its generation */
        free(doc);
    } else {
        api_reply_storage(r);
    }
    free(text);
}

void api_playbook_regenerate(struct bw_req *r)
{
    char *doc = NULL;
    int64_t version = 0;
    if (load_record(r, &doc, &version) != 0)
        return;
    save_new(r, 201, doc, version);
    free(doc);
}

void api_playbook_history(struct bw_req *r)
{
    struct api_page pg;
    if (!api_page_open(r, &pg, BW_CURSOR_PLAYBOOKS, false))
        return;
    struct store_playbook *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    if (store_playbook_history(api_ctx(r)->db, r->principal.user_id, &pg.page, &list, &n, &total) != ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:s,s:b,s:I}", "playbook_id", list[i].id, "threat_id",
                                             list[i].threat_id, "risk_tier", list[i].risk_tier, "generated_at",
                                             list[i].generated_at, "stale",
                                             list[i].current_version > list[i].record_version, "record_version",
                                             (json_int_t)list[i].record_version));
    free(list);
    bw_reply_json(r, 200, json_pack("{s:o,s:I,s:i,s:i,s:o}", "history", arr, "total", (json_int_t)total, "limit",
                                    (int)pg.page.limit, "offset", (int)pg.page.offset, "next_cursor",
                                    api_next_cursor_json(r, &pg)));
}
