/* The risk level of a 0-100 risk score where higher is riskier (agent and MCP scans, API.md):
 * >=75 CRITICAL, >=50 HIGH, >=25 MEDIUM, else LOW. */
#ifndef BW_ENGINE_RISK_H
#define BW_ENGINE_RISK_H

static inline const char *bw_risk_level(int score)
{
    return score >= 75 ? "CRITICAL" : score >= 50 ? "HIGH" : score >= 25 ? "MEDIUM" : "LOW";
}

#endif
