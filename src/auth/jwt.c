#include "auth/jwt.h"

#include "common/limits.h"

#include <jansson.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

static void hmac(const unsigned char *key, size_t klen, const char *msg, size_t n,
                 unsigned char out[crypto_auth_hmacsha256_BYTES])
{
    crypto_auth_hmacsha256_state st;
    crypto_auth_hmacsha256_init(&st, key, klen);
    crypto_auth_hmacsha256_update(&st, (const unsigned char *)msg, n);
    crypto_auth_hmacsha256_final(&st, out);
}

static char *b64(const void *bin, size_t n)
{
    size_t cap = sodium_base64_encoded_len(n, B64);
    char *s = malloc(cap);
    if (s)
        sodium_bin2base64(s, cap, bin, n, B64);
    return s;
}

int bw_jwt_sign(const unsigned char *secret, size_t slen, const struct bw_jwt_claims *c, char **out)
{
    static const char header[] = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
    json_t *p = json_pack("{s:s,s:s,s:s,s:I,s:I,s:s,s:s,s:I}", "sub", c->sub, "tier", bw_tier_name(c->tier),
                          "role", bw_role_name(c->role), "iat", (json_int_t)c->iat, "exp",
                          (json_int_t)c->exp, "jti", c->jti, "iss", BW_JWT_ISSUER, "gen", (json_int_t)c->gen);
    if (!p)
        return -1;
    char *payload = json_dumps(p, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(p);
    char *h64 = b64(header, sizeof header - 1);
    char *p64 = payload ? b64(payload, strlen(payload)) : NULL;
    free(payload);
    int rc = -1;
    if (h64 && p64) {
        size_t hn = strlen(h64), pn = strlen(p64);
        size_t signing_len = hn + 1 + pn;
        char *tok = malloc(signing_len + 1 + 64);
        if (tok) {
            memcpy(tok, h64, hn);
            tok[hn] = '.';
            memcpy(tok + hn + 1, p64, pn);
            unsigned char mac[crypto_auth_hmacsha256_BYTES];
            hmac(secret, slen, tok, signing_len, mac);
            tok[signing_len] = '.';
            sodium_bin2base64(tok + signing_len + 1, 64, mac, sizeof mac, B64);
            *out = tok;
            rc = 0;
        }
    }
    free(h64);
    free(p64);
    return rc;
}

/* Decodes a base64url segment into a malloc'ed NUL-terminated buffer. */
static char *unb64(const char *s, size_t n, size_t *outlen)
{
    char *bin = malloc(n + 1);
    if (!bin)
        return NULL;
    size_t bl = 0;
    const char *end = NULL;
    if (sodium_base642bin((unsigned char *)bin, n, s, n, NULL, &bl, &end, B64) != 0 || end != s + n) {
        free(bin);
        return NULL;
    }
    bin[bl] = '\0';
    *outlen = bl;
    return bin;
}

static json_t *segment_json(const char *s, size_t n)
{
    size_t bl;
    char *txt = unb64(s, n, &bl);
    if (!txt)
        return NULL;
    json_t *j = json_loadb(txt, bl, JSON_REJECT_DUPLICATES, NULL);
    free(txt);
    if (j && !json_is_object(j)) {
        json_decref(j);
        return NULL;
    }
    return j;
}

static int copy_str(json_t *o, const char *k, char *dst, size_t cap)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_string(v) || json_string_length(v) >= cap)
        return -1;
    memcpy(dst, json_string_value(v), json_string_length(v) + 1);
    return 0;
}

int bw_jwt_verify(const unsigned char *secret, size_t slen, const char *tok, size_t len, int64_t now,
                  struct bw_jwt_claims *out)
{
    if (!tok || len == 0 || len > BW_MAX_TOKEN_LEN)
        return -1;
    const char *d1 = memchr(tok, '.', len);
    if (!d1)
        return -1;
    const char *d2 = memchr(d1 + 1, '.', len - (size_t)(d1 + 1 - tok));
    if (!d2 || memchr(d2 + 1, '.', len - (size_t)(d2 + 1 - tok)))
        return -1;
    int rc = -1;
    json_t *h = segment_json(tok, (size_t)(d1 - tok));
    json_t *p = NULL;
    if (!h)
        goto out;
    /* the algorithm is fixed by the server, never chosen by the token */
    json_t *alg = json_object_get(h, "alg");
    if (!json_is_string(alg) || strcmp(json_string_value(alg), "HS256") != 0)
        goto out;
    json_t *typ = json_object_get(h, "typ");
    if (typ && (!json_is_string(typ) || strcmp(json_string_value(typ), "JWT") != 0))
        goto out;
    if (json_object_get(h, "crit"))
        goto out;

    size_t sl = len - (size_t)(d2 + 1 - tok);
    size_t ml;
    char *sig = unb64(d2 + 1, sl, &ml);
    if (!sig)
        goto out;
    unsigned char mac[crypto_auth_hmacsha256_BYTES];
    hmac(secret, slen, tok, (size_t)(d2 - tok), mac);
    int ok = ml == sizeof mac && sodium_memcmp(mac, sig, sizeof mac) == 0;
    free(sig);
    if (!ok)
        goto out;

    p = segment_json(d1 + 1, (size_t)(d2 - d1 - 1));
    if (!p)
        goto out;
    json_t *iss = json_object_get(p, "iss");
    if (!json_is_string(iss) || strcmp(json_string_value(iss), BW_JWT_ISSUER) != 0)
        goto out;
    json_t *exp = json_object_get(p, "exp"), *iat = json_object_get(p, "iat"), *nbf = json_object_get(p, "nbf");
    if (!json_is_integer(exp) || !json_is_integer(iat))
        goto out;
    out->exp = json_integer_value(exp);
    out->iat = json_integer_value(iat);
    bool expired = out->exp <= now; /* told apart only once everything else holds */
    if (out->iat > now + BW_JWT_SKEW_S)
        goto out;
    if (nbf && (!json_is_integer(nbf) || json_integer_value(nbf) > now + BW_JWT_SKEW_S))
        goto out;
    if (copy_str(p, "sub", out->sub, sizeof out->sub) != 0 || !bw_id_valid(out->sub, "usr_"))
        goto out;
    if (copy_str(p, "jti", out->jti, sizeof out->jti) != 0)
        goto out;
    json_t *t = json_object_get(p, "tier"), *r = json_object_get(p, "role");
    int ti = json_is_string(t) ? bw_tier_parse(json_string_value(t)) : -1;
    int ro = json_is_string(r) ? bw_role_parse(json_string_value(r)) : -1;
    if (ti < 0 || ro < 0)
        goto out;
    out->tier = (enum bw_tier)ti;
    out->role = (enum bw_role)ro;
    /* tokens issued before generations existed have none: generation 0, every account's first */
    json_t *g = json_object_get(p, "gen");
    if (g && (!json_is_integer(g) || json_integer_value(g) < 0))
        goto out;
    out->gen = g ? json_integer_value(g) : 0;
    rc = expired ? BW_JWT_EXPIRED : 0;
out:
    json_decref(h);
    json_decref(p);
    return rc;
}
