/* Static posture of a registered AI asset, from what registration tells us (no network): the
 * endpoint's transport, where it points and what it carries, the asset type and provider.
 * security_score 0-100, higher is safer; risk_level: >=80 LOW, >=60 MEDIUM, >=40 HIGH, else
 * CRITICAL (the API's thresholds). */
#ifndef BW_ENGINE_POSTURE_H
#define BW_ENGINE_POSTURE_H
#include <stdbool.h>
#include <stddef.h>

/* Whether s is an absolute http(s) URL with a host (what registration accepts). */
bool bw_posture_url_ok(const char *s);
int bw_posture_score(const char *type, const char *provider, const char *endpoint, const char *env);
const char *bw_posture_level(int score);
/* The form of url to show in a finding, report or error: userinfo dropped, the value of each
 * credential query parameter (the ones the score penalises: api_key, apikey, key, token,
 * access_token, secret, password, sig) replaced by REDACTED, the fragment dropped; other
 * parameters kept. Written into out (cap bytes, cut when longer); returns out. */
const char *bw_posture_url_display(const char *url, char *out, size_t cap);

#endif
