/* /api/developer/keys: create, list, revoke, rotate. Session (JWT) only; a key is shown in full
 * once, at creation or rotation; only its SHA-256 is stored. */
#include "api/api.h"
#include "api/api_util.h"
#include "auth/apikey.h"
#include "common/ids.h"
#include "common/timeutil.h"
#include "store/store.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

static const char WARNING[] = "Store this key now: it is shown only once and cannot be retrieved later.";

/* A fresh key into k (id, hash, prefix, created_at) and its secret into secret. */
static void new_key(struct store_key *k, char secret[BW_KEY_LEN + 1])
{
    memset(k, 0, sizeof *k);
    bw_apikey_generate(secret);
    bw_apikey_hash(secret, k->hash);
    bw_apikey_prefix(secret, k->prefix);
    bw_id_new("key_", k->id);
    bw_iso8601(bw_now_s(), k->created_at);
    k->active = true;
}

static json_t *created_body(const struct store_key *k, const char *secret, enum bw_tier tier)
{
    return json_pack("{s:b,s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "success", 1, "id", k->id, "key", secret,
                     "prefix", k->prefix, "label", k->label, "tier", bw_tier_name(tier), "warning", WARNING,
                     "created_at", k->created_at);
}

void api_keys_create(struct bw_req *r)
{
    struct bw_verr v = {0};
    /* label is optional (a request without a body is fine); it names the key in lists */
    const char *label = NULL;
    if (r->json)
        bw_body_string(r, &v, "label", false, BW_LABEL_MAX, &label);
    if (bw_verr_reply(r, &v))
        return;
    if (!label || !*label)
        label = "default";
    struct store_key k;
    char secret[BW_KEY_LEN + 1];
    new_key(&k, secret);
    snprintf(k.user_id, sizeof k.user_id, "%s", r->principal.user_id);
    snprintf(k.label, sizeof k.label, "%s", label);
    long max = api_ctx(r)->cfg->max_keys[r->principal.tier];
    int rc = store_key_create(api_ctx(r)->db, &k, max);
    if (rc == ST_LIMIT) {
        char msg[128];
        snprintf(msg, sizeof msg, "the %s plan allows at most %ld active key(s); revoke one first",
                 bw_tier_name(r->principal.tier), max);
        bw_reply_error(r, BW_E_KEY_LIMIT_REACHED, msg, json_pack("{s:i}", "max_keys", (json_int_t)max));
    } else if (rc == ST_NOTFOUND) {
        bw_reply_error(r, BW_E_AUTH_REQUIRED, "the token's account does not exist", NULL);
    } else if (rc != ST_OK) {
        api_reply_storage(r);
    } else {
        bw_reply_json(r, 201, created_body(&k, secret, r->principal.tier));
    }
    sodium_memzero(secret, sizeof secret);
}

static json_t *key_item(const struct store_key *k)
{
    return json_pack("{s:s,s:s,s:s,s:s,s:b,s:s,s:s?}", "id", k->id, "key_prefix", k->prefix, "label", k->label,
                     "tier", bw_tier_name(k->tier), "active", k->active, "created_at", k->created_at,
                     "last_used_at", k->last_used_at[0] ? k->last_used_at : NULL);
}

void api_keys_list(struct bw_req *r)
{
    struct store_key *keys = NULL;
    size_t n = 0;
    if (store_key_list(api_ctx(r)->db, r->principal.user_id, &keys, &n) != ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *arr = json_array();
    size_t active = 0;
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(arr, key_item(&keys[i]));
        active += keys[i].active;
    }
    free(keys);
    bw_reply_json(r, 200, json_pack("{s:o,s:i,s:i,s:i}", "keys", arr, "count", (json_int_t)n, "active_count",
                                    (json_int_t)active, "max_keys",
                                    (json_int_t)api_ctx(r)->cfg->max_keys[r->principal.tier]));
}

void api_keys_revoke(struct bw_req *r)
{
    struct store_key k;
    int rc = store_key_revoke(api_ctx(r)->db, r->principal.user_id, r->params[0], &k);
    if (rc == ST_NOTFOUND) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such key", NULL);
        return;
    }
    if (rc != ST_OK) {
        api_reply_storage(r);
        return;
    }
    bw_auth_forget_key(api_ctx(r)->auth, k.id);
    bw_reply_json(r, 200, json_pack("{s:b,s:s,s:s,s:b}", "success", 1, "id", k.id, "key_prefix", k.prefix,
                                    "active", 0));
}

void api_keys_rotate(struct bw_req *r)
{
    struct store_key nk, old;
    char secret[BW_KEY_LEN + 1];
    new_key(&nk, secret);
    int rc = store_key_get(api_ctx(r)->db, r->principal.user_id, r->params[0], &old);
    if (rc == ST_OK)
        rc = store_key_rotate(api_ctx(r)->db, r->principal.user_id, r->params[0], &nk);
    if (rc == ST_NOTFOUND) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such key", NULL);
    } else if (rc == ST_CONFLICT) {
        bw_reply_error(r, BW_E_CONFLICT, "the key is revoked; create a new key instead", NULL);
    } else if (rc != ST_OK) {
        api_reply_storage(r);
    } else {
        bw_auth_forget_key(api_ctx(r)->auth, old.id);
        json_t *body = created_body(&nk, secret, nk.tier);
        json_object_set_new(body, "rotated_from", json_string(nk.rotated_from));
        bw_reply_json(r, 201, body);
    }
    sodium_memzero(secret, sizeof secret);
}
