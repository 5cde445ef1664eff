/* The CycloneDX 1.7 ML-BOM of an account's AI assets (GET /api/ai-security/assets/bom), and the
 * validator of an asset's `components` list. Pure: no I/O, no clock, no randomness (the caller
 * hands in the serial number and the time).
 *
 * The document:
 *   - a model asset is a component of type machine-learning-model; every other asset (agent, rag,
 *     api, pipeline) is a service with its endpoint; an MCP server the account pinned is a service
 *     whose tools are its nested services, with a bi-directional data flow each;
 *   - an asset's `components` entries are components of type library, each with a dependency of
 *     the asset on it;
 *   - the asset's registration facts and its last scan's results are properties (bulwark:*);
 *   - intel records that match an asset (bw_bom_record_matches) are vulnerabilities whose affects
 *     name the matched asset (provider or model) or component, with a VEX-style analysis: state
 *     exploitable when the record is in CISA KEV (known exploited), in_triage otherwise; the detail
 *     says what matched.
 * bom-refs are stable: the asset id; "<asset id>/component/<name>[@<version>]" (% and @ in them
 * percent-encoded); "mcp/<server key>"
 * and ".../tool/<name>"; "vuln/<record id>". Everything is in input order (records by id), so
 * the same inventory and intel give the same document apart from serialNumber and timestamp.
 *
 * The match (no keyword guessing): a record's kev_details.vendor and .product and its affected
 * entries' vendor, product and package, each compared whole, ignoring ASCII case, with the
 * asset's provider, its connection's model and the names of its components.
 *
 * Ownership: json_t * results are new references; inputs are borrowed. */
#ifndef BW_ENGINE_BOM_H
#define BW_ENGINE_BOM_H
#include <jansson.h>
#include <stdbool.h>

/* Validates an asset's `components` member (v: its value; JSON null or NULL = none, *doc NULL).
 * An array of at most BW_ASSET_COMPONENTS_MAX objects {name, version?, purl?}: name 1..
 * BW_COMPONENT_NAME_MAX characters, not blank; version up to BW_COMPONENT_VERSION_MAX; purl up to
 * BW_COMPONENT_PURL_MAX starting "pkg:" with a type and a name ("pkg:type/name"); no control
 * characters; no two entries with the same name and version. Other members are dropped. Appends
 * {field,message} objects ("components[i].name", ...) to errors and returns how many; when none,
 * *doc is the list to store (new reference; NULL for none). */
int bw_bom_components_parse(const json_t *v, json_t **doc, json_t *errors);

/* The names an asset is matched by (a new array of strings, lower-cased): its provider, its
 * connection's model and its components' names. asset: as bw_bom_build takes it. */
json_t *bw_bom_asset_keys(const json_t *asset);

/* Whether the intel record (its document) names any of keys (a bw_bom_asset_keys array, or
 * several joined). */
bool bw_bom_record_matches(const json_t *record, const json_t *keys);

/* The same rule for one asset, saying which of its names the record names: its provider first,
 * then its connection's model, then its components in order. true with *matched ("provider",
 * "model" or "component") and *value (the asset's name, borrowed from asset); false when none.
 * intel.kev_match events use it, so an event and the BOM never disagree. */
bool bw_bom_asset_match(const json_t *record, const json_t *asset, const char **matched, const char **value);

struct bw_bom_in {
    /* The assets, in the order to list them: objects as GET assets/{id} answers them plus
     * "components" (the validated list or null) and "last_scan" (the last scan's document or
     * null). */
    const json_t *assets;
    /* MCP servers pinned by the account: [{key, server, pinned_at, tools:[{name, hash}]}] (NULL:
     * none). */
    const json_t *mcp_servers;
    /* Intel record documents that may match (others are ignored), any order. */
    const json_t *records;
    const char *serial;       /* "urn:uuid:..." */
    const char *timestamp;    /* ISO 8601 UTC */
    const char *tool_version; /* bulwark's version */
};

/* The BOM (a new object), or NULL when out of memory. */
json_t *bw_bom_build(const struct bw_bom_in *in);

#endif
