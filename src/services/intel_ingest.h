/* Putting normalised records (src/engine/intel/sources.h) into the store: the one write path of
 * `bulwark intel import`, `bulwark intel seed-build` and the first-start seed.
 *
 * Upsert rules: a record whose facts equal the stored ones is unchanged (version, enriched_at and
 * risk stay as they are, so re-importing the same data changes nothing); changed facts give
 * version + 1, enriched_at = the import time and a risk score computed at that time; a new record
 * starts at version 1. A whole import is one transaction: it lands completely or not at all. */
#ifndef BW_SERVICES_INTEL_INGEST_H
#define BW_SERVICES_INTEL_INGEST_H
#include "store/db.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#define BW_SEED_FILE "data/intel/seed.json"

/* Every record given to bw_ingest is counted once: added + updated + unchanged + skipped +
 * merged = the number of records. merged: records folded into another record of the same id in
 * the same import (an advisory in two files, KEV and OSV about one CVE). */
struct bw_ingest_report {
    long added, updated, unchanged, skipped, merged;
};

/* The sources a file or a sync brings, in the CLI's --format numbering. */
enum bw_intel_format { BW_INTEL_KEV = 0, BW_INTEL_OSV = 1, BW_INTEL_ATLAS = 2 };
struct bw_intel_reject;
/* Parses one source document (JSON when json, else YAML) and normalises it; its records are
 * appended to out. 0, or -1 with rej's position and message (rej->file is the caller's). */
int bw_intel_parse_source(enum bw_intel_format fmt, const char *buf, size_t len, bool json, json_t *out,
                          struct bw_intel_reject *rej);

/* Folds rec (borrowed) into index (object: id -> record): a new id is added; a second record of
 * the same id from the same source is combined with the first (bw_intel_combine), one from
 * another source merged into it (bw_intel_merge). 0, or -1 when out of memory. */
int bw_intel_fold(json_t *index, const json_t *rec);

/* Upserts records (an array from one import) in one transaction, at time now_us. With
 * kev_filter, KEV records that bw_intel_kev_is_ai refuses are skipped unless their id is already
 * a record. After the commit, the KEV entries new to the store (new records, or stored records KEV
 * now lists) go to bw_webhooks_kev_matches (intel.kev_match events). 0, or -1 when the database
 * failed (nothing written). */
int bw_ingest(struct db *db, const json_t *records, bool kev_filter, int64_t now_us, struct bw_ingest_report *rep);

/* An EPSS import: every score of the file (src/engine/intel/epss.h) counted once as updated (a
 * stored record took it: its epss, history, changed_at and risk changed), unchanged (the record
 * already held this score for this date, or the date is older than its full history) or unknown
 * (no record has this CVE id).
 *
 * Scores of unknown CVEs are skipped, counted, not kept: the store holds AI threats, and FIRST
 * scores every CVE (~300,000), so keeping them would make the feed a copy of the CVE list. A
 * record that arrives later (an OSV advisory, a KEV entry) takes its score from the next EPSS
 * import, which the daily sync makes at most a day away. */
struct bw_epss_report {
    long updated, unchanged, unknown;
};
struct bw_epss_file;
/* Applies the file's scores to the stored records with those CVE ids, in one transaction (all
 * or nothing) at time now_us; a record's version and enriched_at do not move. 0, or -1 when the
 * database failed (nothing written). */
int bw_ingest_epss(struct db *db, const struct bw_epss_file *f, int64_t now_us, struct bw_epss_report *rep);

/* The EPSS CSV as it comes (plain, or gzip: told apart by its magic bytes, decompressed up to
 * BW_INTEL_EPSS_MAX_BYTES) parsed into *out (bw_epss_free it). 0, or -1 with *rej's message and
 * position set (a truncated or corrupt gzip is refused here, before anything is stored). */
struct bw_intel_reject;
int bw_intel_epss_load(const char *buf, size_t len, struct bw_epss_file *out, struct bw_intel_reject *rej);

/* On first start: when the intel store has no record, loads the embedded seed (BW_SEED_FILE) in
 * one transaction; a store with records is left alone (*loaded = 0), so a database is seeded
 * once, also when several instances start together. 0, or -1 with why. */
int bw_intel_seed_load(struct db *db, long *loaded, char *why, size_t cap);

/* The seed document of folded records: {"generated_at", "records":[...]}, every record at
 * version 1 with enriched_at = at_s and its risk computed then, sorted by id. */
json_t *bw_intel_seed_doc(const json_t *index, int64_t at_s);

#endif
