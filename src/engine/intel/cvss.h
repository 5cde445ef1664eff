/* CVSS v3.0/v3.1 base scores from vector strings (FIRST's specification, section 7). Pure. */
#ifndef BW_ENGINE_INTEL_CVSS_H
#define BW_ENGINE_INTEL_CVSS_H

struct bw_cvss {
    char version[4];  /* "3.0" or "3.1" */
    double base_score; /* 0.0 .. 10.0, one decimal */
    char av;           /* attack vector: 'N'etwork, 'A'djacent, 'L'ocal, 'P'hysical */
};

/* Parses "CVSS:3.x/AV:../AC:../PR:../UI:../S:../C:../I:../A:.." (each base metric exactly once;
 * temporal and environmental metrics are allowed and ignored). 0, or -1 when the
 * vector is not a valid CVSS v3 vector. */
int bw_cvss_parse(const char *vector, struct bw_cvss *out);

/* The qualitative rating of a base score, as the intel store spells it: 9.0+ CRITICAL, 7.0+
 * HIGH, 4.0+ MEDIUM, anything lower (0.0 "None" included) LOW. */
const char *bw_cvss_severity(double base_score);

#endif
