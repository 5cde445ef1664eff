/* Opaque keyset cursors for list pages (`cursor` in, `next_cursor` out).
 *
 * A cursor names the last row of a page by its sort key and id, so the next page is read from the
 * index right after it ("WHERE (key, id) < (?, ?)"), at the same cost at row 10 or row 10,000,
 * where `offset` walks every skipped row. It also carries which list and which sort it was issued
 * for and a fingerprint of that request's filters, so reusing it with other filters or another
 * sort is refused (BW_CURSOR_OTHER_QUERY) instead of answering a page of some other list.
 *
 * Sealed, not secret: the text is base64url (no padding) of a compact encoding followed by a
 * 16-byte keyed BLAKE2b tag (libsodium crypto_generichash) over it. A client can read the key and
 * id it carries (values of rows it has seen) but cannot forge one: any change fails the tag. The
 * key is per database (the `cursor_key` setting, generated once), so every instance sharing a
 * database accepts the others' cursors, and a cursor outlives a restart.
 *
 * Layout (version 1): version, list, sort (one byte each), filter fingerprint (8 bytes, BLAKE2b of
 * the caller's canonical filter text), key kind (0 integer: 8 bytes big-endian; 1 text: length
 * byte + bytes), id (length byte + bytes), tag. Text and id are 1..BW_CURSOR_TEXT_MAX /
 * BW_CURSOR_ID_MAX bytes without NUL.
 *
 * Pure: no I/O, no allocation; thread-safe. */
#ifndef BW_COMMON_CURSOR_H
#define BW_COMMON_CURSOR_H
#include "common/limits.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BW_CURSOR_KEY_BYTES 32

/* The lists that issue cursors; a cursor of one list is refused by every other. Append only (the
 * number is in cursors already handed out). */
enum bw_cursor_list {
    BW_CURSOR_FEED = 1,        /* GET /api/ai-security/threat-feed */
    BW_CURSOR_PLAYBOOKS = 2,   /* GET /api/threat-intel/playbooks/history */
    BW_CURSOR_ASSETS = 3,      /* GET /api/ai-security/assets */
    BW_CURSOR_SCANS = 4,       /* GET /api/ai-security/assets/{id}/scans */
    BW_CURSOR_ENGAGEMENTS = 5, /* GET /api/ai-security/redteam/engagements */
    BW_CURSOR_ASSESSMENTS = 6, /* GET /api/ai-security/governance/assessments */
    BW_CURSOR_STIX = 7,        /* GET /api/ai-security/threat-feed/stix */
    BW_CURSOR_TAXII = 8,       /* TAXII `next` (sort: collection and endpoint) */
    BW_CURSOR_WEBHOOK_DELIVERIES = 9, /* GET /api/webhooks/{id}/deliveries */
    BW_CURSOR_ACCOUNTS = 10,          /* GET /api/accounts (filters: the caller's scope) */
};

struct bw_cursor {
    uint8_t list, sort; /* sort: the list's own numbering of its orders (0: its default) */
    bool text;          /* the sort key is key_text, else key_int */
    int64_t key_int;
    char key_text[BW_CURSOR_TEXT_MAX + 1];
    char id[BW_CURSOR_ID_MAX + 1];
};

enum bw_cursor_rc {
    BW_CURSOR_OK = 0,
    BW_CURSOR_INVALID = -1,     /* not a cursor of ours: malformed, cut, forged, another key */
    BW_CURSOR_OTHER_QUERY = -2, /* ours, but issued for another list, sort or filters */
};

/* Encodes c for the request whose canonical filter text is filters ("" when none; the caller's
 * choice, as long as the same request gives the same text, e.g. "type=ai_cve&severity=HIGH")
 * into out (cap bytes, at least BW_CURSOR_MAX + 1), NUL-terminated. Returns the length, or -1
 * when a key or id is empty, too long or holds a NUL, or out is too small. */
int bw_cursor_encode(const unsigned char key[BW_CURSOR_KEY_BYTES], const struct bw_cursor *c, const char *filters,
                     char *out, size_t cap);

/* Decodes text (NUL-terminated) for a request of list and sort with filters: BW_CURSOR_OK with
 * *out filled, or an error (out then zeroed). The tag is checked in constant time before anything
 * the cursor says is believed. */
enum bw_cursor_rc bw_cursor_decode(const unsigned char key[BW_CURSOR_KEY_BYTES], const char *text, uint8_t list,
                                   uint8_t sort, const char *filters, struct bw_cursor *out);

#endif
