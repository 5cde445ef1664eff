/* Severity words and risk levels the engines and services share: one reading of a severity word
 * (code scanner rules and findings, governance controls, orchestrator findings) and the risk
 * level of a 0-100 risk score where higher is riskier (agent and MCP scans, API.md): >=75
 * CRITICAL, >=50 HIGH, >=25 MEDIUM, else LOW. */
#ifndef BW_ENGINE_RISK_H
#define BW_ENGINE_RISK_H
#include <stddef.h>
#include <strings.h>

enum bw_sev { BW_SEV_LOW = 1, BW_SEV_MEDIUM, BW_SEV_HIGH, BW_SEV_CRITICAL };

/* "LOW" .. "CRITICAL" for BW_SEV_*, "NONE" for anything else. */
static inline const char *bw_sev_name(int s)
{
    static const char *const n[] = {"NONE", "LOW", "MEDIUM", "HIGH", "CRITICAL"};
    return s >= 0 && s <= BW_SEV_CRITICAL ? n[s] : "NONE";
}

/* "HIGH" (case-insensitive) -> BW_SEV_HIGH; 0 when unknown or NULL. */
static inline int bw_sev_parse(const char *s)
{
    for (int i = BW_SEV_LOW; s && i <= BW_SEV_CRITICAL; i++)
        if (strcasecmp(s, bw_sev_name(i)) == 0)
            return i;
    return 0;
}

static inline const char *bw_risk_level(int score)
{
    return score >= 75 ? "CRITICAL" : score >= 50 ? "HIGH" : score >= 25 ? "MEDIUM" : "LOW";
}

#endif
