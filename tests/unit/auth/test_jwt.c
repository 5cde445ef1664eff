/* JWT signing and verification (src/auth/jwt.c). Hostile tokens are built by hand here with
 * libsodium's base64url and HMAC-SHA256, independently of the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/jwt.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

static const unsigned char SECRET[] = "unit-test-secret-0123456789abcdef";
#define SLEN (sizeof SECRET - 1)
static const int64_t NOW = 1767225600; /* 2026-01-01T00:00:00Z */
static const char SUB[] = "usr_AbCdEfGhIjKlMnOpQrStUv";
static const char JTI[] = "tok_0123456789ABCDEFGHIJkl";

static void b64(const void *bin, size_t n, char *out, size_t cap)
{
    assert_true(sodium_base64_encoded_len(n, B64) <= cap);
    sodium_bin2base64(out, cap, bin, n, B64);
}

/* header.payload.signature with a correct HS256 MAC over the first two parts. */
static char *forge(const char *header, const char *payload, const unsigned char *key, size_t klen)
{
    static char h[1024], p[16384];
    b64(header, strlen(header), h, sizeof h);
    b64(payload, strlen(payload), p, sizeof p);
    size_t cap = strlen(h) + strlen(p) + 64;
    char *tok = malloc(cap);
    assert_non_null(tok);
    int n = snprintf(tok, cap, "%s.%s", h, p);
    unsigned char mac[crypto_auth_hmacsha256_BYTES];
    crypto_auth_hmacsha256_state st;
    crypto_auth_hmacsha256_init(&st, key, klen);
    crypto_auth_hmacsha256_update(&st, (const unsigned char *)tok, (size_t)n);
    crypto_auth_hmacsha256_final(&st, mac);
    char sig[64];
    b64(mac, sizeof mac, sig, sizeof sig);
    snprintf(tok + n, cap - (size_t)n, ".%s", sig);
    return tok;
}

static const char HS256[] = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";

/* A payload with the given times and issuer. */
static void payload(char *out, size_t cap, int64_t iat, int64_t exp, const char *iss, const char *extra)
{
    snprintf(out, cap,
             "{\"sub\":\"%s\",\"tier\":\"PRO\",\"role\":\"mssp\",\"iat\":%lld,\"exp\":%lld,"
             "\"jti\":\"%s\",\"iss\":\"%s\"%s}",
             SUB, (long long)iat, (long long)exp, JTI, iss, extra ? extra : "");
}

static int verify(const char *tok, int64_t now)
{
    struct bw_jwt_claims c;
    memset(&c, 0, sizeof c);
    return bw_jwt_verify(SECRET, SLEN, tok, strlen(tok), now, &c);
}

static int verify_forged(const char *header, const char *pl, int64_t now)
{
    char *t = forge(header, pl, SECRET, SLEN);
    int rc = verify(t, now);
    free(t);
    return rc;
}

static struct bw_jwt_claims claims(void)
{
    struct bw_jwt_claims c;
    memset(&c, 0, sizeof c);
    strcpy(c.sub, SUB);
    strcpy(c.jti, JTI);
    c.tier = BW_TIER_STARTER;
    c.role = BW_ROLE_ADMIN;
    c.iat = NOW;
    c.exp = NOW + 3600;
    return c;
}

static void test_roundtrip(void **state)
{
    (void)state;
    enum bw_tier tiers[] = {BW_TIER_FREE, BW_TIER_STARTER, BW_TIER_PRO, BW_TIER_ENTERPRISE};
    enum bw_role roles[] = {BW_ROLE_USER, BW_ROLE_MSSP, BW_ROLE_ADMIN};
    for (int t = 0; t < 4; t++) {
        for (int r = 0; r < 3; r++) {
            struct bw_jwt_claims c = claims();
            c.tier = tiers[t];
            c.role = roles[r];
            char *tok = NULL;
            assert_int_equal(bw_jwt_sign(SECRET, SLEN, &c, &tok), 0);
            assert_non_null(tok);
            /* three base64url parts */
            int dots = 0;
            for (const char *s = tok; *s; s++) {
                if (*s == '.')
                    dots++;
                else
                    assert_true((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
                                (*s >= '0' && *s <= '9') || *s == '-' || *s == '_');
            }
            assert_int_equal(dots, 2);
            struct bw_jwt_claims out;
            memset(&out, 0, sizeof out);
            assert_int_equal(bw_jwt_verify(SECRET, SLEN, tok, strlen(tok), NOW + 10, &out), 0);
            assert_string_equal(out.sub, SUB);
            assert_string_equal(out.jti, JTI);
            assert_int_equal(out.tier, tiers[t]);
            assert_int_equal(out.role, roles[r]);
            assert_int_equal(out.iat, c.iat);
            assert_int_equal(out.exp, c.exp);
            free(tok);
        }
    }
}

static void test_wrong_secret(void **state)
{
    (void)state;
    struct bw_jwt_claims c = claims(), out;
    char *tok = NULL;
    assert_int_equal(bw_jwt_sign(SECRET, SLEN, &c, &tok), 0);
    static const unsigned char other[] = "unit-test-secret-0123456789abcdeF";
    assert_int_equal(bw_jwt_verify(other, sizeof other - 1, tok, strlen(tok), NOW, &out), -1);
    /* a prefix of the secret is another key */
    assert_int_equal(bw_jwt_verify(SECRET, SLEN - 1, tok, strlen(tok), NOW, &out), -1);
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, tok, strlen(tok), NOW, &out), 0);
    free(tok);
}

static void test_tampering(void **state)
{
    (void)state;
    struct bw_jwt_claims c = claims();
    char *tok = NULL;
    assert_int_equal(bw_jwt_sign(SECRET, SLEN, &c, &tok), 0);
    size_t n = strlen(tok);
    const char *d1 = strchr(tok, '.'), *d2 = strrchr(tok, '.');
    size_t p0 = (size_t)(d1 - tok) + 1, s0 = (size_t)(d2 - tok) + 1;

    /* every character of payload and signature changed in turn */
    for (size_t i = 0; i < n; i++) {
        if (tok[i] == '.')
            continue;
        char *m = strdup(tok);
        m[i] = m[i] == 'A' ? 'B' : 'A';
        /* the last base64url char of a segment may carry unused bits; sodium rejects non-zero
         * padding bits, so any change still fails */
        if (verify(m, NOW) == 0)
            fail_msg("token changed at %zu (%s part) still verifies", i,
                     i < p0 ? "header" : i < s0 ? "payload" : "signature");
        free(m);
    }

    /* a payload swapped for another user's, keeping the signature */
    char pl[512];
    snprintf(pl, sizeof pl,
             "{\"sub\":\"usr_ZZZZZZZZZZZZZZZZZZZZZZ\",\"tier\":\"ENTERPRISE\",\"role\":\"admin\","
             "\"iat\":%lld,\"exp\":%lld,\"jti\":\"%s\",\"iss\":\"bulwark\"}",
             (long long)NOW, (long long)NOW + 3600, JTI);
    char p64[1024];
    b64(pl, strlen(pl), p64, sizeof p64);
    char swapped[2048];
    snprintf(swapped, sizeof swapped, "%.*s.%s.%s", (int)(d1 - tok), tok, p64, d2 + 1);
    assert_int_equal(verify(swapped, NOW), -1);

    /* signature dropped or truncated */
    char *m = strndup(tok, s0);
    assert_int_equal(verify(m, NOW), -1);
    free(m);
    m = strndup(tok, n - 1);
    assert_int_equal(verify(m, NOW), -1);
    free(m);
    free(tok);
}

static void test_only_hs256(void **state)
{
    (void)state;
    char pl[512];
    payload(pl, sizeof pl, NOW, NOW + 3600, "bulwark", NULL);
    /* the hand-built token is good with the right header */
    assert_int_equal(verify_forged(HS256, pl, NOW), 0);
    assert_int_equal(verify_forged("{\"alg\":\"HS256\"}", pl, NOW), 0);

    const char *bad_headers[] = {
        "{\"alg\":\"none\",\"typ\":\"JWT\"}",
        "{\"alg\":\"None\",\"typ\":\"JWT\"}",
        "{\"alg\":\"HS512\",\"typ\":\"JWT\"}",
        "{\"alg\":\"HS384\",\"typ\":\"JWT\"}",
        "{\"alg\":\"RS256\",\"typ\":\"JWT\"}",
        "{\"alg\":\"ES256\",\"typ\":\"JWT\"}",
        "{\"alg\":\"hs256\",\"typ\":\"JWT\"}",
        "{\"alg\":\"HS256 \",\"typ\":\"JWT\"}",
        "{\"typ\":\"JWT\"}",
        "{\"alg\":null,\"typ\":\"JWT\"}",
        "{\"alg\":256,\"typ\":\"JWT\"}",
        "{\"alg\":[\"HS256\"],\"typ\":\"JWT\"}",
        "{\"alg\":\"HS256\",\"typ\":\"JWE\"}",
        "{\"alg\":\"HS256\",\"typ\":1}",
        "{\"alg\":\"HS256\",\"typ\":\"JWT\",\"crit\":[\"exp\"]}",
        "{\"alg\":\"HS256\",\"alg\":\"none\"}", /* duplicate keys */
        "[\"HS256\"]",
        "\"HS256\"",
        "not json",
    };
    for (size_t i = 0; i < sizeof bad_headers / sizeof *bad_headers; i++) {
        if (verify_forged(bad_headers[i], pl, NOW) != -1)
            fail_msg("header %s accepted", bad_headers[i]);
    }

    /* alg none with an empty signature, the classic attack */
    char h64[128], p64[1024], tok[1200];
    const char *none = "{\"alg\":\"none\",\"typ\":\"JWT\"}";
    b64(none, strlen(none), h64, sizeof h64);
    b64(pl, strlen(pl), p64, sizeof p64);
    snprintf(tok, sizeof tok, "%s.%s.", h64, p64);
    assert_int_equal(verify(tok, NOW), -1);
    snprintf(tok, sizeof tok, "%s.%s", h64, p64);
    assert_int_equal(verify(tok, NOW), -1);
}

static void test_expiry(void **state)
{
    (void)state;
    char pl[512];
    /* long expired */
    payload(pl, sizeof pl, NOW - 7200, NOW - 3600, "bulwark", NULL);
    assert_int_equal(verify_forged(HS256, pl, NOW), BW_JWT_EXPIRED); /* told apart from invalid */
    /* expired beyond the skew */
    payload(pl, sizeof pl, NOW - 7200, NOW - BW_JWT_SKEW_S - 1, "bulwark", NULL);
    assert_int_equal(verify_forged(HS256, pl, NOW), BW_JWT_EXPIRED);
    /* valid one more second */
    payload(pl, sizeof pl, NOW - 7200, NOW + 1, "bulwark", NULL);
    assert_int_equal(verify_forged(HS256, pl, NOW), 0);
    /* the implementation applies no skew to exp: a token is dead at exp (exp <= now). The
     * signed token shows the same at the boundary. */
    payload(pl, sizeof pl, NOW - 7200, NOW, "bulwark", NULL);
    assert_int_equal(verify_forged(HS256, pl, NOW), BW_JWT_EXPIRED);

    struct bw_jwt_claims c = claims(), out;
    char *tok = NULL;
    assert_int_equal(bw_jwt_sign(SECRET, SLEN, &c, &tok), 0);
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, tok, strlen(tok), c.exp - 1, &out), 0);
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, tok, strlen(tok), c.exp + BW_JWT_SKEW_S + 1, &out), BW_JWT_EXPIRED);
    /* an expired token with a bad signature is invalid, not expired */
    tok[strlen(tok) - 2] = tok[strlen(tok) - 2] == 'A' ? 'B' : 'A';
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, tok, strlen(tok), c.exp + 1, &out), -1);
    free(tok);

    /* exp and iat are required integers */
    snprintf(pl, sizeof pl,
             "{\"sub\":\"%s\",\"tier\":\"PRO\",\"role\":\"user\",\"iat\":%lld,\"jti\":\"%s\",\"iss\":\"bulwark\"}",
             SUB, (long long)NOW, JTI);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
    snprintf(pl, sizeof pl,
             "{\"sub\":\"%s\",\"tier\":\"PRO\",\"role\":\"user\",\"exp\":%lld,\"jti\":\"%s\",\"iss\":\"bulwark\"}",
             SUB, (long long)NOW + 60, JTI);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
    snprintf(pl, sizeof pl,
             "{\"sub\":\"%s\",\"tier\":\"PRO\",\"role\":\"user\",\"iat\":%lld,\"exp\":\"%lld\",\"jti\":\"%s\","
             "\"iss\":\"bulwark\"}",
             SUB, (long long)NOW, (long long)NOW + 60, JTI);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
    snprintf(pl, sizeof pl,
             "{\"sub\":\"%s\",\"tier\":\"PRO\",\"role\":\"user\",\"iat\":%lld,\"exp\":%lld.5,\"jti\":\"%s\","
             "\"iss\":\"bulwark\"}",
             SUB, (long long)NOW, (long long)NOW + 60, JTI);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
}

/* The token generation: signed as `gen`, read back; absent (tokens from before it existed) is 0;
 * anything but a non-negative integer is invalid. */
static void test_generation(void **state)
{
    (void)state;
    struct bw_jwt_claims c = claims(), out;
    c.gen = 7;
    char *tok = NULL;
    assert_int_equal(bw_jwt_sign(SECRET, SLEN, &c, &tok), 0);
    memset(&out, 0x5a, sizeof out);
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, tok, strlen(tok), NOW, &out), 0);
    assert_int_equal(out.gen, 7);
    free(tok);
    char pl[512];
    payload(pl, sizeof pl, NOW, NOW + 3600, "bulwark", NULL);
    char *t = forge(HS256, pl, SECRET, SLEN);
    memset(&out, 0x5a, sizeof out);
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, t, strlen(t), NOW, &out), 0);
    assert_int_equal(out.gen, 0);
    free(t);
    payload(pl, sizeof pl, NOW, NOW + 3600, "bulwark", ",\"gen\":12");
    assert_int_equal(verify_forged(HS256, pl, NOW), 0);
    static const char *const bad[] = {",\"gen\":-1", ",\"gen\":\"1\"", ",\"gen\":1.5", ",\"gen\":null"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        payload(pl, sizeof pl, NOW, NOW + 3600, "bulwark", bad[i]);
        assert_int_equal(verify_forged(HS256, pl, NOW), -1);
    }
}

static void test_not_yet_valid(void **state)
{
    (void)state;
    char pl[512];
    /* iat in the future: within the skew accepted, beyond rejected */
    payload(pl, sizeof pl, NOW + BW_JWT_SKEW_S, NOW + 3600, "bulwark", NULL);
    assert_int_equal(verify_forged(HS256, pl, NOW), 0);
    payload(pl, sizeof pl, NOW + BW_JWT_SKEW_S + 1, NOW + 3600, "bulwark", NULL);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
    payload(pl, sizeof pl, NOW + 86400, NOW + 90000, "bulwark", NULL);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);

    /* nbf the same */
    char extra[64];
    snprintf(extra, sizeof extra, ",\"nbf\":%lld", (long long)NOW + BW_JWT_SKEW_S);
    payload(pl, sizeof pl, NOW, NOW + 3600, "bulwark", extra);
    assert_int_equal(verify_forged(HS256, pl, NOW), 0);
    snprintf(extra, sizeof extra, ",\"nbf\":%lld", (long long)NOW + BW_JWT_SKEW_S + 1);
    payload(pl, sizeof pl, NOW, NOW + 3600, "bulwark", extra);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
    snprintf(extra, sizeof extra, ",\"nbf\":%lld", (long long)NOW - 100);
    payload(pl, sizeof pl, NOW, NOW + 3600, "bulwark", extra);
    assert_int_equal(verify_forged(HS256, pl, NOW), 0);
    payload(pl, sizeof pl, NOW, NOW + 3600, "bulwark", ",\"nbf\":\"soon\"");
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
}

static void test_claims_checked(void **state)
{
    (void)state;
    char pl[512];
    const char *bad_iss[] = {"Bulwark", "bulwark ", "", "evil", "bulwarkx"};
    for (size_t i = 0; i < sizeof bad_iss / sizeof *bad_iss; i++) {
        payload(pl, sizeof pl, NOW, NOW + 3600, bad_iss[i], NULL);
        if (verify_forged(HS256, pl, NOW) != -1)
            fail_msg("issuer '%s' accepted", bad_iss[i]);
    }
    /* iss missing */
    snprintf(pl, sizeof pl,
             "{\"sub\":\"%s\",\"tier\":\"PRO\",\"role\":\"user\",\"iat\":%lld,\"exp\":%lld,\"jti\":\"%s\"}",
             SUB, (long long)NOW, (long long)NOW + 60, JTI);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);

    /* sub must be a user id; tier/role must be known names */
    const char *bodies[] = {
        "{\"sub\":\"key_AbCdEfGhIjKlMnOpQrStUv\",\"tier\":\"PRO\",\"role\":\"user\"",
        "{\"sub\":\"usr_\",\"tier\":\"PRO\",\"role\":\"user\"",
        "{\"sub\":\"usr_a/b\",\"tier\":\"PRO\",\"role\":\"user\"",
        "{\"sub\":5,\"tier\":\"PRO\",\"role\":\"user\"",
        "{\"tier\":\"PRO\",\"role\":\"user\"",
        "{\"sub\":\"usr_abc\",\"tier\":\"pro\",\"role\":\"user\"",
        "{\"sub\":\"usr_abc\",\"tier\":\"GOLD\",\"role\":\"user\"",
        "{\"sub\":\"usr_abc\",\"tier\":\"PRO\",\"role\":\"root\"",
        "{\"sub\":\"usr_abc\",\"tier\":\"PRO\"",
        "{\"sub\":\"usr_abc\",\"role\":\"user\"",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        snprintf(pl, sizeof pl, "%s,\"iat\":%lld,\"exp\":%lld,\"jti\":\"%s\",\"iss\":\"bulwark\"}", bodies[i],
                 (long long)NOW, (long long)NOW + 60, JTI);
        if (verify_forged(HS256, pl, NOW) != -1)
            fail_msg("payload %s accepted", pl);
    }
    /* the same shape with good values passes, so the rejections above are about the values */
    snprintf(pl, sizeof pl,
             "{\"sub\":\"usr_abc\",\"tier\":\"PRO\",\"role\":\"user\",\"iat\":%lld,\"exp\":%lld,\"jti\":\"%s\","
             "\"iss\":\"bulwark\"}",
             (long long)NOW, (long long)NOW + 60, JTI);
    assert_int_equal(verify_forged(HS256, pl, NOW), 0);
    /* jti required */
    snprintf(pl, sizeof pl,
             "{\"sub\":\"usr_abc\",\"tier\":\"PRO\",\"role\":\"user\",\"iat\":%lld,\"exp\":%lld,\"iss\":\"bulwark\"}",
             (long long)NOW, (long long)NOW + 60);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
    /* a non-object payload */
    assert_int_equal(verify_forged(HS256, "[1,2,3]", NOW), -1);
    assert_int_equal(verify_forged(HS256, "{", NOW), -1);
}

static void test_garbage(void **state)
{
    (void)state;
    struct bw_jwt_claims out;
    const char *bad[] = {
        "", ".", "..", "...", "a.b.c", "a.b", "abc", "a.b.c.d",
        "eyJhbGciOiJIUzI1NiJ9", "eyJhbGciOiJIUzI1NiJ9.", "eyJhbGciOiJIUzI1NiJ9..",
        "Bearer x.y.z", "!!!.@@@.###", "eyJhbGciOiJIUzI1NiJ9.e30=.AAAA",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(bw_jwt_verify(SECRET, SLEN, bad[i], strlen(bad[i]), NOW, &out), -1);
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, NULL, 0, NOW, &out), -1);

    /* a valid token with a fourth part, or with standard base64 padding, is not accepted */
    struct bw_jwt_claims c = claims();
    char *tok = NULL;
    assert_int_equal(bw_jwt_sign(SECRET, SLEN, &c, &tok), 0);
    size_t n = strlen(tok);
    char *m = malloc(n + 8);
    snprintf(m, n + 8, "%s.", tok);
    assert_int_equal(verify(m, NOW), -1);
    snprintf(m, n + 8, "%s.abc", tok);
    assert_int_equal(verify(m, NOW), -1);
    snprintf(m, n + 8, "%s=", tok);
    assert_int_equal(verify(m, NOW), -1);
    snprintf(m, n + 8, ".%s", tok);
    assert_int_equal(verify(m, NOW), -1);
    /* verify reads exactly len bytes: a trailing byte outside len is ignored, inside it is not */
    snprintf(m, n + 8, "%sX", tok);
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, m, n, NOW, &out), 0);
    assert_int_equal(bw_jwt_verify(SECRET, SLEN, m, n + 1, NOW, &out), -1);
    free(m);
    free(tok);

    /* longer than BW_MAX_TOKEN_LEN: refused before parsing, even if correctly signed */
    char pl[6000];
    char pad[4200];
    memset(pad, 'x', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    char extra[4300];
    snprintf(extra, sizeof extra, ",\"pad\":\"%s\"", pad);
    payload(pl, sizeof pl, NOW, NOW + 60, "bulwark", extra);
    assert_int_equal(verify_forged(HS256, pl, NOW), -1);
    /* and the same with a short pad verifies */
    payload(pl, sizeof pl, NOW, NOW + 60, "bulwark", ",\"pad\":\"xx\"");
    assert_int_equal(verify_forged(HS256, pl, NOW), 0);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),     cmocka_unit_test(test_wrong_secret),
        cmocka_unit_test(test_tampering),     cmocka_unit_test(test_only_hs256),
        cmocka_unit_test(test_expiry),        cmocka_unit_test(test_generation),
        cmocka_unit_test(test_not_yet_valid),
        cmocka_unit_test(test_claims_checked), cmocka_unit_test(test_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
