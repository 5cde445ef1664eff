/* MCP tool pinning ("rug pull" detection): what a tool's definition is when it is pinned, which
 * server it belongs to, and how a definition differs from its pin. Pure: no I/O, no clock. The
 * scanner (mcpscan.c) reports the changes; the service (src/services/mcppins.c) loads and saves
 * the pins (src/store/store_mcp.h).
 *
 * A definition is a tool's description, title, input schema and annotations. Its canonical text
 * is the object of those members (absent ones left out) written as compact JSON with the keys of
 * every object sorted bytewise, every number of integral value written as an integer and every
 * `required` array of strings sorted (JSON Schema reads it as a set), so that key order, white
 * space, number spelling (1.0, 1e0) and the order of required names never count as a change;
 * other arrays' order and the bytes of strings do. The pin is the hex SHA-256 of that text. The document kept with a pin
 * holds, per member present, the SHA-256 of the member's canonical text and the text itself
 * (strings as they are, schema and annotations as canonical JSON) cut to BW_MCP_PIN_TEXT_MAX
 * bytes, so a later diff says which members changed and quotes them without keeping unbounded
 * text: {"v":1,"fields":{"description":{"sha256":"..","text":"..","cut":true}, ...}}.
 *
 * A server's identity is its server_url as the shared URL model reads it (net/url.h): scheme,
 * normalised host, the port unless it is the scheme's default, and the path; userinfo, query and
 * fragment are left out (they carry credentials, and the probe drops them too). A stdio server is
 * its command line with white space runs as one space. Pins are keyed by the SHA-256 of the
 * identity, so a stored key never holds a command line's secrets; what is shown has
 * credential-shaped words masked (bw_detect_excerpt).
 *
 * Ownership: bw_mcp_pin_make fills a bw_mcp_pin whose doc is malloc'ed (bw_mcp_pin_clear frees
 * it); functions returning json_t * or char * return new values the caller frees. */
#ifndef BW_ENGINE_MCPPIN_H
#define BW_ENGINE_MCPPIN_H
#include "common/limits.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define BW_MCP_PIN_HASH_HEX 64 /* hex digits of a SHA-256 */

/* The members of a definition, borrowed; NULL where absent. */
struct bw_mcp_tooldef {
    const char *description, *title;
    const json_t *input_schema, *annotations;
};

struct bw_mcp_pin {
    char hash[BW_MCP_PIN_HASH_HEX + 1];
    char *doc; /* the document kept with the pin */
};

/* The canonical text of v (described above), or NULL when out of memory or v is nested deeper
 * than BW_MCP_PIN_DEPTH_MAX. */
char *bw_mcp_canonical(const json_t *v);

/* Pins d: 0 with *out filled, -1 when out of memory (*out then holds nothing to free). */
int bw_mcp_pin_make(const struct bw_mcp_tooldef *d, struct bw_mcp_pin *out);
void bw_mcp_pin_clear(struct bw_mcp_pin *p);

/* What changed from the pinned document doc to the definition d: a new array of {field, old,
 * new}, one item per member whose canonical text changed, in the order description, title,
 * input_schema, annotations; old and new are bounded quotes of the changed part with a little
 * context and credential-shaped words masked, null where the member is absent. A document that
 * cannot be read gives the one item {field: "definition", old: null, new: null}. Empty when
 * nothing changed; NULL when out of memory. */
json_t *bw_mcp_pin_diff(const char *doc, const struct bw_mcp_tooldef *d);

/* The identity of a server_url the scan accepted: its key (hex SHA-256) into key and the form
 * shown (masked, at most BW_MCP_PIN_SERVER_SHOWN bytes) into shown (cap bytes). False when the
 * URL cannot be read or memory ran out. */
bool bw_mcp_server_identity(const char *server_url, char key[BW_MCP_PIN_HASH_HEX + 1], char *shown, size_t cap);

#endif
