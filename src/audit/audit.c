/* Audit events: sharded in-memory aggregates, a flusher thread, retention, and the anomaly
 * rules over the aggregated rows (contracts in audit.h). */
#include "audit/audit.h"

#include "auth/apikey.h"
#include "auth/policy.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "http/http.h"
#include "store/store.h"
#include "store/store_audit.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MINUTE_MS 60000
#define SHARDS 64
#define SHARD_CAP (BW_AUDIT_MAX_PENDING / SHARDS)
#define SHARD_HEADS 128 /* hash chains per shard: twice its capacity */

_Static_assert(SHARD_CAP > 0 && SHARD_CAP < 32768, "shard indexes are int16_t");
_Static_assert((SHARD_HEADS & (SHARD_HEADS - 1)) == 0, "SHARD_HEADS is a power of two");

static const char *const KIND_NAME[] = {"auth_failure", "rate_limited", "privileged_denied", "key_use", "account_change"};
static const char *const PTYPE_NAME[] = {"ip", "api_key", "account"};
#define NKINDS (sizeof KIND_NAME / sizeof KIND_NAME[0])

/* One pending aggregate: events of (kind, principal, minute, sub) not yet written. */
struct agg {
    int64_t bucket_ms, n, first_ms, last_ms;
    uint32_t hash;
    int16_t next; /* next in the hash chain, -1 at the end */
    uint8_t kind, ptype;
    char principal[BW_AUDIT_PRINCIPAL_MAX];
    char sub[BW_AUDIT_PRINCIPAL_MAX];
    char account_id[BW_ID_MAX];
    char detail[BW_AUDIT_DETAIL_MAX];
};

struct shard {
    pthread_mutex_t mu;
    int n;
    int16_t head[SHARD_HEADS];
    struct agg e[SHARD_CAP];
};

struct bw_audit {
    struct db *db;
    struct shard *shards;
    atomic_uint_fast64_t dropped;
    pthread_mutex_t flush_mu; /* one flush at a time; guards rows */
    struct store_audit_row *rows;
    pthread_mutex_t mu; /* guards stopping, with cv */
    pthread_cond_t cv;
    bool stopping, started;
    pthread_t th;
};

/* ---- recording ---------------------------------------------------------------------------------- */

/* Copies src into dst (cap bytes), cut to fit; bytes outside printable ASCII become '?'. */
static void copy_ascii(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < cap; i++) {
        unsigned char c = (unsigned char)src[i];
        dst[i] = c < 0x20 || c > 0x7e ? '?' : (char)c;
    }
    dst[i] = '\0';
}

static uint32_t fnv(uint32_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 16777619u;
    }
    return h;
}

static int64_t minute_of(int64_t ms)
{
    int64_t m = ms % MINUTE_MS;
    return ms - (m < 0 ? m + MINUTE_MS : m);
}

static void relink(struct shard *s)
{
    memset(s->head, 0xff, sizeof s->head); /* -1 */
    for (int i = 0; i < s->n; i++) {
        int hb = (int)((s->e[i].hash / SHARDS) & (SHARD_HEADS - 1));
        s->e[i].next = s->head[hb];
        s->head[hb] = (int16_t)i;
    }
}

bool bw_audit_record_event(struct bw_audit *a, enum bw_audit_kind kind, const char *principal,
                           enum bw_audit_ptype ptype, const char *account_id, const char *detail, int64_t now_ms)
{
    if (!a || !principal || (unsigned)kind >= NKINDS || (unsigned)ptype > BW_AUDIT_P_ACCOUNT)
        return false;
    char pr[BW_AUDIT_PRINCIPAL_MAX], sub[BW_AUDIT_PRINCIPAL_MAX] = "";
    copy_ascii(pr, sizeof pr, principal);
    if (kind == BW_AUDIT_KEY_USE || kind == BW_AUDIT_ACCOUNT_CHANGE) /* each change a row of its own */
        copy_ascii(sub, sizeof sub, detail);
    int64_t bucket = minute_of(now_ms);
    uint8_t k = (uint8_t)kind;
    uint32_t h = fnv(2166136261u, &k, 1);
    h = fnv(h, &bucket, sizeof bucket);
    h = fnv(h, pr, strlen(pr) + 1);
    h = fnv(h, sub, strlen(sub));
    struct shard *s = &a->shards[h % SHARDS];
    int hb = (int)((h / SHARDS) & (SHARD_HEADS - 1));

    pthread_mutex_lock(&s->mu);
    struct agg *g = NULL;
    for (int i = s->head[hb]; i >= 0; i = s->e[i].next) {
        struct agg *c = &s->e[i];
        if (c->hash == h && c->kind == k && c->bucket_ms == bucket && strcmp(c->principal, pr) == 0 &&
            strcmp(c->sub, sub) == 0) {
            g = c;
            break;
        }
    }
    if (g) {
        /* a key's use from one IP counts once a minute: the entry stays after its flush to say so */
        if (kind != BW_AUDIT_KEY_USE) {
            g->n++;
            if (now_ms < g->first_ms)
                g->first_ms = now_ms;
            if (now_ms >= g->last_ms) {
                g->last_ms = now_ms;
                if (detail && detail[0])
                    copy_ascii(g->detail, sizeof g->detail, detail);
            }
            if (!g->account_id[0] && account_id)
                copy_ascii(g->account_id, sizeof g->account_id, account_id);
        }
        pthread_mutex_unlock(&s->mu);
        return true;
    }
    if (s->n == SHARD_CAP) {
        pthread_mutex_unlock(&s->mu);
        atomic_fetch_add_explicit(&a->dropped, 1, memory_order_relaxed);
        return false;
    }
    int idx = s->n++;
    g = &s->e[idx];
    g->bucket_ms = bucket;
    g->n = 1;
    g->first_ms = g->last_ms = now_ms;
    g->hash = h;
    g->kind = k;
    g->ptype = (uint8_t)ptype;
    memcpy(g->principal, pr, sizeof pr);
    memcpy(g->sub, sub, sizeof sub);
    copy_ascii(g->account_id, sizeof g->account_id, account_id);
    copy_ascii(g->detail, sizeof g->detail, detail);
    g->next = s->head[hb];
    s->head[hb] = (int16_t)idx;
    pthread_mutex_unlock(&s->mu);
    return true;
}

/* The client address as a principal: IPv6 as its /64, IPv4-mapped IPv6 as IPv4. */
static void ip_principal(const char *ip, char out[BW_AUDIT_PRINCIPAL_MAX])
{
    if (!ip || !ip[0]) {
        snprintf(out, BW_AUDIT_PRINCIPAL_MAX, "unknown");
        return;
    }
    unsigned char a6[16];
    if (!strchr(ip, ':') || inet_pton(AF_INET6, ip, a6) != 1) {
        copy_ascii(out, BW_AUDIT_PRINCIPAL_MAX, ip);
        return;
    }
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(a6, mapped, sizeof mapped) == 0) {
        if (!inet_ntop(AF_INET, a6 + 12, out, BW_AUDIT_PRINCIPAL_MAX))
            copy_ascii(out, BW_AUDIT_PRINCIPAL_MAX, ip);
        return;
    }
    memset(a6 + 8, 0, 8);
    char t[INET6_ADDRSTRLEN];
    if (!inet_ntop(AF_INET6, a6, t, sizeof t))
        copy_ascii(out, BW_AUDIT_PRINCIPAL_MAX, ip);
    else
        snprintf(out, BW_AUDIT_PRINCIPAL_MAX, "%s/64", t);
}

static bool is_base62(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* The prefix of a presented X-API-Key when it starts like a key ("svc_" + 8 base62). */
static bool presented_prefix(const struct bw_req *r, char out[BW_KEY_SHOWN_PREFIX + 1])
{
    const char *k = r->conn || r->synth ? bw_req_header_in(r, "X-API-Key") : NULL;
    if (!k || strncmp(k, BW_KEY_PREFIX, 4) != 0)
        return false;
    for (int i = 4; i < BW_KEY_SHOWN_PREFIX; i++)
        if (!is_base62(k[i]))
            return false;
    bw_apikey_prefix(k, out);
    return true;
}

void bw_audit_record(struct bw_audit *a, const struct bw_req *r, unsigned status)
{
    if (!a || !r)
        return;
    const struct bw_principal *p = &r->principal;
    bool by_key = p->kind == BW_AUTH_APIKEY && p->key_prefix[0];
    if (status != 401 && status != 403 && status != 429 && !by_key)
        return; /* the common case: not an event */
    int64_t now = bw_now_us() / 1000;
    char ip[BW_AUDIT_PRINCIPAL_MAX], route[BW_AUDIT_DETAIL_MAX] = "";
    ip_principal(r->ip, ip);
    if (r->route && (status == 401 || status == 403 || status == 429)) /* detail of the error kinds */
        snprintf(route, sizeof route, "%s %s", r->method_str ? r->method_str : "", r->route->pattern);

    /* the caller of rate_limited and privileged_denied: key, account, else address */
    const char *who = ip, *account = NULL;
    enum bw_audit_ptype wt = BW_AUDIT_P_IP;
    if (by_key) {
        who = p->key_prefix;
        wt = BW_AUDIT_P_API_KEY;
        account = p->user_id[0] ? p->user_id : NULL;
    } else if (p->kind == BW_AUTH_JWT && p->user_id[0]) {
        who = account = p->user_id;
        wt = BW_AUDIT_P_ACCOUNT;
    }

    if (status == 401) {
        char pref[BW_KEY_SHOWN_PREFIX + 1];
        bw_audit_record_event(a, BW_AUDIT_AUTH_FAILURE, ip, BW_AUDIT_P_IP, NULL,
                              presented_prefix(r, pref) ? pref : route, now);
    }
    if (status == 429)
        bw_audit_record_event(a, BW_AUDIT_RATE_LIMITED, who, wt, account, route, now);
    if ((status == 401 || status == 403) && r->route &&
        (r->route->access == BW_ACCESS_PRIVILEGED || r->route->access == BW_ACCESS_ADMIN ||
         r->route->access == BW_ACCESS_MANAGER) &&
        bw_policy_check(r->route->access, p).err != BW_OK)
        bw_audit_record_event(a, BW_AUDIT_PRIVILEGED_DENIED, who, wt, account, route, now);
    if (by_key && status != 401)
        bw_audit_record_event(a, BW_AUDIT_KEY_USE, p->key_prefix, BW_AUDIT_P_API_KEY, account, ip, now);
}

static void on_response(void *arg, const struct bw_req *r, unsigned status) { bw_audit_record(arg, r, status); }

void bw_audit_register(struct bw_audit *a, struct bw_http_ctx *h)
{
    h->on_response.fn = on_response;
    h->on_response.arg = a;
}

uint64_t bw_audit_dropped(const struct bw_audit *a)
{
    return a ? (uint64_t)atomic_load_explicit(&a->dropped, memory_order_relaxed) : 0;
}

/* ---- flushing ----------------------------------------------------------------------------------- */

/* Moves every pending aggregate into a->rows and writes them. Key-use entries of the current and
 * the previous minute stay (with nothing pending) so that a key's IP is not counted again in the
 * same minute; everything else leaves memory. Caller holds flush_mu. */
static void flush_locked(struct bw_audit *a, int64_t now_ms)
{
    size_t nrows = 0;
    int64_t keep_from = minute_of(now_ms) - MINUTE_MS;
    for (int si = 0; si < SHARDS; si++) {
        struct shard *s = &a->shards[si];
        pthread_mutex_lock(&s->mu);
        int kept = 0;
        for (int i = 0; i < s->n; i++) {
            struct agg *g = &s->e[i];
            if (g->n > 0) {
                struct store_audit_row *w = &a->rows[nrows++];
                w->kind = KIND_NAME[g->kind];
                w->principal_type = PTYPE_NAME[g->ptype];
                memcpy(w->principal, g->principal, sizeof w->principal);
                memcpy(w->sub, g->sub, sizeof w->sub);
                memcpy(w->account_id, g->account_id, sizeof w->account_id);
                memcpy(w->detail, g->detail, sizeof w->detail);
                w->bucket_ms = g->bucket_ms;
                w->n = g->n;
                w->first_ms = g->first_ms;
                w->last_ms = g->last_ms;
                w->written = false;
                g->n = 0;
            }
            if (g->kind == BW_AUDIT_KEY_USE && g->bucket_ms >= keep_from) {
                if (kept != i)
                    s->e[kept] = *g;
                kept++;
            }
        }
        if (kept != s->n) {
            s->n = kept;
            relink(s);
        }
        pthread_mutex_unlock(&s->mu);
    }
    if (!nrows)
        return;
    if (store_audit_upsert(a->db, a->rows, nrows) != ST_OK) {
        uint64_t lost = 0, lost_rows = 0;
        for (size_t i = 0; i < nrows; i++)
            if (!a->rows[i].written) {
                lost += (uint64_t)a->rows[i].n;
                lost_rows++;
            }
        atomic_fetch_add_explicit(&a->dropped, lost, memory_order_relaxed);
        bw_log_json(BW_LOG_WARN, NULL, "audit events not written",
                    json_pack("{s:I,s:I}", "rows", (json_int_t)lost_rows, "events", (json_int_t)lost));
    }
}

void bw_audit_flush(struct bw_audit *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->flush_mu);
    flush_locked(a, bw_now_us() / 1000);
    pthread_mutex_unlock(&a->flush_mu);
}

int64_t bw_audit_purge(struct db *db, int64_t now_ms)
{
    int64_t total = 0;
    for (size_t k = 0; k < NKINDS; k++) {
        int64_t del = 0;
        do {
            if (store_audit_purge(db, KIND_NAME[k], now_ms - BW_AUDIT_RETENTION_MS, BW_AUDIT_PURGE_BATCH, &del) !=
                ST_OK)
                return -1;
            total += del;
        } while (del == BW_AUDIT_PURGE_BATCH);
    }
    return total;
}

static void *flusher_main(void *arg)
{
    struct bw_audit *a = arg;
    int64_t next_purge = bw_mono_us() / 1000 + BW_AUDIT_PURGE_FIRST_MS;
    pthread_mutex_lock(&a->mu);
    while (!a->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += BW_AUDIT_FLUSH_MS / 1000;
        ts.tv_nsec += (long)(BW_AUDIT_FLUSH_MS % 1000) * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&a->cv, &a->mu, &ts);
        if (a->stopping)
            break;
        pthread_mutex_unlock(&a->mu);
        bw_audit_flush(a);
        int64_t mono = bw_mono_us() / 1000;
        if (mono >= next_purge) {
            int64_t del = bw_audit_purge(a->db, bw_now_us() / 1000);
            if (del > 0)
                bw_log_json(BW_LOG_INFO, NULL, "audit retention", json_pack("{s:I}", "deleted", (json_int_t)del));
            next_purge = mono + BW_AUDIT_PURGE_INTERVAL_MS;
        }
        pthread_mutex_lock(&a->mu);
    }
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

static void audit_free(struct bw_audit *a)
{
    if (a->shards)
        for (int i = 0; i < SHARDS; i++)
            pthread_mutex_destroy(&a->shards[i].mu);
    pthread_mutex_destroy(&a->flush_mu);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a->shards);
    free(a->rows);
    free(a);
}

struct bw_audit *bw_audit_start(struct db *db)
{
    struct bw_audit *a = calloc(1, sizeof *a);
    if (!a) {
        bw_logf(BW_LOG_ERROR, NULL, "audit: out of memory");
        return NULL;
    }
    a->db = db;
    atomic_init(&a->dropped, 0);
    pthread_mutex_init(&a->flush_mu, NULL);
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    a->shards = calloc(SHARDS, sizeof *a->shards);
    a->rows = calloc(BW_AUDIT_MAX_PENDING, sizeof *a->rows);
    if (!a->shards || !a->rows) {
        bw_logf(BW_LOG_ERROR, NULL, "audit: out of memory");
        free(a->shards);
        a->shards = NULL;
        audit_free(a);
        return NULL;
    }
    for (int i = 0; i < SHARDS; i++) {
        pthread_mutex_init(&a->shards[i].mu, NULL);
        relink(&a->shards[i]);
    }
    if (pthread_create(&a->th, NULL, flusher_main, a) != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "audit: cannot start the flusher thread");
        audit_free(a);
        return NULL;
    }
    a->started = true;
    return a;
}

void bw_audit_stop(struct bw_audit *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    a->stopping = true;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    if (a->started)
        pthread_join(a->th, NULL);
    bw_audit_flush(a);
    audit_free(a);
}

/* ---- anomalies ---------------------------------------------------------------------------------- */

enum { SEV_LOW, SEV_MEDIUM, SEV_HIGH, SEV_CRITICAL };
static const char *const SEV_NAME[] = {"LOW", "MEDIUM", "HIGH", "CRITICAL"};

struct rule {
    const char *type;
    enum bw_audit_kind kind;
    int64_t min;   /* threshold within the window */
    int window_s;  /* a whole number of minutes */
    bool distinct; /* count distinct client IPs (sub) instead of events */
    int severity;  /* at the threshold; one step up from BW_AUDIT_ESCALATE_FACTOR x min */
    const char *what; /* "%lld <what> within %d s" */
};

static const struct rule RULES[] = {
    {"AUTH_FAILURE_BURST", BW_AUDIT_AUTH_FAILURE, BW_AUDIT_AUTH_FAILURE_MIN, BW_AUDIT_AUTH_FAILURE_WINDOW_S, false,
     SEV_MEDIUM, "failed authentications"},
    {"RATE_LIMIT_BURST", BW_AUDIT_RATE_LIMITED, BW_AUDIT_RATE_LIMIT_MIN, BW_AUDIT_RATE_LIMIT_WINDOW_S, false,
     SEV_LOW, "rate-limited requests"},
    {"KEY_MULTI_IP", BW_AUDIT_KEY_USE, BW_AUDIT_KEY_IPS_MIN, BW_AUDIT_KEY_IPS_WINDOW_S, true, SEV_HIGH,
     "distinct client addresses using the key"},
    {"PRIVILEGED_ROUTE_PROBE", BW_AUDIT_PRIVILEGED_DENIED, BW_AUDIT_PRIV_PROBE_MIN, BW_AUDIT_PRIV_PROBE_WINDOW_S,
     false, SEV_HIGH, "denied calls to privileged routes"},
};
_Static_assert(BW_AUDIT_AUTH_FAILURE_WINDOW_S % 60 == 0 && BW_AUDIT_RATE_LIMIT_WINDOW_S % 60 == 0 &&
                   BW_AUDIT_KEY_IPS_WINDOW_S % 60 == 0 && BW_AUDIT_PRIV_PROBE_WINDOW_S % 60 == 0,
               "anomaly windows are whole minutes");

struct found {
    int severity;
    int64_t last_ms;
    const char *type;
    json_t *item;
};

static int cand_cmp(const void *x, const void *y)
{
    const struct store_audit_cand *a = x, *b = y;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return strcmp(a->principal, b->principal);
}

static int found_cmp(const void *x, const void *y)
{
    const struct found *a = x, *b = y;
    if (a->severity != b->severity)
        return b->severity - a->severity;
    if (a->last_ms != b->last_ms)
        return a->last_ms > b->last_ms ? -1 : 1;
    int c = strcmp(a->type, b->type);
    if (c)
        return c;
    return strcmp(json_string_value(json_object_get(a->item, "principal")),
                  json_string_value(json_object_get(b->item, "principal")));
}

/* The most events in any window of `minutes` consecutive buckets; rows oldest first, one per
 * bucket (sub is '' for these kinds; equal buckets are summed anyway). */
static int64_t worst_sum(const struct store_audit_bucket *b, size_t n, int minutes)
{
    int64_t span = (int64_t)(minutes - 1) * MINUTE_MS, sum = 0, best = 0;
    size_t left = 0;
    for (size_t j = 0; j < n; j++) {
        sum += b[j].n;
        while (b[left].bucket_ms < b[j].bucket_ms - span)
            sum -= b[left++].n;
        if (sum > best)
            best = sum;
    }
    return best;
}

static int sub_cmp_r(const void *x, const void *y, void *ctx)
{
    const struct store_audit_bucket *rows = ctx;
    return strcmp(rows[*(const size_t *)x].sub, rows[*(const size_t *)y].sub);
}

/* The most distinct subs in any window of `minutes` consecutive buckets; -1 when out of memory. */
static int64_t worst_distinct(const struct store_audit_bucket *b, size_t n, int minutes)
{
    if (!n)
        return 0;
    size_t *order = malloc(n * sizeof *order);
    int32_t *id = malloc(n * sizeof *id), *cnt = calloc(n, sizeof *cnt);
    int64_t best = -1;
    if (!order || !id || !cnt)
        goto out;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, n, sizeof *order, sub_cmp_r, (void *)b);
    int32_t next = -1;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(b[order[i]].sub, b[order[i - 1]].sub) != 0)
            next++;
        id[order[i]] = next;
    }
    int64_t span = (int64_t)(minutes - 1) * MINUTE_MS, distinct = 0;
    best = 0;
    size_t left = 0;
    for (size_t j = 0; j < n; j++) {
        if (cnt[id[j]]++ == 0)
            distinct++;
        while (b[left].bucket_ms < b[j].bucket_ms - span) {
            if (--cnt[id[left]] == 0)
                distinct--;
            left++;
        }
        if (distinct > best)
            best = distinct;
    }
out:
    free(order);
    free(id);
    free(cnt);
    return best;
}

/* Sorts candidates largest first, drops repeats (an account listed twice in a scope) and keeps
 * the first BW_AUDIT_TOP_PRINCIPALS; returns how many are left. */
static size_t top_cands(struct store_audit_cand *c, size_t n)
{
    qsort(c, n, sizeof *c, cand_cmp);
    size_t k = 0;
    for (size_t i = 0; i < n && k < BW_AUDIT_TOP_PRINCIPALS; i++) {
        if (k && strcmp(c[k - 1].principal, c[i].principal) == 0 && strcmp(c[k - 1].account_id, c[i].account_id) == 0)
            continue;
        if (k != i)
            c[k] = c[i];
        k++;
    }
    return k;
}

/* Collects the rule's candidate principals visible to the scope into cands (largest totals
 * first, at most BW_AUDIT_TOP_PRINCIPALS). cands holds 2 x BW_AUDIT_TOP_PRINCIPALS. */
static int rule_candidates(struct db *db, const struct rule *ru, const struct bw_audit_scope *s, size_t nacc,
                           int64_t from, int64_t to, struct store_audit_cand *cands, size_t *ncand)
{
    *ncand = 0;
    size_t rounds = s->all ? 1 : nacc;
    for (size_t i = 0; i < rounds; i++) {
        const char *acc = s->all ? NULL : s->accounts[i];
        if (!s->all && (!acc || !acc[0]))
            continue;
        size_t got = 0;
        if (store_audit_candidates(db, KIND_NAME[ru->kind], acc, ru->distinct, from, to, ru->min,
                                   BW_AUDIT_SCAN_ROWS, cands + *ncand, BW_AUDIT_TOP_PRINCIPALS, &got) != ST_OK)
            return -1;
        *ncand += got;
        if (*ncand > BW_AUDIT_TOP_PRINCIPALS)
            *ncand = top_cands(cands, *ncand);
    }
    *ncand = top_cands(cands, *ncand);
    return 0;
}

/* Examines one candidate; appends to found when the rule fires. 0, or -1 on a database error. */
static int examine(struct db *db, const struct rule *ru, const struct store_audit_cand *c, bool all, int64_t from,
                   int64_t to, struct store_audit_bucket *rows, struct found *found, size_t *nfound)
{
    size_t n = 0;
    char ptype[16], detail[BW_AUDIT_DETAIL_MAX];
    if (store_audit_buckets(db, KIND_NAME[ru->kind], c->principal, all ? NULL : c->account_id, from, to, rows,
                            BW_AUDIT_ROWS_PER_PRINCIPAL, &n, ptype, detail) != ST_OK)
        return -1;
    if (!n)
        return 0;
    int minutes = ru->window_s / 60;
    int64_t count = ru->distinct ? worst_distinct(rows, n, minutes) : worst_sum(rows, n, minutes);
    if (count < 0)
        return -1;
    if (count < ru->min)
        return 0;
    int64_t first = rows[0].first_ms, last = rows[0].last_ms;
    for (size_t i = 1; i < n; i++) {
        if (rows[i].first_ms < first)
            first = rows[i].first_ms;
        if (rows[i].last_ms > last)
            last = rows[i].last_ms;
    }
    int sev = ru->severity + (count >= ru->min * BW_AUDIT_ESCALATE_FACTOR ? 1 : 0);
    if (sev > SEV_CRITICAL)
        sev = SEV_CRITICAL;
    char fs[21], ls[21], text[320];
    bw_iso8601(first / 1000, fs);
    bw_iso8601(last / 1000, ls);
    int tn = snprintf(text, sizeof text, "%lld %s within %d s (threshold %lld)", (long long)count, ru->what,
                      ru->window_s, (long long)ru->min);
    if (detail[0] && tn > 0 && (size_t)tn < sizeof text)
        snprintf(text + tn, sizeof text - (size_t)tn, "; latest: %s", detail);
    json_t *item = json_pack("{s:s,s:s,s:s,s:s,s:o,s:I,s:i,s:s,s:s,s:s}", "type", ru->type, "severity",
                             SEV_NAME[sev], "principal", c->principal, "principal_type",
                             ptype[0] ? ptype : (ru->kind == BW_AUDIT_KEY_USE ? "api_key" : "ip"), "account_id",
                             c->account_id[0] ? json_string(c->account_id) : json_null(), "count",
                             (json_int_t)count, "window_s", ru->window_s, "first_seen", fs, "last_seen", ls,
                             "detail", text);
    if (!item) /* only text we wrote (printable ASCII) is stored, so this means out of memory */
        return -1;
    found[(*nfound)++] = (struct found){sev, last, ru->type, item};
    return 0;
}

int bw_audit_anomalies(struct db *db, const struct bw_audit_scope *s, int64_t now_ms, json_t **out)
{
    *out = NULL;
    if (!db || !s || (!s->all && s->naccounts && !s->accounts))
        return -1;
    size_t nacc = s->all ? 0 : s->naccounts;
    if (nacc > BW_AUDIT_SCOPE_MAX_ACCOUNTS) {
        bw_log_json(BW_LOG_WARN, NULL, "audit anomalies: scope cut",
                    json_pack("{s:I,s:i}", "accounts", (json_int_t)nacc, "looked_at", BW_AUDIT_SCOPE_MAX_ACCOUNTS));
        nacc = BW_AUDIT_SCOPE_MAX_ACCOUNTS;
    }
    const size_t nrules = sizeof RULES / sizeof RULES[0];
    int64_t from = minute_of(now_ms - BW_AUDIT_PERIOD_MS), to = now_ms;
    struct store_audit_cand *cands = calloc(2 * BW_AUDIT_TOP_PRINCIPALS, sizeof *cands);
    struct store_audit_bucket *rows = malloc(BW_AUDIT_ROWS_PER_PRINCIPAL * sizeof *rows);
    struct found *found = calloc(nrules * BW_AUDIT_TOP_PRINCIPALS, sizeof *found);
    size_t nfound = 0;
    int rc = -1;
    if (!cands || !rows || !found)
        goto out;
    if (s->all || nacc) {
        for (size_t ri = 0; ri < nrules; ri++) {
            const struct rule *ru = &RULES[ri];
            size_t ncand = 0;
            if (rule_candidates(db, ru, s, nacc, from, to, cands, &ncand) != 0)
                goto out;
            for (size_t i = 0; i < ncand; i++)
                if (examine(db, ru, &cands[i], s->all, from, to, rows, found, &nfound) != 0)
                    goto out;
        }
    }
    qsort(found, nfound, sizeof *found, found_cmp);
    json_t *arr = json_array();
    if (!arr)
        goto out;
    for (size_t i = 0; i < nfound; i++) {
        if (i < BW_AUDIT_MAX_ANOMALIES)
            json_array_append(arr, found[i].item);
    }
    *out = arr;
    rc = 0;
out:
    for (size_t i = 0; found && i < nfound; i++)
        json_decref(found[i].item);
    free(found);
    free(rows);
    free(cands);
    return rc;
}
