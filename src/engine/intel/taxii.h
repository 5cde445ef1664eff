/* TAXII 2.1 query parameters and the matching of STIX objects against them (OASIS TAXII 2.1,
 * section 3.4: added_after, limit, next, match[id], match[type], match[version],
 * match[spec_version]). Pure: no I/O, no clock.
 *
 * Decisions (also in docs/openapi.json):
 * - Each match[...] value is a comma-separated list (at most BW_TAXII_MATCH_MAX entries); an
 *   object matches when it matches one entry of every match parameter given.
 * - match[type]: STIX type names ([a-z0-9-], 3..250 characters); match[id]: STIX ids
 *   ("<type>--<uuid>"); match[version]: "last", "first", "all" or a timestamp; the server keeps
 *   only the current version of each object, so last/first/all all mean it and a timestamp matches
 *   an object whose modified is that time. match[spec_version]: "2.0" or "2.1" (objects are 2.1).
 * - added_after: an RFC 3339 UTC timestamp ("...Z", optional fraction of up to 6 digits, which is
 *   the precision date_added has); objects with date_added strictly after it.
 * - limit: an integer >= 1; above BW_TAXII_LIMIT_MAX it is lowered to it (TAXII lets a server
 *   answer fewer objects than asked); absent: BW_TAXII_LIMIT_DEFAULT.
 * - next: opaque (what a previous page's `next` said), at most BW_CURSOR_MAX characters; checked
 *   by the caller.
 * - Unknown parameters are ignored (a client may send options of a later TAXII version).
 *
 * Ownership: the query borrows nothing (values are copied); bw_taxii_query_free frees them. */
#ifndef BW_ENGINE_INTEL_TAXII_H
#define BW_ENGINE_INTEL_TAXII_H
#include "common/limits.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BW_TAXII_MEDIA_TYPE "application/taxii+json;version=2.1"

struct bw_taxii_query {
    bool has_added_after;
    int64_t added_after_us; /* Unix microseconds */
    long limit;
    char *next; /* NULL: none */
    char *types[BW_TAXII_MATCH_MAX];
    size_t ntypes;
    char *ids[BW_TAXII_MATCH_MAX];
    size_t nids;
    char *versions[BW_TAXII_MATCH_MAX]; /* timestamps with milliseconds, as modified is written */
    size_t nversions;
    bool any_version; /* last, first or all given (or no match[version]) */
    bool spec_21;     /* match[spec_version] absent or names 2.1 */
    char canon[1024]; /* the filters as canonical text (not limit or next), for the cursor */
};

/* Parses n (name, value) pairs (values already percent-decoded; NULL value = the parameter
 * without '='). Returns 0, or -1 with errors (an array of {field, message}, a new reference) when
 * a parameter is malformed; q is then freed. */
int bw_taxii_query_parse(const char *const (*pairs)[2], size_t n, struct bw_taxii_query *q, json_t **errors);
void bw_taxii_query_free(struct bw_taxii_query *q);

/* Whether a STIX object (its type, id and modified members) matches the query's match filters. */
bool bw_taxii_match(const struct bw_taxii_query *q, const json_t *object);
/* Whether the query can match objects of this type at all (so the caller can skip building them). */
bool bw_taxii_wants_type(const struct bw_taxii_query *q, const char *type);

/* A TAXII timestamp of Unix microseconds: "YYYY-MM-DDTHH:MM:SS.ffffffZ" (27 characters). */
void bw_taxii_time(int64_t us, char out[32]);
/* Parses an RFC 3339 UTC timestamp with an optional fraction (at most 6 digits) into Unix
 * microseconds. 0 or -1. */
int bw_taxii_parse_time(const char *s, int64_t *us);

/* The TAXII error resource: {title, description?, http_status, error_code?, details?}. status is
 * written as a string, as TAXII has it. details: a new reference taken (may be NULL). */
json_t *bw_taxii_error(unsigned status, const char *title, const char *description, const char *error_code,
                       json_t *details);

#endif
