#include "auth/auth.h"

#include "auth/jwt.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "store/store.h"
#include "store/store_console.h"

#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define STRIPES 64

/* One cached verified credential: an API key or a user (by id, for JWTs). An API key's entry is
 * found by "k" + the hex SipHash-2-4 (128 bits, crypto_shorthash_siphashx24) of the key as
 * presented, under a key drawn at random per process: a hit costs no SHA-256 and no database
 * read, and nobody without the process's hash key can make two API keys share an entry. */
struct centry {
    char k[66];          /* "k" + 32 hex digits, or "u" + user id; "" = empty */
    int64_t expires_us;  /* monotonic */
    struct bw_principal p;
    int64_t touched_s;   /* API keys: when last_used_at was last written */
    int64_t gen;         /* users: the account's token generation when read */
    bool disabled;       /* users: the account was disabled when read */
};

struct bw_auth {
    struct db *db;
    unsigned char secret[256];
    size_t slen;
    unsigned char admin_hash[32];
    unsigned char shkey[crypto_shorthash_siphashx24_KEYBYTES]; /* the API-key entries' hash key */
    int64_t ttl_us;
    struct db_listener *listener; /* other instances' revocations; NULL on SQLite */
    struct db_watch *watch;       /* SQLite: the CLI's changes (another process); else NULL */
    pthread_mutex_t watch_mu;     /* a poll and the flush it calls for, as one; guards watch */
    atomic_bool watching;         /* watch is set (read without the lock) */
    /* Sweeps begun: an entry read from the database before a sweep is not stored after it (it
     * may be what the sweep was for: a request that read a key just before the CLI revoked it
     * would otherwise put it back after the next request's flush). */
    atomic_uint_fast64_t sweeps;
    pthread_mutex_t mu[STRIPES];
    struct centry slots[BW_AUTH_CACHE_SLOTS];
};

static uint64_t h64(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

static void on_notify(void *arg, const char *payload);

struct bw_auth *bw_auth_new(struct db *db, const unsigned char *sec, size_t slen,
                            const unsigned char admin_hash[32], long cache_ms)
{
    struct bw_auth *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->db = db;
    a->slen = slen > sizeof a->secret ? sizeof a->secret : slen;
    memcpy(a->secret, sec, a->slen);
    memcpy(a->admin_hash, admin_hash, 32);
    randombytes_buf(a->shkey, sizeof a->shkey);
    a->ttl_us = (int64_t)cache_ms * 1000;
    for (int i = 0; i < STRIPES; i++)
        pthread_mutex_init(&a->mu[i], NULL);
    a->listener = db_listen(db, BW_AUTH_CHANNEL, on_notify, a);
    pthread_mutex_init(&a->watch_mu, NULL);
    if (!a->listener && a->ttl_us > 0)
        a->watch = db_watch(db);
    atomic_init(&a->watching, a->watch != NULL);
    return a;
}

void bw_auth_free(struct bw_auth *a)
{
    if (!a)
        return;
    db_listen_stop(a->listener); /* first: its callback uses the cache */
    db_watch_free(a->watch);
    pthread_mutex_destroy(&a->watch_mu);
    for (int i = 0; i < STRIPES; i++)
        pthread_mutex_destroy(&a->mu[i]);
    sodium_memzero(a->secret, sizeof a->secret);
    sodium_memzero(a->shkey, sizeof a->shkey);
    free(a);
}

static void forget_where(struct bw_auth *a, bool (*drop)(const struct centry *, const char *), const char *arg);
static bool any(const struct centry *e, const char *unused);

/* Copies the cached entry for k into *out when fresh; returns whether it was. *sweeps is the sweep
 * count to hand cache_put for what the caller stores after this lookup. On SQLite, another
 * process that wrote the database (the CLI: `bulwark user disable`, a key revoked, a password)
 * empties the cache first, so its change holds from the first request after it finished rather
 * than within the TTL. Polled and flushed under one lock: a caller that finds the queue empty
 * because another just drained it waits for that flush. A watch that ended (the file or its
 * directory moved away) is dropped after one last flush: the TTL bounds changes from then on. */
static bool cache_get(struct bw_auth *a, const char *k, int64_t now, struct centry *out, uint64_t *sweeps)
{
    if (atomic_load_explicit(&a->watching, memory_order_acquire)) {
        pthread_mutex_lock(&a->watch_mu);
        if (a->watch && db_watch_poll(a->watch)) {
            forget_where(a, any, NULL);
            if (!db_watch_alive(a->watch)) {
                db_watch_free(a->watch);
                a->watch = NULL;
                atomic_store(&a->watching, false);
            }
        }
        pthread_mutex_unlock(&a->watch_mu);
    }
    *sweeps = atomic_load(&a->sweeps);
    if (a->ttl_us <= 0)
        return false;
    uint64_t h = h64(k);
    size_t slot = h % BW_AUTH_CACHE_SLOTS;
    pthread_mutex_t *m = &a->mu[slot % STRIPES];
    bool hit = false;
    pthread_mutex_lock(m);
    struct centry *e = &a->slots[slot];
    if (e->k[0] && strcmp(e->k, k) == 0 && e->expires_us > now) {
        *out = *e;
        hit = true;
    }
    pthread_mutex_unlock(m);
    return hit;
}

/* Stores ce unless a sweep began since the lookup that returned sweeps (checked under the slot's
 * lock, which the sweep takes after counting itself: a store either lands before the sweep
 * reaches its slot or sees the count moved). */
static void cache_put(struct bw_auth *a, const struct centry *ce, uint64_t sweeps)
{
    if (a->ttl_us <= 0)
        return;
    size_t slot = h64(ce->k) % BW_AUTH_CACHE_SLOTS;
    pthread_mutex_lock(&a->mu[slot % STRIPES]);
    if (atomic_load(&a->sweeps) == sweeps)
        a->slots[slot] = *ce;
    pthread_mutex_unlock(&a->mu[slot % STRIPES]);
}

/* Empties the slots whose entry `drop` selects. */
static void forget_where(struct bw_auth *a, bool (*drop)(const struct centry *, const char *), const char *arg)
{
    atomic_fetch_add(&a->sweeps, 1);
    for (size_t i = 0; i < BW_AUTH_CACHE_SLOTS; i++) {
        pthread_mutex_lock(&a->mu[i % STRIPES]);
        if (a->slots[i].k[0] && drop(&a->slots[i], arg))
            a->slots[i].k[0] = '\0';
        pthread_mutex_unlock(&a->mu[i % STRIPES]);
    }
}

static bool is_key(const struct centry *e, const char *id) { return e->k[0] == 'k' && strcmp(e->p.key_id, id) == 0; }
static bool of_user(const struct centry *e, const char *id) { return strcmp(e->p.user_id, id) == 0; }
static bool any(const struct centry *e, const char *unused)
{
    (void)e;
    (void)unused;
    return true;
}

/* A notification from any instance (this one's own included). */
static void on_notify(void *arg, const char *payload)
{
    struct bw_auth *a = arg;
    if (payload && strncmp(payload, "key:", 4) == 0)
        forget_where(a, is_key, payload + 4);
    else if (payload && strncmp(payload, "user:", 5) == 0)
        forget_where(a, of_user, payload + 5);
    else /* "*", or NULL: notifications may have been missed while the listener was away */
        forget_where(a, any, NULL);
}

/* Drops what `drop` selects here and tells the other instances ("<kind>:<id>"). */
static void forget_and_notify(struct bw_auth *a, bool (*drop)(const struct centry *, const char *), const char *kind,
                              const char *id)
{
    forget_where(a, drop, id);
    char msg[BW_ID_MAX + 8];
    snprintf(msg, sizeof msg, "%s:%s", kind, id);
    if (db_notify(a->db, BW_AUTH_CHANNEL, msg) != DB_OK) /* the others see it within the cache's TTL */
        bw_logf(BW_LOG_WARN, NULL, "revocation not broadcast to other instances; they follow within BULWARK_AUTH_CACHE_MS");
}

void bw_auth_forget_key(struct bw_auth *a, const char *key_id) { forget_and_notify(a, is_key, "key", key_id); }

void bw_auth_forget_user(struct bw_auth *a, const char *user_id) { forget_and_notify(a, of_user, "user", user_id); }

void bw_auth_refresh_user(struct bw_auth *a, const char *user_id) { forget_where(a, of_user, user_id); }

/* last_used_at: written on first use and then at most once per BW_KEY_TOUCH_INTERVAL_S. */
static void touch_key(struct bw_auth *a, struct centry *ce, int64_t now_s)
{
    if (ce->touched_s && now_s - ce->touched_s < BW_KEY_TOUCH_INTERVAL_S)
        return;
    char ts[21];
    bw_iso8601(now_s, ts);
    if (store_key_touch(a->db, ce->p.key_id, ts) == ST_OK)
        ce->touched_s = now_s;
}

static enum bw_err resolve_key(struct bw_auth *a, const char *key, struct bw_principal *out,
                               const char **why, enum bw_auth_fail *fail)
{
    size_t len = strlen(key);
    struct centry ce;
    memset(&ce, 0, sizeof ce);
    uint64_t sweeps = atomic_load(&a->sweeps); /* cache_get's, when it is asked */
    unsigned char d[crypto_shorthash_siphashx24_BYTES];
    int64_t now = bw_mono_us(), now_s = bw_now_s();
    if (len == BW_KEY_LEN) { /* only a key of the right length can have been cached */
        crypto_shorthash_siphashx24(d, (const unsigned char *)key, len, a->shkey);
        ce.k[0] = 'k';
        sodium_bin2hex(ce.k + 1, sizeof ce.k - 1, d, sizeof d);
        if (cache_get(a, ce.k, now, &ce, &sweeps)) { /* well-formed: it was when it was cached */
            if (now_s - ce.touched_s >= BW_KEY_TOUCH_INTERVAL_S) {
                touch_key(a, &ce, now_s);
                cache_put(a, &ce, sweeps);
            }
            *out = ce.p;
            return BW_OK;
        }
    }
    if (!bw_apikey_wellformed_n(key, len)) {
        *why = "invalid API key";
        *fail = BW_AUTH_FAIL_INVALID;
        return BW_E_AUTH_REQUIRED;
    }
    char hash[65]; /* what the database knows the key by */
    bw_apikey_hash(key, hash);
    struct store_key k;
    int rc = store_key_by_hash_any(a->db, hash, &k);
    if (rc == ST_ERROR)
        return BW_E_UNAVAILABLE;
    if (rc != ST_OK || !k.active || k.owner_disabled) {
        *why = "invalid or revoked API key"; /* the same words either way: the metric tells them apart */
        *fail = rc == ST_OK ? BW_AUTH_FAIL_REVOKED : BW_AUTH_FAIL_INVALID;
        return BW_E_AUTH_REQUIRED;
    }
    ce.p.kind = BW_AUTH_APIKEY;
    snprintf(ce.p.user_id, sizeof ce.p.user_id, "%s", k.user_id);
    ce.p.tier = k.tier;
    ce.p.role = k.role;
    snprintf(ce.p.key_id, sizeof ce.p.key_id, "%s", k.id);
    snprintf(ce.p.key_prefix, sizeof ce.p.key_prefix, "%s", k.prefix);
    int64_t last = 0;
    if (k.last_used_at[0] && bw_parse_iso8601(k.last_used_at, &last) == 0)
        ce.touched_s = last;
    touch_key(a, &ce, now_s);
    ce.expires_us = now + a->ttl_us;
    cache_put(a, &ce, sweeps);
    *out = ce.p;
    return BW_OK;
}

static enum bw_err resolve_jwt(struct bw_auth *a, const char *tok, struct bw_principal *out,
                               const char **why, enum bw_auth_fail *fail)
{
    struct bw_jwt_claims c;
    int vrc = bw_jwt_verify(a->secret, a->slen, tok, strlen(tok), bw_now_s(), &c);
    if (vrc != 0) {
        *why = "invalid or expired token";
        *fail = vrc == BW_JWT_EXPIRED ? BW_AUTH_FAIL_EXPIRED : BW_AUTH_FAIL_INVALID;
        return BW_E_AUTH_REQUIRED;
    }
    /* the token names the account; tier and role are read from the account, so a tier change
     * applies without a new login. A token newer than what was cached was issued after a change
     * this instance has not heard of yet (another instance's password change): read again */
    struct centry ce;
    memset(&ce, 0, sizeof ce);
    snprintf(ce.k, sizeof ce.k, "u%s", c.sub);
    int64_t now = bw_mono_us();
    uint64_t sweeps = 0;
    if (!cache_get(a, ce.k, now, &ce, &sweeps) || c.gen > ce.gen) {
        struct store_user u;
        int rc = store_user_by_id(a->db, c.sub, &u);
        if (rc == ST_ERROR)
            return BW_E_UNAVAILABLE;
        if (rc != ST_OK) {
            *why = "the token's account does not exist";
            *fail = BW_AUTH_FAIL_INVALID;
            return BW_E_AUTH_REQUIRED;
        }
        memset(&ce.p, 0, sizeof ce.p);
        ce.p.kind = BW_AUTH_JWT;
        snprintf(ce.p.user_id, sizeof ce.p.user_id, "%s", u.id);
        ce.p.tier = u.tier;
        ce.p.role = u.role;
        ce.gen = u.token_gen;
        ce.disabled = u.disabled;
        ce.expires_us = now + a->ttl_us;
        cache_put(a, &ce, sweeps);
    }
    if (ce.disabled || c.gen != ce.gen) {
        *why = "this session has ended (the account's password, role or state changed); log in again";
        *fail = BW_AUTH_FAIL_REVOKED;
        return BW_E_AUTH_REQUIRED;
    }
    *out = ce.p;
    out->token_gen = c.gen;
    return BW_OK;
}

/* A header value without the optional whitespace around it (RFC 9110 5.5: not part of the value).
 * libmicrohttpd strips only the leading part; a value with trailing whitespace is copied to buf,
 * and one too long for buf is returned as it is (no credential is that long, so it fails). */
static const char *trim_ows(const char *s, char *buf, size_t cap)
{
    if (!s)
        return NULL;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    if (n == 0 || (s[n - 1] != ' ' && s[n - 1] != '\t'))
        return s;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n >= cap)
        return s;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

enum bw_err bw_auth_resolve(struct bw_auth *a, const char *authz_in, const char *xkey_in,
                            struct bw_principal *out, const char **why, enum bw_auth_fail *failp)
{
    char abuf[BW_MAX_TOKEN_LEN + 16], kbuf[BW_MAX_TOKEN_LEN + 16]; /* "Bearer " + token */
    const char *authz = trim_ows(authz_in, abuf, sizeof abuf);
    const char *xkey = trim_ows(xkey_in, kbuf, sizeof kbuf);
    enum bw_auth_fail spare;
    enum bw_auth_fail *fail = failp ? failp : &spare;
    memset(out, 0, sizeof *out);
    out->kind = BW_AUTH_ANON;
    out->tier = BW_TIER_FREE;
    *why = NULL;
    *fail = BW_AUTH_FAIL_INVALID;
    if (authz && xkey) {
        *why = "send either Authorization or X-API-Key, not both";
        return BW_E_AUTH_REQUIRED;
    }
    if (xkey) {
        if (strncmp(xkey, BW_KEY_PREFIX, 4) != 0) {
            unsigned char h[32];
            crypto_hash_sha256(h, (const unsigned char *)xkey, strlen(xkey));
            if (sodium_memcmp(h, a->admin_hash, 32) == 0) {
                out->kind = BW_AUTH_ADMINKEY;
                out->tier = BW_TIER_ENTERPRISE;
                out->role = BW_ROLE_ADMIN;
                return BW_OK;
            }
            *why = "invalid API key";
            return BW_E_AUTH_REQUIRED;
        }
        return resolve_key(a, xkey, out, why, fail);
    }
    if (authz) {
        if (strncasecmp(authz, "Bearer ", 7) != 0 || !authz[7]) {
            *why = "Authorization must be 'Bearer <token>'";
            return BW_E_AUTH_REQUIRED;
        }
        const char *tok = authz + 7;
        while (*tok == ' ')
            tok++;
        return resolve_jwt(a, tok, out, why, fail);
    }
    return BW_OK;
}

bool bw_auth_basic_password(const char *a, char *out, size_t cap)
{
    out[0] = '\0';
    if (!a)
        return false;
    while (*a == ' ' || *a == '\t')
        a++;
    if (strncasecmp(a, "Basic ", 6) != 0)
        return false;
    a += 6;
    while (*a == ' ')
        a++;
    size_t n = strlen(a);
    while (n > 0 && (a[n - 1] == ' ' || a[n - 1] == '\t'))
        n--;
    unsigned char buf[BW_MAX_TOKEN_LEN];
    size_t len = 0;
    if (n == 0 || n > BW_MAX_TOKEN_LEN ||
        sodium_base642bin(buf, sizeof buf, a, n, NULL, &len, NULL, sodium_base64_VARIANT_ORIGINAL) != 0)
        return true;
    unsigned char *colon = memchr(buf, ':', len);
    if (!colon)
        return true;
    size_t plen = len - (size_t)(colon + 1 - buf);
    if (plen == 0 || plen >= cap || memchr(colon + 1, '\0', plen))
        return true;
    memcpy(out, colon + 1, plen);
    out[plen] = '\0';
    sodium_memzero(buf, sizeof buf);
    return true;
}

int bw_auth_issue_token(struct bw_auth *a, const char *user_id, enum bw_tier tier, enum bw_role role, int64_t gen,
                        char **out, long *expires_in)
{
    struct bw_jwt_claims c;
    memset(&c, 0, sizeof c);
    snprintf(c.sub, sizeof c.sub, "%s", user_id);
    c.tier = tier;
    c.role = role;
    c.iat = bw_now_s();
    c.exp = c.iat + BW_TOKEN_TTL_S;
    c.gen = gen;
    bw_id_new("jti_", c.jti);
    *expires_in = BW_TOKEN_TTL_S;
    return bw_jwt_sign(a->secret, a->slen, &c, out);
}

const char *bw_principal_label(const struct bw_principal *p, char buf[64])
{
    switch (p->kind) {
    case BW_AUTH_ANON:
        return "anonymous";
    case BW_AUTH_ADMINKEY:
        return "admin_key";
    case BW_AUTH_APIKEY:
        snprintf(buf, 64, "%s", p->key_prefix);
        return buf;
    case BW_AUTH_JWT:
        return p->user_id;
    }
    return "anonymous";
}

const char *bw_auth_fail_name(enum bw_auth_fail f)
{
    static const char *const names[BW_AUTH_FAIL__COUNT] = {
        [BW_AUTH_FAIL_MISSING] = "missing", [BW_AUTH_FAIL_INVALID] = "invalid", [BW_AUTH_FAIL_EXPIRED] = "expired",
        [BW_AUTH_FAIL_REVOKED] = "revoked", [BW_AUTH_FAIL_WRONG_KIND] = "wrong_kind",
    };
    return (unsigned)f < BW_AUTH_FAIL__COUNT ? names[f] : "invalid";
}

/* ---- the web console's sessions ------------------------------------------------------------------ */

enum bw_err bw_auth_console_begin(struct bw_auth *a, const char *user_id, int64_t gen,
                                  char id[BW_CONSOLE_ID_LEN + 1], char csrf[BW_CONSOLE_CSRF_LEN + 1])
{
    char hash[65];
    bw_console_new_id(id);
    bw_console_id_hash(id, hash);
    if (store_console_create(a->db, hash, user_id, gen, bw_now_s(), BW_CONSOLE_IDLE_S, BW_CONSOLE_MAX_AGE_S,
                             BW_CONSOLE_SESSIONS_MAX) != ST_OK)
        return BW_E_UNAVAILABLE;
    bw_console_csrf(a->secret, a->slen, id, csrf);
    return BW_OK;
}

/* The live session of id into *out (and when it ends at the latest); an ended one is deleted. */
static enum bw_err console_lookup(struct bw_auth *a, const char *id, struct bw_principal *out, int64_t *ends_s,
                                  const char **why, enum bw_auth_fail *fail)
{
    char hash[65];
    bw_console_id_hash(id, hash);
    struct store_console_session s;
    int rc = store_console_get(a->db, hash, &s);
    if (rc == ST_ERROR)
        return BW_E_UNAVAILABLE;
    *why = "the console session has ended; sign in again";
    if (rc != ST_OK) {
        *fail = BW_AUTH_FAIL_INVALID;
        return BW_E_AUTH_REQUIRED;
    }
    int64_t now = bw_now_s();
    bool changed = s.disabled || s.gen != s.user_gen;
    if (changed || now - s.created_s >= BW_CONSOLE_MAX_AGE_S || now - s.seen_s >= BW_CONSOLE_IDLE_S) {
        *fail = changed ? BW_AUTH_FAIL_REVOKED : BW_AUTH_FAIL_EXPIRED;
        if (store_console_delete(a->db, hash) != ST_OK) /* the next sign-in of the account sweeps it too */
            bw_logf(BW_LOG_WARN, NULL, "an ended console session was not deleted");
        return BW_E_AUTH_REQUIRED;
    }
    if (now - s.seen_s >= BW_CONSOLE_TOUCH_S && store_console_touch(a->db, hash, now) != ST_OK)
        return BW_E_UNAVAILABLE; /* an idle limit that cannot be kept is no session */
    memset(out, 0, sizeof *out);
    out->kind = BW_AUTH_JWT;
    snprintf(out->user_id, sizeof out->user_id, "%s", s.user_id);
    out->tier = s.tier;
    out->role = s.role;
    out->token_gen = s.gen;
    int64_t idle_end = (now - s.seen_s >= BW_CONSOLE_TOUCH_S ? now : s.seen_s) + BW_CONSOLE_IDLE_S;
    int64_t hard_end = s.created_s + BW_CONSOLE_MAX_AGE_S;
    *ends_s = idle_end < hard_end ? idle_end : hard_end;
    return BW_OK;
}

enum bw_err bw_auth_console_resolve(struct bw_auth *a, const char *cookie, const char *csrf_in, struct bw_principal *out,
                                    const char **why, enum bw_auth_fail *failp)
{
    enum bw_auth_fail spare;
    enum bw_auth_fail *fail = failp ? failp : &spare;
    memset(out, 0, sizeof *out);
    out->kind = BW_AUTH_ANON;
    out->tier = BW_TIER_FREE;
    *why = NULL;
    *fail = BW_AUTH_FAIL_INVALID;
    char id[BW_CONSOLE_ID_LEN + 2];
    if (!csrf_in || !bw_cookie_value(cookie, BW_CONSOLE_COOKIE, id, sizeof id))
        return BW_OK;
    char cbuf[BW_CONSOLE_CSRF_LEN + 8];
    const char *csrf = trim_ows(csrf_in, cbuf, sizeof cbuf);
    if (!bw_console_token_wellformed(id)) {
        *why = "the console session cookie is malformed; sign in again";
        return BW_E_AUTH_REQUIRED;
    }
    /* checked before the database is asked: a forged header costs one HMAC */
    if (!bw_console_csrf_ok(a->secret, a->slen, id, csrf)) {
        *why = "X-CSRF-Token is not the console session's token";
        return BW_E_AUTH_REQUIRED;
    }
    struct bw_principal p;
    int64_t ends = 0;
    enum bw_err e = console_lookup(a, id, &p, &ends, why, fail);
    if (e == BW_OK)
        *out = p;
    return e;
}

enum bw_err bw_auth_console_current(struct bw_auth *a, const char *cookie, struct bw_principal *out,
                                    char csrf[BW_CONSOLE_CSRF_LEN + 1], int64_t *ends_s, const char **why)
{
    char id[BW_CONSOLE_ID_LEN + 2];
    enum bw_auth_fail fail;
    if (!bw_cookie_value(cookie, BW_CONSOLE_COOKIE, id, sizeof id) || !bw_console_token_wellformed(id)) {
        *why = "no console session; sign in";
        return BW_E_AUTH_REQUIRED;
    }
    enum bw_err e = console_lookup(a, id, out, ends_s, why, &fail);
    if (e == BW_OK)
        bw_console_csrf(a->secret, a->slen, id, csrf);
    return e;
}

enum bw_err bw_auth_console_end(struct bw_auth *a, const char *cookie)
{
    char id[BW_CONSOLE_ID_LEN + 2], hash[65];
    if (!bw_cookie_value(cookie, BW_CONSOLE_COOKIE, id, sizeof id) || !bw_console_token_wellformed(id))
        return BW_OK;
    bw_console_id_hash(id, hash);
    return store_console_delete(a->db, hash) == ST_OK ? BW_OK : BW_E_UNAVAILABLE;
}
