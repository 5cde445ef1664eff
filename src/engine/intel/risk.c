/* The composite risk score; the formula and its reasons are in risk.h. */
#include "engine/intel/risk.h"

#include "common/timeutil.h"
#include "engine/intel/epss.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static int severity_base(const char *sev)
{
    if (!sev)
        return 30;
    if (strcmp(sev, "CRITICAL") == 0)
        return 57;
    if (strcmp(sev, "HIGH") == 0)
        return 45;
    if (strcmp(sev, "LOW") == 0)
        return 12;
    return 30;
}

static int ai_points(const json_t *impacts)
{
    static const struct {
        const char *name;
        int points;
    } table[] = {{"tool_execution", 6}, {"agentic", 4},     {"model_supply_chain", 4}, {"prompt_injection", 3},
                 {"data_exposure", 2},  {"model_theft", 2}, {"availability", 1}};
    int sum = 0;
    for (size_t t = 0; t < sizeof table / sizeof table[0]; t++) {
        size_t i;
        json_t *v;
        json_array_foreach(impacts, i, v) {
            const char *s = json_string_value(v);
            if (s && strcmp(s, table[t].name) == 0) {
                sum += table[t].points;
                break;
            }
        }
    }
    return sum > 12 ? 12 : sum;
}

/* "YYYY-MM-DDTHH:MM:SSZ" -> Unix seconds; false when absent or malformed */
static bool when(const json_t *record, const char *member, int64_t *out)
{
    const char *s = json_string_value(json_object_get(record, member));
    return s && bw_parse_iso8601(s, out) == 0;
}

int bw_risk_score(const json_t *record, int64_t ref_s)
{
    int score;
    const json_t *cvss = json_object_get(record, "cvss");
    const json_t *bs = json_object_get(cvss, "base_score");
    if (json_is_number(bs)) {
        double b = json_number_value(bs);
        b = b < 0 ? 0 : b > 10 ? 10 : b;
        score = (int)lround(b * 6.0);
    } else {
        score = severity_base(json_string_value(json_object_get(record, "severity")));
    }
    if (json_is_true(json_object_get(record, "kev"))) {
        score += 20;
    } else {
        int exploit = json_is_true(json_object_get(record, "exploit_available")) ? 10 : 0;
        int64_t epss = bw_epss_of(record); /* parts per billion; -1 when none */
        int forecast = epss < 0 ? 0 : (int)((epss * 20 + BW_EPSS_ONE / 2) / BW_EPSS_ONE);
        score += exploit > forecast ? exploit : forecast;
    }
    score += ai_points(json_object_get(record, "ai_impact"));
    int64_t pub = 0, upd = 0, latest;
    bool hp = when(record, "published", &pub), hu = when(record, "updated", &upd);
    if (hp || hu) {
        latest = hp && hu ? (pub > upd ? pub : upd) : hp ? pub : upd;
        int64_t days = ref_s > latest ? (ref_s - latest) / 86400 : 0;
        score += days <= 30 ? 8 : days <= 90 ? 6 : days <= 365 ? 4 : days <= 730 ? 2 : 0;
    }
    return score < 0 ? 0 : score > 100 ? 100 : score;
}

const char *bw_risk_tier(int s)
{
    return s >= 80 ? "CRITICAL" : s >= 60 ? "HIGH" : s >= 35 ? "MEDIUM" : "LOW";
}
