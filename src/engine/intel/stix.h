/* STIX 2.1 objects of the threat-intelligence store: what GET /api/ai-security/threat-feed/stix and
 * the TAXII collections serve. A pure engine: records (src/engine/intel/intel.h), their playbooks
 * (playbook.h) and hunt content (hunt.h) in, STIX objects out; no I/O, no clock, no randomness.
 *
 * The stream. A collection is one ordered sequence of objects:
 *   1. the shared objects (bw_stix_shared): the bulwark `identity` (every other object's
 *      created_by_ref), the `extension-definition` of the property extension that carries KEV,
 *      EPSS and risk facts on vulnerabilities, and one `attack-pattern` per technique of the
 *      embedded MITRE ATLAS and ATT&CK tables (ATLAS first, each table in id order). Their
 *      created/modified/date_added are BW_STIX_TABLES_TIME (when the embedded intel was assembled).
 *   2. then each record's objects (bw_stix_record), records in the order the caller reads them.
 * Attack patterns are shared rather than emitted per record so that no object appears twice in a
 * stream (TAXII gives each object version one date_added).
 *
 * A record's objects, in this order:
 *   subject     a CVE or advisory record: a `vulnerability` (name = the record id; external
 *               references: source_name "cve" for each CVE id, the record's other aliases, the
 *               record's reference URLs; the property extension with kev, kev_*, epss when the
 *               record has one, cvss_*, severity, risk_score, risk_tier, record_type); an ATLAS
 *               case study (AML.CS...): a `report` over the attack patterns of its techniques and
 *               its other objects; an ATLAS technique record (AML.T...): the shared attack pattern
 *               of that technique (nothing emitted, unless the tables lack it: then one is).
 *   course of action  from the playbook (when given): executive advisory and immediate actions
 *   indicators  from the hunt content (when given): pattern_type "sigma" (the rule's YAML) and
 *               "yara" (the rule's text)
 *   relationships  course-of-action `mitigates` subject; attack-pattern `targets` vulnerability for
 *               each of the record's techniques the tables know (unknown sub-techniques resolve to
 *               their parent); indicator `indicates` an attack-pattern subject, else `related-to`
 *               the subject.
 * created = the record's published time, modified = its enriched_at (the last change of its facts
 * here), or its changed_at when that is later (an EPSS score changed after the facts); never
 * before created. The stream's date_added of each is the record's last change (the caller's).
 *
 * Ids: "<type>--" + a version-5 UUID (SHA-1, RFC 9562) under BW_STIX_NAMESPACE of
 * "<type>/<record or technique id>" (and "relationship/<source>/<type>/<target>"), so the same
 * record always has the same object ids on every instance.
 *
 * Timestamps are written with milliseconds ("2026-04-30T00:00:00.000Z"), as STIX 2.1 requires for
 * created and modified.
 *
 * Ownership: json_t * results are new references unless said otherwise. Thread-safe (the shared
 * objects are built once, on first use). */
#ifndef BW_ENGINE_INTEL_STIX_H
#define BW_ENGINE_INTEL_STIX_H
#include "common/limits.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define BW_STIX_NAMESPACE   "f994bf3d-20e0-48d2-9f26-5f15d0a599c7" /* bulwark's, fixed forever */
#define BW_STIX_TABLES_TIME "2026-04-30T00:00:00.000Z"
#define BW_STIX_MEDIA_TYPE  "application/stix+json;version=2.1"

/* The version-5 UUID of name under namespace ns (16 bytes), lower-case text into out. */
void bw_stix_uuid5(const unsigned char ns[16], const char *name, size_t len, char out[37]);
/* The version-5 UUID of name under BW_STIX_NAMESPACE. */
void bw_stix_uuid(const char *name, char out[37]);
/* "<type>--<uuid5(BW_STIX_NAMESPACE, type "/" name)>" into out. */
void bw_stix_id(const char *type, const char *name, char out[BW_STIX_ID_MAX]);

/* The id of the bulwark identity and of the extension definition. */
const char *bw_stix_identity_id(void);
const char *bw_stix_extension_id(void);

/* The shared objects (see above), built once: a borrowed array that lives as long as the process,
 * never modified; NULL only when memory ran out at the first call. */
const json_t *bw_stix_shared(void);
/* The shared object of this id (borrowed, as above), or NULL. */
const json_t *bw_stix_shared_find(const char *id);

/* Appends record's objects to out (an array). playbook and hunt may be NULL (then no course of
 * action, no indicators). 0, or -1 when the record lacks an id or memory ran out (out may then
 * hold part of them: discard it). */
int bw_stix_record(const json_t *record, const json_t *playbook, const json_t *hunt, json_t *out);

/* A STIX timestamp with milliseconds from an ISO 8601 UTC one with seconds ("...:00Z" ->
 * "...:00.000Z"); one that has a fraction already is copied. false when ts is not of that form. */
bool bw_stix_time(const char *ts, char out[32]);

/* A bundle around objects (borrowed: the bundle holds new references); its id is a version-5 UUID
 * of the member ids, so the same objects give the same bundle. */
json_t *bw_stix_bundle(const json_t *objects);

#endif
