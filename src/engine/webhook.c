#include "engine/webhook.h"

#include "common/rng.h"
#include "net/egress.h"
#include "net/url.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

static const char *const NAMES[BW_WH__EVENTS] = {"engagement.completed", "asset_scan.completed", "intel.kev_match",
                                                 "orchestrator.run.completed"};

const char *bw_webhook_event_name(enum bw_webhook_event e)
{
    return (unsigned)e < BW_WH__EVENTS ? NAMES[e] : NULL;
}

int bw_webhook_event_parse(const char *name)
{
    for (int i = 0; name && i < BW_WH__EVENTS; i++)
        if (strcmp(name, NAMES[i]) == 0)
            return i;
    return -1;
}

int bw_webhook_events_read(const json_t *arr, unsigned *mask, char *why, size_t cap)
{
    *mask = 0;
    if (!json_is_array(arr) || json_array_size(arr) == 0) {
        snprintf(why, cap, "must be a non-empty array of event names");
        return -1;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(arr, i, v) {
        int e = bw_webhook_event_parse(json_string_value(v));
        if (e < 0) {
            snprintf(why, cap, "must name events among engagement.completed, asset_scan.completed, intel.kev_match, "
                               "orchestrator.run.completed");
            return -1;
        }
        if (*mask & (1u << e)) {
            snprintf(why, cap, "names %s twice", NAMES[e]);
            return -1;
        }
        *mask |= 1u << e;
    }
    return 0;
}

void bw_webhook_events_text(unsigned mask, char out[BW_WH_EVENTS_TEXT_MAX])
{
    size_t n = 0;
    out[n++] = ',';
    for (int e = 0; e < BW_WH__EVENTS; e++)
        if (mask & (1u << e))
            n += (size_t)snprintf(out + n, BW_WH_EVENTS_TEXT_MAX - n, "%s,", NAMES[e]);
    out[n] = '\0';
}

unsigned bw_webhook_events_from_text(const char *text)
{
    unsigned mask = 0;
    char needle[64];
    for (int e = 0; text && e < BW_WH__EVENTS; e++) {
        snprintf(needle, sizeof needle, ",%s,", NAMES[e]);
        if (strstr(text, needle))
            mask |= 1u << e;
    }
    return mask;
}

json_t *bw_webhook_events_json(unsigned mask)
{
    json_t *a = json_array();
    for (int e = 0; a && e < BW_WH__EVENTS; e++)
        if (mask & (1u << e))
            json_array_append_new(a, json_string(NAMES[e]));
    return a;
}

bool bw_webhook_url_ok(const char *url, unsigned allow, char *why, size_t cap)
{
    if (strlen(url) > BW_WEBHOOK_URL_MAX) {
        snprintf(why, cap, "must be at most %d bytes", BW_WEBHOOK_URL_MAX);
        return false;
    }
    struct bw_url u;
    char reason[160] = "";
    bool ok = false;
    if (bw_url_parse(&u, url, reason, sizeof reason) != BW_URL_OK) {
        snprintf(why, cap, "must be an absolute https URL (%s)", reason[0] ? reason : "unreadable");
    } else if (u.userinfo) {
        snprintf(why, cap, "must not carry user:password@ (the signature authenticates the sender)");
    } else if (strchr(url, '#')) {
        snprintf(why, cap, "must not have a fragment");
    } else if (strcmp(u.scheme, "https") != 0 &&
               !(strcmp(u.scheme, "http") == 0 && (u.host.cls == BW_ADDR_LOOPBACK || u.host.cls == BW_ADDR_PRIVATE) &&
                 bw_egress_class_allowed(u.host.cls, allow))) {
        /* plain http is only for a receiver on this machine or network, and only where the
         * operator opened it (BULWARK_EGRESS_ALLOW): events must not cross the internet in clear */
        snprintf(why, cap, "must be https (plain http only to a loopback or private address that BULWARK_EGRESS_ALLOW "
                           "opens)");
    } else if (bw_egress_check_url(url, allow, reason, sizeof reason) != BW_EG_OK) {
        snprintf(why, cap, "is refused by the egress policy (%s)", reason);
    } else {
        ok = true;
    }
    bw_url_free(&u);
    return ok;
}

void bw_webhook_sign(const char *secret, size_t secret_len, int64_t ts, const char *body, size_t len,
                     char out[BW_WEBHOOK_SIG_MAX])
{
    crypto_auth_hmacsha256_state st;
    unsigned char mac[crypto_auth_hmacsha256_BYTES];
    char stamp[24];
    int n = snprintf(stamp, sizeof stamp, "%lld.", (long long)ts);
    crypto_auth_hmacsha256_init(&st, (const unsigned char *)secret, secret_len);
    crypto_auth_hmacsha256_update(&st, (const unsigned char *)stamp, (unsigned long long)n);
    crypto_auth_hmacsha256_update(&st, (const unsigned char *)body, (unsigned long long)len);
    crypto_auth_hmacsha256_final(&st, mac);
    memcpy(out, "v1=", 3);
    sodium_bin2hex(out + 3, BW_WEBHOOK_SIG_MAX - 3, mac, sizeof mac);
    sodium_memzero(&st, sizeof st);
}

int64_t bw_webhook_backoff_ms(int tries, long scale)
{
    /* 1 + 5 + 15 + 40 minutes: the fifth try comes about an hour after the first */
    static const int64_t MINUTES[BW_WEBHOOK_TRIES - 1] = {1, 5, 15, 40};
    if (tries < 1 || tries >= BW_WEBHOOK_TRIES)
        return -1;
    if (scale < 1)
        scale = 1;
    if (scale > 1000)
        scale = 1000;
    return MINUTES[tries - 1] * 60000 * scale / 1000;
}

void bw_webhook_secret_new(char out[BW_WEBHOOK_SECRET_LEN + 1])
{
    memcpy(out, "whsec_", 6);
    bw_random_base62(out + 6, BW_WEBHOOK_SECRET_LEN - 6);
}

json_t *bw_webhook_envelope(const char *event_id, const char *type, const char *created_at, json_t *data)
{
    if (!data)
        return NULL;
    return json_pack("{s:s,s:s,s:s,s:o}", "id", event_id, "type", type, "created_at", created_at, "data", data);
}

