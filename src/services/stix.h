/* STIX 2.1 out of the intel store: pages of the collections TAXII serves and of the bundle
 * GET /api/ai-security/threat-feed/stix serves. Loads records in change order
 * (store_intel_changed), builds each record's playbook and hunt content and its STIX objects with
 * the engines (src/engine/intel/stix.h, playbook.h, hunt.h), and cuts pages.
 *
 * Streams (TAXII): a collection is the engine's stream (stix.h): the shared objects, then each
 * record's objects, records in change order. The feed collection is all of it; the hunt-pack
 * collection is the bulwark identity and the records' indicator objects (Sigma and YARA). date_added
 * is BW_STIX_TABLES_TIME for shared objects and the record's enriched_at (microseconds) for a
 * record's objects, so the stream is in date_added order.
 *
 * Ownership: pages hold new references (bw_stix_page_free). */
#ifndef BW_SERVICES_STIX_H
#define BW_SERVICES_STIX_H
#include "common/limits.h"
#include "engine/intel/taxii.h"
#include "store/db.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

enum bw_stix_collection { BW_STIX_FEED, BW_STIX_HUNT };

/* Where a stream page starts: in the shared section (records false: skip objects of it are done),
 * or at the record (us, id) with skip of its objects done (id "": every record changed after us). */
struct bw_stix_pos {
    bool records;
    int64_t us;
    char id[BW_INTEL_ID_MAX + 1];
    long skip;
};

struct bw_stix_page {
    json_t *objects; /* STIX objects */
    json_t *added;   /* their date_added, Unix microseconds (integers), index for index */
    bool more;
    struct bw_stix_pos next; /* where the page after starts, when more */
};
void bw_stix_page_free(struct bw_stix_page *p);

/* The start of a stream for a query: the shared section, or past it when added_after is at or after
 * its date_added. */
void bw_stix_stream_start(const struct bw_taxii_query *q, struct bw_stix_pos *pos);

/* One page of a collection from pos: at most q->limit objects matching q, reading at most
 * BW_TAXII_SCAN_RECORDS records. ST_OK (store.h) with *out filled, or ST_ERROR. */
int bw_stix_stream_page(struct db *db, enum bw_stix_collection c, const struct bw_taxii_query *q,
                        const struct bw_stix_pos *pos, struct bw_stix_page *out);

/* One bundle page of the feed: the objects of at most limit records after the record (after_us,
 * after_id) (after_id NULL: from the first), in change order, each page self-contained: the
 * identity, the extension definition and the attack patterns its objects refer to come first.
 * *bundle a new bundle (bw_stix_bundle); *more and last_* (the page's last record) for the cursor. */
int bw_stix_bundle_page(struct db *db, int64_t after_us, const char *after_id, long limit, json_t **bundle,
                        bool *more, int64_t *last_us, char last_id[BW_INTEL_ID_MAX + 1]);

#endif
