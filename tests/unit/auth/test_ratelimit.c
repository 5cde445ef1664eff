/* The GCRA limiter (src/auth/ratelimit.c), driven by explicit timestamps; and the shared limiter
 * (its state in the database, several "instances" on one database) on SQLite and PostgreSQL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/ratelimit.h"
#include "common/timeutil.h"
#include "db_fixture.h"
#include "store/store.h"
#include "store/store_ratelimit.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define S 1000000LL /* microseconds per second */
static const int64_t T0 = 1000 * S;

static struct bw_limit_result step(struct bw_limiter *l, const char *key, long limit, int64_t now, bool strict)
{
    struct bw_limit_result r;
    memset(&r, 0x5a, sizeof r);
    (strict ? bw_limiter_take_strict : bw_limiter_take)(l, key, limit, now, &r);
    return r;
}

static struct bw_limit_result take(struct bw_limiter *l, const char *key, long limit, int64_t now)
{
    return step(l, key, limit, now, false);
}

static struct bw_limit_result take_strict(struct bw_limiter *l, const char *key, long limit, int64_t now)
{
    return step(l, key, limit, now, true);
}

static void test_burst_then_deny(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(3600, 1024);
    assert_non_null(l);
    for (long i = 0; i < 10; i++) {
        struct bw_limit_result r = take(l, "u:a", 10, T0);
        assert_true(r.allowed);
        assert_int_equal(r.limit, 10);
        assert_int_equal(r.remaining, 9 - i);
        assert_int_equal(r.retry_after_s, 0);
        /* the whole budget is back (i+1) emission intervals of 360 s later */
        assert_int_equal(r.reset_s, (i + 1) * 360);
    }
    struct bw_limit_result r = take(l, "u:a", 10, T0);
    assert_false(r.allowed);
    assert_int_equal(r.limit, 10);
    assert_int_equal(r.remaining, 0);
    assert_int_equal(r.retry_after_s, 360);
    assert_int_equal(r.reset_s, 3600);
    /* a refusal costs nothing: the next refusal a second later says one second less */
    r = take(l, "u:a", 10, T0 + 1 * S);
    assert_false(r.allowed);
    assert_int_equal(r.retry_after_s, 359);
    assert_int_equal(r.reset_s, 3599);
    /* retry_after is rounded up and never 0 */
    r = take(l, "u:a", 10, T0 + 360 * S - 1);
    assert_false(r.allowed);
    assert_int_equal(r.retry_after_s, 1);
    bw_limiter_free(l);
}

static void test_refill(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(60, 1024); /* 6 per minute: one every 10 s */
    for (int i = 0; i < 6; i++)
        assert_true(take(l, "k", 6, T0).allowed);
    assert_false(take(l, "k", 6, T0).allowed);
    assert_false(take(l, "k", 6, T0 + 9 * S).allowed);
    /* exactly one comes back after one interval */
    struct bw_limit_result r = take(l, "k", 6, T0 + 10 * S);
    assert_true(r.allowed);
    assert_int_equal(r.remaining, 0);
    assert_false(take(l, "k", 6, T0 + 10 * S).allowed);
    /* two intervals later, two requests */
    assert_true(take(l, "k", 6, T0 + 30 * S).allowed);
    assert_true(take(l, "k", 6, T0 + 30 * S).allowed);
    assert_false(take(l, "k", 6, T0 + 30 * S).allowed);
    /* after a whole idle window, the whole budget */
    int64_t later = T0 + 30 * S + 60 * S;
    r = take(l, "k", 6, later);
    assert_true(r.allowed);
    assert_int_equal(r.remaining, 5);
    for (int i = 0; i < 5; i++)
        assert_true(take(l, "k", 6, later).allowed);
    assert_false(take(l, "k", 6, later).allowed);
    /* idling longer than the window does not bank more than the limit */
    int64_t much_later = later + 10 * 3600 * S;
    for (int i = 0; i < 6; i++)
        assert_true(take(l, "k", 6, much_later).allowed);
    assert_false(take(l, "k", 6, much_later).allowed);
    bw_limiter_free(l);
}

static void test_spread_requests_never_denied(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(3600, 1024);
    /* one request per emission interval, forever: always allowed with full remaining */
    for (int i = 0; i < 100; i++) {
        struct bw_limit_result r = take(l, "steady", 60, T0 + (int64_t)i * 60 * S);
        assert_true(r.allowed);
        assert_int_equal(r.remaining, 59);
    }
    bw_limiter_free(l);
}

static void test_keys_independent(void **state)
{
    (void)state;
    /* room for every key below (a full shard evicts: see test_full_table_never_fails_open) */
    struct bw_limiter *l = bw_limiter_new(3600, 1u << 16);
    for (int i = 0; i < 3; i++)
        assert_true(take(l, "ip:10.0.0.1", 3, T0).allowed);
    assert_false(take(l, "ip:10.0.0.1", 3, T0).allowed);
    /* other keys, including ones that share a prefix, are untouched */
    const char *others[] = {"ip:10.0.0.2", "ip:10.0.0.10", "ip:10.0.0.", "u:ip:10.0.0.1", ""};
    for (size_t k = 0; k < sizeof others / sizeof *others; k++) {
        struct bw_limit_result r = take(l, others[k], 3, T0);
        assert_true(r.allowed);
        assert_int_equal(r.remaining, 2);
    }
    assert_false(take(l, "ip:10.0.0.1", 3, T0).allowed);

    /* many keys at once: each gets its own budget */
    char key[32];
    for (int i = 0; i < 2000; i++) {
        snprintf(key, sizeof key, "u:%d", i);
        assert_true(take(l, key, 2, T0).allowed);
        assert_true(take(l, key, 2, T0).allowed);
    }
    for (int i = 0; i < 2000; i++) {
        snprintf(key, sizeof key, "u:%d", i);
        if (take(l, key, 2, T0).allowed)
            fail_msg("key %s got a third request", key);
    }
    assert_true(bw_limiter_size(l) >= 2000);
    bw_limiter_free(l);
}

static void test_reset(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(900, 1024);
    long retry = -1;
    assert_false(bw_limiter_exhausted(l, "e:a@b.c", 3, T0, &retry));
    for (int i = 0; i < 3; i++)
        assert_true(take(l, "e:a@b.c", 3, T0).allowed);
    assert_true(take(l, "e:x@b.c", 3, T0).allowed);
    assert_true(bw_limiter_exhausted(l, "e:a@b.c", 3, T0, &retry));
    assert_int_equal(retry, 300);
    /* exhausted() does not count */
    assert_true(bw_limiter_exhausted(l, "e:a@b.c", 3, T0, &retry));
    assert_true(bw_limiter_exhausted(l, "e:a@b.c", 3, T0 + 10 * S, &retry));
    assert_int_equal(retry, 290);

    bw_limiter_reset(l, "e:a@b.c");
    assert_false(bw_limiter_exhausted(l, "e:a@b.c", 3, T0 + 10 * S, &retry));
    struct bw_limit_result r = take(l, "e:a@b.c", 3, T0 + 10 * S);
    assert_true(r.allowed);
    assert_int_equal(r.remaining, 2);
    /* the other key kept its state */
    r = take(l, "e:x@b.c", 3, T0 + 10 * S);
    assert_true(r.allowed);
    assert_int_equal(r.remaining, 1);
    /* resetting an unknown key is harmless */
    bw_limiter_reset(l, "nobody");
    assert_false(bw_limiter_exhausted(l, "nobody", 3, T0, &retry));
    bw_limiter_free(l);
}

/* Refused strict requests count: a client that keeps trying stays refused until one interval
 * after its last attempt, and the whole budget is never more than one window past it. */
static void test_strict_refusals_extend(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(900, 1024); /* 3 per 900 s: T 300 s, tau 600 s */
    for (int i = 0; i < 3; i++)
        assert_true(take_strict(l, "e:s", 3, T0).allowed);
    struct bw_limit_result r = take_strict(l, "e:s", 3, T0 + 100 * S);
    assert_false(r.allowed);
    assert_int_equal(r.retry_after_s, 300); /* a plain take would say 200 */
    assert_int_equal(r.reset_s, 900);
    /* hammering every 10 s for an hour: refused throughout, never locked out for longer */
    for (int64_t t = 110; t < 3700; t += 10) {
        r = take_strict(l, "e:s", 3, T0 + t * S);
        assert_false(r.allowed);
        assert_int_equal(r.retry_after_s, 300);
        assert_true(r.reset_s <= 900);
    }
    /* one interval after the last attempt (T0 + 3690 s) one attempt is allowed again */
    assert_false(take_strict(l, "e:s", 3, T0 + 3989 * S).allowed);
    assert_true(take_strict(l, "e:s", 3, T0 + (3989 + 300) * S).allowed);
    /* a plain take of the same key does not extend */
    struct bw_limiter *p = bw_limiter_new(900, 1024);
    for (int i = 0; i < 3; i++)
        assert_true(take(p, "e:s", 3, T0).allowed);
    assert_false(take(p, "e:s", 3, T0 + 100 * S).allowed);
    assert_int_equal(take(p, "e:s", 3, T0 + 200 * S).retry_after_s, 100);
    bw_limiter_free(p);
    bw_limiter_free(l);
}

static void test_refund(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(900, 1024);
    for (int i = 0; i < 3; i++)
        assert_true(take_strict(l, "e:r", 3, T0).allowed);
    bw_limiter_refund(l, "e:r", 3);
    struct bw_limit_result r = take_strict(l, "e:r", 3, T0);
    assert_true(r.allowed);
    assert_int_equal(r.remaining, 0);
    assert_false(take_strict(l, "e:r", 3, T0).allowed);
    /* a refund of a key never taken, or of more than was taken, gives no credit beyond a whole budget */
    bw_limiter_refund(l, "e:none", 3);
    struct bw_limiter *m = bw_limiter_new(900, 1024);
    assert_true(take(m, "k", 3, T0).allowed);
    bw_limiter_refund(m, "k", 3);
    bw_limiter_refund(m, "k", 3);
    for (int i = 0; i < 3; i++)
        assert_true(take(m, "k", 3, T0).allowed);
    assert_false(take(m, "k", 3, T0).allowed);
    bw_limiter_free(m);
    bw_limiter_free(l);
}

static void test_limit_of_one(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(60, 1024);
    struct bw_limit_result r = take(l, "one", 1, T0);
    assert_true(r.allowed);
    assert_int_equal(r.remaining, 0);
    r = take(l, "one", 1, T0 + 1 * S);
    assert_false(r.allowed);
    assert_int_equal(r.retry_after_s, 59);
    assert_true(take(l, "one", 1, T0 + 60 * S).allowed);
    bw_limiter_free(l);
}

static void test_memory_bound(void **state)
{
    (void)state;
    /* 16 entries per shard at most (load 1/2 of 32 slots); filling far beyond the bound with live
     * entries must not crash, and expired entries make room again */
    struct bw_limiter *l = bw_limiter_new(60, 256 * 16);
    char key[32];
    for (int i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "ip:%d", i);
        (void)take(l, key, 5, T0);
    }
    size_t n = bw_limiter_size(l);
    assert_true(n > 0);
    assert_true(n <= 256u * 16u * 2u);
    /* a minute later everything is restored; new keys are tracked again */
    int64_t later = T0 + 61 * S;
    for (int i = 0; i < 5; i++)
        assert_true(take(l, "fresh", 5, later).allowed);
    assert_false(take(l, "fresh", 5, later).allowed);
    bw_limiter_free(l);
}

/* Regression: a shard at its bound used to stop tracking new keys, and an untracked key was
 * allowed every time, so ~10^5 distinct sources walked past every limit (fail open). Now the live
 * entry nearest a full budget is evicted: every key is limited, and a flood of fresh sources
 * cannot free a source that spent its budget. */
static void test_full_table_never_fails_open(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(3600, 256 * 16); /* 16 live entries per shard */
    for (int i = 0; i < 3; i++)
        assert_true(take(l, "ip:attacker", 3, T0).allowed);
    assert_false(take(l, "ip:attacker", 3, T0).allowed);
    char key[32];
    for (int i = 0; i < 100000; i++) {
        snprintf(key, sizeof key, "ip:%d", i);
        /* each new key is tracked: with a budget of 2 its third request is refused */
        assert_true(take(l, key, 2, T0 + i).allowed);
        if (i % 997 == 0) {
            assert_true(take(l, key, 2, T0 + i).allowed);
            if (take(l, key, 2, T0 + i).allowed)
                fail_msg("key %s was not tracked at the table's bound", key);
        }
    }
    /* the exhausted source kept its state through the flood */
    assert_false(take(l, "ip:attacker", 3, T0 + 100000).allowed);
    long retry = 0;
    assert_true(bw_limiter_exhausted(l, "ip:attacker", 3, T0 + 100000, &retry));
    assert_true(bw_limiter_evictions(l) > 90000);
    assert_true(bw_limiter_size(l) <= 256u * 16u);
    bw_limiter_free(l);
}

/* Among live entries, the one nearest a full budget goes first. */
static void test_eviction_order(void **state)
{
    (void)state;
    /* every shard full of keys that spent 1 of 10, then a key that spent all 10: it must survive
     * any number of newcomers */
    struct bw_limiter *l = bw_limiter_new(3600, 256 * 16);
    char key[32];
    for (int i = 0; i < 256 * 16; i++) {
        snprintf(key, sizeof key, "light:%d", i);
        (void)take(l, key, 10, T0);
    }
    for (int i = 0; i < 10; i++)
        assert_true(take(l, "heavy", 10, T0).allowed);
    unsigned long before = bw_limiter_evictions(l);
    for (int i = 0; i < 256 * 64; i++) {
        snprintf(key, sizeof key, "new:%d", i);
        (void)take(l, key, 10, T0 + 1);
    }
    assert_true(bw_limiter_evictions(l) > before);
    assert_false(take(l, "heavy", 10, T0 + 2).allowed);
    bw_limiter_free(l);
}

/* Regression (src/auth/ratelimit.c): keys longer than KEY_MAX (63) bytes are stored truncated by
 * strncpy in find_or_add, but looked up with strcmp against the full key, so they are never
 * found: every call adds a new entry and is allowed. The login throttle uses "e:" + email
 * (emails up to 254 chars), so failed logins for a long email are never throttled per email. */
static void test_long_keys_are_limited(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(900, 1024);
    char key[300];
    memset(key, 'a', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    memcpy(key, "e:", 2);
    for (int i = 0; i < 3; i++)
        assert_true(take(l, key, 3, T0).allowed);
    assert_false(take(l, key, 3, T0).allowed);
    long retry;
    assert_true(bw_limiter_exhausted(l, key, 3, T0, &retry));
    bw_limiter_free(l);
}

static void test_keys_up_to_63_bytes(void **state)
{
    (void)state;
    struct bw_limiter *l = bw_limiter_new(900, 1024);
    char key[64];
    memset(key, 'b', 63);
    key[63] = '\0';
    for (int i = 0; i < 3; i++)
        assert_true(take(l, key, 3, T0).allowed);
    assert_false(take(l, key, 3, T0).allowed);
    long retry;
    assert_true(bw_limiter_exhausted(l, key, 3, T0, &retry));
    bw_limiter_free(l);
}

/* ---- shared: two limiters on one database stand for two instances ------------------------------ */

static struct db_fixture g_fx;

static void test_shared_one_budget(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_limiter *a = bw_limiter_new(3600, 1024), *b = bw_limiter_new(3600, 1024);
    bw_limiter_share(a, db, "rate");
    bw_limiter_share(b, db, "rate");
    assert_true(bw_limiter_shared(a));
    /* alternating instances spend one budget of 5: 4, 3, 2, 1, 0 left, then refused on both */
    for (long i = 0; i < 5; i++) {
        struct bw_limit_result r = take(i % 2 ? b : a, "u:one", 5, 0);
        assert_true(r.allowed);
        assert_int_equal(r.remaining, 4 - i);
        assert_int_equal(r.retry_after_s, 0);
    }
    struct bw_limit_result r = take(a, "u:one", 5, 0);
    assert_false(r.allowed);
    assert_int_equal(r.remaining, 0);
    assert_in_range(r.retry_after_s, 719, 720); /* one emission interval, 3600/5 s */
    assert_false(take(b, "u:one", 5, 0).allowed);
    /* another key, and the same key under another limiter's name, have budgets of their own */
    assert_true(take(b, "u:two", 5, 0).allowed);
    struct bw_limiter *c = bw_limiter_new(3600, 1024);
    bw_limiter_share(c, db, "login_ip");
    assert_true(take(c, "u:one", 5, 0).allowed);
    assert_int_equal(bw_limiter_size(a), 3);
    bw_limiter_free(a);
    bw_limiter_free(b);
    bw_limiter_free(c);
}

static void test_shared_exhausted_and_reset(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_limiter *a = bw_limiter_new(900, 1024), *b = bw_limiter_new(900, 1024);
    bw_limiter_share(a, db, "login_email");
    bw_limiter_share(b, db, "login_email");
    long retry = -1;
    assert_false(bw_limiter_exhausted(b, "e:x@example.com", 3, 0, &retry));
    for (int i = 0; i < 3; i++)
        assert_true(take(a, "e:x@example.com", 3, 0).allowed);
    /* the failures counted on one instance lock the account out on the other */
    assert_true(bw_limiter_exhausted(b, "e:x@example.com", 3, 0, &retry));
    assert_in_range(retry, 299, 300);
    /* a success on the other instance forgets them everywhere */
    bw_limiter_reset(b, "e:x@example.com");
    assert_false(bw_limiter_exhausted(a, "e:x@example.com", 3, 0, &retry));
    assert_true(take(a, "e:x@example.com", 3, 0).allowed);
    bw_limiter_free(a);
    bw_limiter_free(b);
}

struct racer_arg {
    struct bw_limiter *l;
    int allowed;
};

static void *racer(void *p)
{
    struct racer_arg *ra = p;
    for (int i = 0; i < 40; i++)
        if (take(ra->l, "u:race", 100, 0).allowed)
            ra->allowed++;
    return NULL;
}

/* Reservations across instances: a strict take on one is seen by the other, a refusal extends
 * the lockout in the table (explicit times: the store step), a refund on one gives back on both. */
static void test_shared_strict_and_refund(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_limiter *a = bw_limiter_new(900, 1024), *b = bw_limiter_new(900, 1024);
    bw_limiter_share(a, db, "login_email");
    bw_limiter_share(b, db, "login_email");
    for (int i = 0; i < 3; i++)
        assert_true(take_strict(i % 2 ? b : a, "e:sh", 3, 0).allowed);
    struct bw_limit_result r = take_strict(b, "e:sh", 3, 0);
    assert_false(r.allowed);
    assert_in_range(r.retry_after_s, 299, 300);
    assert_true(r.reset_s <= 900);
    bw_limiter_refund(a, "e:sh", 3);
    assert_true(take_strict(b, "e:sh", 3, 0).allowed);
    assert_false(take_strict(a, "e:sh", 3, 0).allowed);
    bw_limiter_free(a);
    bw_limiter_free(b);

    bool allowed = true;
    int64_t tat = 0, now = 1000 * S, T = 300 * S, tau = 600 * S;
    for (int i = 0; i < 3; i++)
        assert_int_equal(store_rl_take_strict(db, "x|k", now, T, tau, &allowed, &tat), ST_OK);
    assert_true(allowed);
    assert_int_equal(tat, now + 900 * S);
    /* refused 100 s later: tat moves to now + window, not further */
    assert_int_equal(store_rl_take_strict(db, "x|k", now + 100 * S, T, tau, &allowed, &tat), ST_OK);
    assert_false(allowed);
    assert_int_equal(tat, now + 1000 * S);
    assert_int_equal(store_rl_take_strict(db, "x|k", now + 100 * S, T, tau, &allowed, &tat), ST_OK);
    assert_int_equal(tat, now + 1000 * S);
    /* the plain step leaves a refused key alone */
    assert_int_equal(store_rl_take(db, "x|k", now + 200 * S, T, tau, &allowed, &tat), ST_OK);
    assert_false(allowed);
    assert_int_equal(tat, now + 1000 * S);
    assert_int_equal(store_rl_refund(db, "x|k", T), ST_OK);
    assert_int_equal(store_rl_get(db, "x|k", &tat), ST_OK);
    assert_int_equal(tat, now + 700 * S);
    assert_int_equal(store_rl_refund(db, "x|none", T), ST_OK);
}

/* 8 threads over two instances, 320 requests against a budget of 100: exactly 100 pass. */
static void test_shared_concurrent_exact(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_limiter *l[2] = {bw_limiter_new(3600, 1024), bw_limiter_new(3600, 1024)};
    bw_limiter_share(l[0], db, "rate");
    bw_limiter_share(l[1], db, "rate");
    pthread_t t[8];
    struct racer_arg ra[8];
    for (int i = 0; i < 8; i++) {
        ra[i] = (struct racer_arg){.l = l[i % 2]};
        assert_int_equal(pthread_create(&t[i], NULL, racer, &ra[i]), 0);
    }
    int total = 0;
    for (int i = 0; i < 8; i++) {
        pthread_join(t[i], NULL);
        total += ra[i].allowed;
    }
    assert_int_equal(total, 100);
    bw_limiter_free(l[0]);
    bw_limiter_free(l[1]);
}

static void test_shared_sweep(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    bool allowed = false;
    int64_t tat = 0, n = -1, now = bw_now_us();
    /* one key whose budget came back an hour ago, one still spent */
    assert_int_equal(store_rl_take(db, "rate|u:old", now - 7200 * S, 3600 * S, 0, &allowed, &tat), ST_OK);
    assert_true(allowed);
    assert_int_equal(tat, now - 3600 * S);
    assert_int_equal(store_rl_take(db, "rate|u:new", now, 3600 * S, 0, &allowed, &tat), ST_OK);
    assert_int_equal(store_rl_sweep(db, now, &n), ST_OK);
    assert_int_equal(n, 1);
    assert_int_equal(store_rl_get(db, "rate|u:old", &tat), ST_OK);
    assert_int_equal(tat, 0);
    assert_int_equal(store_rl_get(db, "rate|u:new", &tat), ST_OK);
    assert_int_equal(tat, now + 3600 * S);
    /* limit 1 (tau 0): the second request inside the interval is refused and leaves tat alone */
    assert_int_equal(store_rl_take(db, "rate|u:new", now + S, 3600 * S, 0, &allowed, &tat), ST_OK);
    assert_false(allowed);
    assert_int_equal(tat, now + 3600 * S);
}

/* A busy key takes leases (1, 2, 4 ... requests at once) and still spends exactly one budget
 * across instances; a lease left unused gives its rest back. Window 10 h over 2,560: an interval
 * is 14 s, so the real clock the shared table runs on refills nothing during the test. */
static void test_shared_lease(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_limiter *a = bw_limiter_new(36000, 1024), *b = bw_limiter_new(36000, 1024);
    bw_limiter_share(a, db, "rate");
    bw_limiter_share(b, db, "rate");
    const long limit = 2560; /* leases up to 2560 / BW_LIMITER_LEASE_DIV = 10 */
    const int64_t T = 36000 * S / limit;
    /* one instance, 7 requests in a burst: leases of 1, 2 and 4, all spent */
    long last = limit;
    for (int i = 0; i < 7; i++) {
        struct bw_limit_result r = take(a, "u:busy", limit, T0 + i);
        assert_true(r.allowed);
        assert_true(r.remaining < last); /* remaining falls by one per request, lease or not */
        assert_int_equal(r.remaining, limit - 1 - i);
        last = r.remaining;
    }
    int64_t tat = 0, now = bw_now_us();
    assert_int_equal(store_rl_get(db, "rate|u:busy", &tat), ST_OK);
    assert_in_range((tat - now + T / 2) / T, 7, 7); /* the database holds exactly the 7 */
    /* two more: a lease of 8, of which 6 wait here; the database counts all 8 */
    assert_true(take(a, "u:busy", limit, T0 + 8).allowed);
    assert_true(take(a, "u:busy", limit, T0 + 9).allowed);
    assert_int_equal(store_rl_get(db, "rate|u:busy", &tat), ST_OK);
    assert_in_range((tat - bw_now_us() + T / 2) / T, 15, 15);
    /* two seconds later the lease has lapsed: its 6 go back before the next take */
    assert_true(take(a, "u:busy", limit, T0 + 2 * S).allowed);
    assert_int_equal(store_rl_get(db, "rate|u:busy", &tat), ST_OK);
    assert_in_range((tat - bw_now_us() + T / 2) / T, 10, 10);
    /* both instances until both refuse: exactly the budget passes, whatever the leases held */
    long allowed = 10;
    for (int i = 0; i < 2 * (int)limit; i++)
        allowed += take(i % 2 ? b : a, "u:busy", limit, T0 + 2 * S + i).allowed;
    assert_int_equal(allowed, limit);
    assert_false(take(a, "u:busy", limit, T0 + 3 * S).allowed);
    assert_false(take(b, "u:busy", limit, T0 + 3 * S).allowed);
    /* a small limit never leases: every request is the database's */
    for (int i = 0; i < 5; i++)
        assert_true(take(a, "u:small", 100, T0 + i).allowed);
    assert_int_equal(store_rl_get(db, "rate|u:small", &tat), ST_OK);
    assert_in_range((tat - bw_now_us() + 180 * S) / (360 * S), 5, 5);
    bw_limiter_free(a);
    bw_limiter_free(b);
}

/* Without its table the shared limiter still limits, on this instance's own state. */
static void test_shared_falls_back(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct db_conn *c = db_acquire(db);
    assert_non_null(c);
    assert_int_equal(db_exec_script(c, "DROP TABLE rate_limits"), DB_OK);
    db_release(c);
    struct bw_limiter *l = bw_limiter_new(3600, 1024);
    bw_limiter_share(l, db, "rate");
    assert_true(take(l, "u:fb", 2, T0).allowed);
    assert_true(take(l, "u:fb", 2, T0).allowed);
    assert_false(take(l, "u:fb", 2, T0).allowed);
    long retry;
    assert_true(bw_limiter_exhausted(l, "u:fb", 2, T0, &retry));
    bw_limiter_free(l);
}

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "rl", NULL, 10); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "rl", 10); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }
PG_TEST(test_shared_one_budget)
PG_TEST(test_shared_exhausted_and_reset)
PG_TEST(test_shared_concurrent_exact)
PG_TEST(test_shared_sweep)
PG_TEST(test_shared_strict_and_refund)
PG_TEST(test_shared_falls_back)
PG_TEST(test_shared_lease)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_burst_then_deny),
        cmocka_unit_test(test_refill),
        cmocka_unit_test(test_spread_requests_never_denied),
        cmocka_unit_test(test_keys_independent),
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_strict_refusals_extend),
        cmocka_unit_test(test_refund),
        cmocka_unit_test(test_limit_of_one),
        cmocka_unit_test(test_memory_bound),
        cmocka_unit_test(test_full_table_never_fails_open),
        cmocka_unit_test(test_eviction_order),
        cmocka_unit_test(test_keys_up_to_63_bytes),
        cmocka_unit_test(test_long_keys_are_limited),
    };
    /* each test gets a fresh database (the last one drops the table) */
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test_setup_teardown(test_shared_one_budget, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_shared_exhausted_and_reset, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_shared_concurrent_exact, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_shared_sweep, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_shared_strict_and_refund, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_shared_falls_back, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_shared_lease, sqlite_setup, sqlite_teardown),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test_setup_teardown(pg_test_shared_one_budget, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_shared_exhausted_and_reset, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_shared_concurrent_exact, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_shared_sweep, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_shared_strict_and_refund, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_shared_falls_back, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_shared_lease, pg_setup, pg_teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("shared_sqlite", sqlite, NULL, NULL);
    failed += cmocka_run_group_tests_name("shared_postgres", pg, NULL, NULL);
    return failed;
}
