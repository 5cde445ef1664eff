/* On-demand orchestrator packs, computed once per scope and shared (orch_cache.h). */
#include "services/orch_cache.h"

#include "audit/audit.h"
#include "common/limits.h"
#include "common/log.h"
#include "store/store.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PACKS 4 /* enum store_orch_pack */

struct entry {
    char *scope;          /* the scope as JSON text: the identity; NULL = a free place */
    char key[BW_ORCH_SCOPE_KEY_MAX];
    bool computing;       /* a thread is computing it: it keeps its place */
    bool ok;              /* the last computation gave the packs below */
    unsigned long gen;    /* computations of this place that ended */
    int64_t at_s;         /* when they were computed */
    char *text[PACKS];
    size_t len[PACKS];
};

struct bw_orch_cache {
    struct db *db;
    struct bw_audit *audit;
    long ttl_s;
    atomic_ulong computations;
    pthread_mutex_t mu;
    pthread_cond_t ended; /* a computation ended: its waiters look again */
    struct entry e[BW_ORCH_PACK_CACHE_SCOPES];
};

struct bw_orch_cache *bw_orch_cache_new(struct db *db, struct bw_audit *audit, long ttl_s)
{
    struct bw_orch_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->db = db;
    c->audit = audit;
    c->ttl_s = ttl_s;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->ended, NULL);
    return c;
}

static void texts_free(char *text[PACKS])
{
    for (int i = 0; i < PACKS; i++) {
        free(text[i]);
        text[i] = NULL;
    }
}

static void entry_clear(struct entry *e)
{
    free(e->scope);
    e->scope = NULL;
    texts_free(e->text);
    e->ok = false;
}

void bw_orch_cache_free(struct bw_orch_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < BW_ORCH_PACK_CACHE_SCOPES; i++)
        entry_clear(&c->e[i]);
    pthread_cond_destroy(&c->ended);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

unsigned long bw_orch_cache_computations(struct bw_orch_cache *c)
{
    return atomic_load_explicit(&c->computations, memory_order_relaxed);
}

static struct entry *find(struct bw_orch_cache *c, const char *id)
{
    for (size_t i = 0; i < BW_ORCH_PACK_CACHE_SCOPES; i++)
        if (c->e[i].scope && strcmp(c->e[i].scope, id) == 0)
            return &c->e[i];
    return NULL;
}

/* A place for a new scope: a free one, else the oldest computation not in progress; NULL when
 * every place is being computed. */
static struct entry *place(struct bw_orch_cache *c)
{
    struct entry *old = NULL;
    for (size_t i = 0; i < BW_ORCH_PACK_CACHE_SCOPES; i++) {
        struct entry *e = &c->e[i];
        if (!e->scope)
            return e;
        if (!e->computing && (!old || e->at_s < old->at_s))
            old = e;
    }
    if (old)
        entry_clear(old);
    return old;
}

/* A copy of one pack's text. */
static int copy_out(char *const text[PACKS], const size_t len[PACKS], enum store_orch_pack pack, char **out,
                    size_t *out_len)
{
    char *t = malloc(len[pack] + 1);
    if (!t)
        return ST_ERROR;
    memcpy(t, text[pack], len[pack] + 1);
    *out = t;
    *out_len = len[pack];
    return ST_OK;
}

/* Runs the pipeline without side effects and serialises the four packs. ST_OK or ST_ERROR. */
static int compute(struct bw_orch_cache *c, const struct bw_orch_scope *s, int64_t now_s, char *text[PACKS],
                   size_t len[PACKS])
{
    atomic_fetch_add_explicit(&c->computations, 1, memory_order_relaxed);
    bw_audit_flush(c->audit); /* this instance's latest events count too */
    struct bw_orch_opts o = {.max_items = BW_ORCH_MAX_ITEMS_DEFAULT, .now_s = now_s};
    struct bw_orch_packs p;
    char why[256] = "";
    if (bw_orch_compute(c->db, s, &o, &p, why, sizeof why) != 0) {
        bw_logf(BW_LOG_WARN, NULL, "on-demand orchestrator packs of scope %s: %s", s->key, why);
        return ST_ERROR;
    }
    json_t *const all[PACKS] = {p.ciso, p.aspm, p.compliance, p.hunt};
    int rc = ST_OK;
    for (int i = 0; i < PACKS; i++) {
        text[i] = json_dumps(all[i], JSON_COMPACT | JSON_PRESERVE_ORDER);
        len[i] = text[i] ? strlen(text[i]) : 0;
        if (!text[i])
            rc = ST_ERROR;
    }
    bw_orch_packs_free(&p);
    if (rc != ST_OK)
        texts_free(text);
    return rc;
}

int bw_orch_cache_get(struct bw_orch_cache *c, const struct bw_orch_scope *s, enum store_orch_pack pack,
                      int64_t now_s, char **text, size_t *len)
{
    json_t *sj = bw_orch_scope_json(s);
    char *id = sj ? json_dumps(sj, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(sj);
    if (!id)
        return ST_ERROR;
    int rc = ST_ERROR;
    pthread_mutex_lock(&c->mu);
    struct entry *e;
    for (;;) {
        e = find(c, id);
        if (!e)
            break;
        if (e->computing) { /* join it: its result is ours, whatever the ttl */
            unsigned long gen = e->gen;
            while (e->computing && e->gen == gen)
                pthread_cond_wait(&c->ended, &c->mu);
            if (e->scope && strcmp(e->scope, id) == 0 && e->gen == gen + 1) {
                rc = e->ok ? copy_out(e->text, e->len, pack, text, len) : ST_ERROR;
                goto out;
            }
            continue; /* its place went to another scope meanwhile: look again */
        }
        if (e->ok && now_s >= e->at_s && now_s - e->at_s < c->ttl_s) {
            rc = copy_out(e->text, e->len, pack, text, len);
            goto out;
        }
        break; /* too old (or failed): computed again in the same place */
    }
    if (!e && (e = place(c)) != NULL) {
        e->scope = strdup(id);
        if (!e->scope)
            goto out;
        snprintf(e->key, sizeof e->key, "%s", s->key);
    }
    if (e)
        e->computing = true;
    pthread_mutex_unlock(&c->mu);

    char *t[PACKS] = {0};
    size_t l[PACKS] = {0};
    rc = compute(c, s, now_s, t, l);

    pthread_mutex_lock(&c->mu);
    if (rc == ST_OK)
        rc = copy_out(t, l, pack, text, len);
    if (e) {
        texts_free(e->text);
        memcpy(e->text, t, sizeof t);
        memcpy(e->len, l, sizeof l);
        e->ok = e->text[0] != NULL;
        e->at_s = now_s;
        e->computing = false;
        e->gen++;
        pthread_cond_broadcast(&c->ended);
    } else {
        texts_free(t); /* no place to keep it */
    }
out:
    pthread_mutex_unlock(&c->mu);
    free(id);
    return rc;
}

void bw_orch_cache_forget(struct bw_orch_cache *c, const char *scope_key)
{
    pthread_mutex_lock(&c->mu);
    for (size_t i = 0; i < BW_ORCH_PACK_CACHE_SCOPES; i++) {
        struct entry *e = &c->e[i];
        if (e->scope && !e->computing && strcmp(e->key, scope_key) == 0)
            entry_clear(e);
    }
    pthread_mutex_unlock(&c->mu);
}
