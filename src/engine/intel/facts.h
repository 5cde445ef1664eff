/* The facts of a threat-intelligence record (the document of src/engine/intel/intel.h) as the
 * generators read them: playbooks (playbook.c), hunt packs (hunt.c) and compliance gaps
 * (compliance.c). One reading of what they share: the record type and AI impacts decoded, the
 * severity words matched, the KEV facts, and the lists as the record's arrays, with one way to
 * take the well-formed, distinct ids of a list under the caller's caps. Each generator derives
 * its own facts from these (names, classes, clipped and escaped text for its output).
 *
 * A member that is missing or of another type reads as "" (strings), NULL (arrays, objects) or
 * false. Ownership: every pointer is borrowed from the record (valid while it is; free nothing).
 * Pure: no allocation, no clock, no locale. */
#ifndef BW_ENGINE_INTEL_FACTS_H
#define BW_ENGINE_INTEL_FACTS_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Record types, in the order of bw_intel_types (intel.h). */
enum bw_facts_type {
    BW_FACTS_PROMPT_ATTACK,
    BW_FACTS_AGENT_THREAT,
    BW_FACTS_AI_CVE,
    BW_FACTS_MODEL_ADVISORY,
    BW_FACTS_OTHER, /* none of the four */
};

/* The values of ai_impact as bits, in the order of intel.h. */
enum bw_facts_impact {
    BW_IMPACT_AGENTIC = 1u << 0, /* agentic */
    BW_IMPACT_TOOL = 1u << 1,    /* tool_execution */
    BW_IMPACT_SUPPLY = 1u << 2,  /* model_supply_chain */
    BW_IMPACT_DATA = 1u << 3,    /* data_exposure */
    BW_IMPACT_PROMPT = 1u << 4,  /* prompt_injection */
    BW_IMPACT_THEFT = 1u << 5,   /* model_theft */
    BW_IMPACT_AVAIL = 1u << 6,   /* availability */
};
#define BW_FACTS_NIMPACTS 7
/* Their names: bit 1u << i is bw_facts_impact_names[i]. */
extern const char *const bw_facts_impact_names[BW_FACTS_NIMPACTS];

struct bw_facts {
    const char *id, *title, *summary, *published, *updated;
    enum bw_facts_type type;
    int severity;           /* index in bw_intel_severities (0 CRITICAL .. 3 LOW) of severity, matched
                               ignoring ASCII case; -1 when it is none of them */
    int risk_tier;          /* the same for risk_tier */
    unsigned impacts;       /* BW_IMPACT_* named among the first BW_INTEL_FACTS_MAX_IMPACTS entries of
                               ai_impact */
    bool kev;               /* kev is true */
    bool exploit;           /* kev, or exploit_available is true */
    const json_t *kev_details; /* the object, or NULL */
    /* members of kev_details ("" without it) */
    const char *kev_vendor, *kev_product, *kev_added, *kev_due, *kev_action, *kev_ransomware;
    const json_t *cve, *cwe, *attack, *atlas, *affected, *references, *aliases; /* arrays, or NULL */
};

/* Reads rec (any JSON value; a non-object reads as an empty record) into f. */
void bw_facts_read(struct bw_facts *f, const json_t *rec);

/* The distinct strings that valid accepts among the first scan entries of list (an array, or
 * NULL), at most max of them, in list order, into out (room for max). Returns how many. */
size_t bw_facts_ids(const json_t *list, bool (*valid)(const char *), size_t scan, size_t max, const char **out);

#endif
