/* MITRE ATT&CK Enterprise and MITRE ATLAS tables (data/attack/, embedded in the binary).
 *
 * Both are parsed once, on first use (pthread_once), into immutable arrays that every thread
 * reads without locks; nothing here is freed, and every pointer returned stays valid for the
 * life of the process. Lookups are binary searches over id-sorted arrays.
 *
 * Decisions:
 * - URLs end with '/', and a sub-technique's URL is the parent's path plus the sub-id
 *   (https://attack.mitre.org/techniques/T1059/006/), the form attack.mitre.org links to.
 * - Tactics of a technique are given in matrix order (reconnaissance ... impact), not in the
 *   order of the source file.
 * - A sub-technique always has its own tactics in ATT&CK. When it has no mitigation of its own
 *   (63 of them in the current data) it carries its parent's, flagged `mitigations_inherited`.
 * - An ATLAS sub-technique has no tactics in ATLAS: it carries its parent's; likewise its
 *   parent's mitigations when it has none.
 * - An id that is well formed but not in the table (a newer or revoked sub-technique) is not
 *   found by bw_attack_technique_find; bw_attack_technique_resolve then answers its parent.
 * - When the embedded data cannot be loaded (it always can in a correct build) every lookup
 *   answers NULL / 0 rather than crashing. */
#ifndef BW_ENGINE_INTEL_ATTACK_H
#define BW_ENGINE_INTEL_ATTACK_H
#include <stdbool.h>
#include <stddef.h>

#define BW_ATTACK_FILE "data/attack/enterprise-attack-compact.json"
#define BW_ATLAS_FILE  "data/attack/atlas-compact.json"

struct bw_attack_tactic {
    const char *id;        /* TA0001 */
    const char *shortname; /* initial-access */
    const char *name;      /* Initial Access */
    const char *url;
    unsigned order;        /* 0 = reconnaissance ... 13 = impact */
};

struct bw_attack_mitigation {
    const char *id; /* M1016 */
    const char *name;
    const char *url;
};

struct bw_attack_technique {
    const char *id; /* T1059 or T1059.006 */
    const char *name;
    const char *url;
    const struct bw_attack_technique *parent; /* NULL unless a sub-technique */
    const struct bw_attack_tactic *const *tactics;
    size_t n_tactics;
    const struct bw_attack_mitigation *const *mitigations; /* sorted by id */
    size_t n_mitigations;
    bool mitigations_inherited; /* a sub-technique showing its parent's mitigations */
};

struct bw_atlas_tactic {
    const char *id; /* AML.TA0005 */
    const char *name;
    const char *url;
    const struct bw_attack_tactic *attack; /* the ATT&CK tactic it corresponds to, or NULL
                                              (AI Model Access, AI Attack Staging) */
    unsigned order; /* ATLAS matrix order */
};

struct bw_atlas_mitigation {
    const char *id; /* AML.M0020 */
    const char *name;
    const char *url;
};

struct bw_atlas_technique {
    const char *id; /* AML.T0051 or AML.T0051.000 */
    const char *name;
    const char *url;
    const struct bw_atlas_technique *parent;
    const struct bw_atlas_tactic *const *tactics; /* ATLAS matrix order */
    size_t n_tactics;
    const struct bw_attack_technique *attack_reference; /* the ATT&CK technique ATLAS names as
                                                           its equivalent, or NULL */
    const struct bw_atlas_mitigation *const *mitigations; /* sorted by id */
    size_t n_mitigations;
};

/* Loads both tables if not done yet. 0 when they are usable, -1 otherwise. Every other function
 * calls it, so calling it is only needed to fail early (at start) or to time the loading. */
int bw_attack_load(void);

/* ATT&CK tactics in matrix order: index 0 .. bw_attack_tactic_count()-1. */
size_t bw_attack_tactic_count(void);
const struct bw_attack_tactic *bw_attack_tactic_at(size_t i);
/* By id (TA0002) or shortname (execution), or NULL. */
const struct bw_attack_tactic *bw_attack_tactic_find(const char *id_or_shortname);

/* Techniques sorted by id: index 0 .. bw_attack_technique_count()-1. */
size_t bw_attack_technique_count(void);
const struct bw_attack_technique *bw_attack_technique_at(size_t i);
/* Exactly this id, or NULL. */
const struct bw_attack_technique *bw_attack_technique_find(const char *id);
/* This id, or for an unknown sub-technique id its parent, or NULL. */
const struct bw_attack_technique *bw_attack_technique_resolve(const char *id);

size_t bw_attack_mitigation_count(void);
const struct bw_attack_mitigation *bw_attack_mitigation_at(size_t i);
const struct bw_attack_mitigation *bw_attack_mitigation_find(const char *id);

/* "T" + 4 digits, optionally "." + 3 digits. */
bool bw_attack_id_valid(const char *id);

/* The ATT&CK source line of the embedded data (for attribution), or "". */
const char *bw_attack_source(void);

/* ATLAS, the same way. */
size_t bw_atlas_tactic_count(void);
const struct bw_atlas_tactic *bw_atlas_tactic_at(size_t i);
const struct bw_atlas_tactic *bw_atlas_tactic_find(const char *id);
size_t bw_atlas_technique_count(void);
const struct bw_atlas_technique *bw_atlas_technique_at(size_t i);
const struct bw_atlas_technique *bw_atlas_technique_find(const char *id);
/* This id, or for an unknown sub-technique id its parent, or NULL. */
const struct bw_atlas_technique *bw_atlas_technique_resolve(const char *id);
const struct bw_atlas_mitigation *bw_atlas_mitigation_find(const char *id);

/* "AML.T" + 4 digits, optionally "." + 3 digits. */
bool bw_atlas_id_valid(const char *id);

const char *bw_atlas_source(void);

#endif
