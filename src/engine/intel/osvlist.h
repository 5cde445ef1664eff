/* An OSV source as a sync fetches it (src/services/intel_sync.h): OSV's per-ecosystem archive (a
 * zip of <id>.json advisories, as https://osv-vulnerabilities.storage.googleapis.com/<eco>/all.zip
 * serves it), or a JSON document that is one advisory object or an array of them. The zip is read
 * from memory by libzip (never by hand), entry by entry, each bounded in size before and while it
 * is inflated (a zip bomb stops at the limit), entries whose name does not end in .json skipped.
 * Pure: no database, no network.
 *
 * The package filter (BULWARK_INTEL_OSV_PACKAGES): a comma-separated list of package names, each
 * optionally prefixed by its OSV ecosystem and a colon ("torch, PyPI:transformers,
 * npm:langchain"); names compare without case. An advisory is wanted when one of its
 * affected[].package entries matches; an empty filter wants every advisory. */
#ifndef BW_ENGINE_INTEL_OSVLIST_H
#define BW_ENGINE_INTEL_OSVLIST_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* One advisory document: its name (the zip entry's, or "[i]" in a JSON list) and its JSON bytes
 * (valid during the call). Non-zero stops the walk and is returned. */
typedef int (*bw_osv_doc_fn)(const char *name, const char *json, size_t len, void *arg);

/* Hands every advisory of buf to fn. 0; -1 with msg set (malformed zip or JSON, an entry or the
 * whole over the limits of src/common/limits.h); or fn's non-zero answer. */
int bw_osv_list(const char *buf, size_t len, bw_osv_doc_fn fn, void *arg, char *msg, size_t cap);

/* Whether filter (see above) is well formed: entries of [Ecosystem:]name separated by commas,
 * each at most BW_INTEL_OSV_PACKAGE_MAX bytes, at most BW_INTEL_OSV_PACKAGES_MAX of them. */
bool bw_osv_filter_valid(const char *filter);
/* Whether the advisory (a parsed JSON object) names a package of filter (NULL/"": every one). */
bool bw_osv_wanted(const json_t *advisory, const char *filter);

#endif
