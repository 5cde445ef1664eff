/* Ids of the outside world that intel records carry: CVE and CWE. One parser of each, used by
 * the importers (which accept longer numbers, BW_INTEL_*_IMPORT) and by the generators that read
 * records (playbooks, hunt packs, compliance: BW_INTEL_CVE_SEQ_MAX, BW_INTEL_CWE_DIGITS_MAX).
 * ATT&CK and ATLAS ids are checked by attack.h, record ids by intel.h.
 *
 * Pure functions over NUL-terminated text; a NULL argument is not an id. No allocation. */
#ifndef BW_ENGINE_INTEL_IDS_H
#define BW_ENGINE_INTEL_IDS_H
#include "common/limits.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether s is "CVE-", a four-digit year, "-" and a sequence number of 4 to max_seq digits. */
bool bw_cve_shape(const char *s, size_t max_seq);

/* A CVE id as the generators take it from a record: "CVE-YYYY-NNNN" with at most
 * BW_INTEL_CVE_SEQ_MAX digits of sequence number. */
static inline bool bw_cve_valid(const char *s)
{
    return bw_cve_shape(s, BW_INTEL_CVE_SEQ_MAX);
}

/* The number N of "CWE-N" with 1 to max_digits (at most 9) decimal digits, or -1. Leading zeros
 * count as digits ("CWE-022" is 22). */
int bw_cwe_parse(const char *s, size_t max_digits);

/* The number of a CWE id as the generators take it from a record (at most
 * BW_INTEL_CWE_DIGITS_MAX digits): "CWE-22" -> 22, "CWE-0" -> 0; -1 when s is no such id. */
static inline int bw_cwe_number(const char *s)
{
    return bw_cwe_parse(s, BW_INTEL_CWE_DIGITS_MAX);
}

#endif
