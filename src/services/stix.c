/* STIX pages out of the intel store (contract in stix.h). Rows are copied out of the statement
 * first and the engines run after it, so no connection is held while playbooks are built. */
#include "services/stix.h"
#include "common/jsonx.h"

#include "engine/intel/hunt.h"
#include "engine/intel/playbook.h"
#include "engine/intel/stix.h"
#include "store/store.h"
#include "store/store_intel.h"

#include <stdio.h>
#include <string.h>

void bw_stix_page_free(struct bw_stix_page *p)
{
    json_decref(p->objects);
    json_decref(p->added);
    memset(p, 0, sizeof *p);
}

static int collect(const char *id, const char *doc, int64_t us, void *arg)
{
    json_t *row = json_pack("[s,s,I]", id, doc, (json_int_t)us);
    return row && json_array_append_new(arg, row) == 0 ? ST_OK : ST_ERROR;
}

/* Up to n rows from (us, id) (id "": after us) as [[id, doc, us], ...]; NULL on failure. */
static json_t *rows(struct db *db, int64_t us, const char *id, long n, bool *more)
{
    json_t *a = json_array();
    if (!a || store_intel_changed(db, us, id[0] ? id : NULL, n, collect, a, more) != ST_OK) {
        json_decref(a);
        return NULL;
    }
    return a;
}

/* The objects of one record of collection c (a new array; NULL when the document is unusable).
 * want_*: build the playbook / hunt content only when objects made from them can be served. */
static json_t *record_objects(const char *doc_text, enum bw_stix_collection c, bool want_coa, bool want_ind)
{
    json_t *doc = json_loads(doc_text, 0, NULL);
    if (!doc)
        return NULL;
    json_t *pb = c == BW_STIX_FEED && want_coa ? bw_playbook_build(doc) : NULL, *hunt = NULL;
    char why[160];
    if (want_ind && bw_hunt_build(doc, &hunt, why, sizeof why) != 0)
        hunt = NULL; /* nothing specific to detect: no indicators */
    json_t *all = json_array();
    if (bw_stix_record(doc, pb, hunt, all) != 0) {
        json_decref(all);
        all = NULL;
    }
    json_decref(pb);
    json_decref(hunt);
    json_decref(doc);
    if (all && c == BW_STIX_HUNT) {
        json_t *ind = json_array();
        size_t i;
        json_t *o;
        json_array_foreach(all, i, o) if (strcmp(bw_json_str(o, "type"), "indicator") == 0) json_array_append(ind, o);
        json_decref(all);
        all = ind;
    }
    return all;
}

static int64_t tables_us(void)
{
    int64_t us = 0;
    bw_taxii_parse_time(BW_STIX_TABLES_TIME, &us);
    return us;
}

void bw_stix_stream_start(const struct bw_taxii_query *q, struct bw_stix_pos *pos)
{
    memset(pos, 0, sizeof *pos);
    if (q->has_added_after && q->added_after_us >= tables_us()) {
        pos->records = true;
        pos->us = q->added_after_us;
    } else {
        pos->us = q->has_added_after ? q->added_after_us : -1;
    }
}

static bool add(struct bw_stix_page *out, const json_t *o, int64_t us)
{
    return json_array_append(out->objects, (json_t *)o) == 0 &&
           json_array_append_new(out->added, json_integer((json_int_t)us)) == 0;
}

/* Adds list[from..n) objects that match q while the page has room (*count < q->limit); returns
 * the index it stopped at (n: all were read), or -1 when memory ran out. */
static long take(struct bw_stix_page *out, const json_t *list, size_t from, size_t n, const struct bw_taxii_query *q,
                 int64_t us, long *count)
{
    size_t i = from;
    for (; i < n; i++) {
        const json_t *o = json_array_get(list, i);
        if (!bw_taxii_match(q, o))
            continue;
        if (*count == q->limit)
            break;
        if (!add(out, o, us))
            return -1;
        (*count)++;
    }
    return (long)i;
}

int bw_stix_stream_page(struct db *db, enum bw_stix_collection c, const struct bw_taxii_query *q,
                        const struct bw_stix_pos *start, struct bw_stix_page *out)
{
    memset(out, 0, sizeof *out);
    out->objects = json_array();
    out->added = json_array();
    if (!out->objects || !out->added) {
        bw_stix_page_free(out);
        return ST_ERROR;
    }
    struct bw_stix_pos pos = *start;
    long count = 0;
    if (!pos.records) {
        const json_t *shared = bw_stix_shared();
        size_t n = c == BW_STIX_FEED ? json_array_size(shared) : 1; /* the hunt pack: the identity */
        int64_t us = tables_us();
        long i = take(out, shared, (size_t)pos.skip, n, q, us, &count);
        if (i < 0) {
            bw_stix_page_free(out);
            return ST_ERROR;
        }
        if ((size_t)i < n) {
            out->more = true;
            out->next = pos;
            out->next.skip = i;
            return ST_OK;
        }
        pos.records = true;
        pos.us = q->has_added_after ? q->added_after_us : -1;
        pos.id[0] = '\0';
        pos.skip = 0;
    }
    bool want_coa = bw_taxii_wants_type(q, "course-of-action") || bw_taxii_wants_type(q, "relationship") ||
                    bw_taxii_wants_type(q, "report");
    bool want_ind = bw_taxii_wants_type(q, "indicator") || bw_taxii_wants_type(q, "relationship") ||
                    bw_taxii_wants_type(q, "report");
    if (c == BW_STIX_HUNT && !bw_taxii_wants_type(q, "indicator"))
        return ST_OK; /* nothing else is in it */
    long scanned = 0;
    while (scanned < BW_TAXII_SCAN_RECORDS) {
        bool more = false;
        long want = BW_TAXII_SCAN_RECORDS - scanned < BW_STIX_BATCH_RECORDS ? BW_TAXII_SCAN_RECORDS - scanned : BW_STIX_BATCH_RECORDS;
        json_t *batch = rows(db, pos.us, pos.id, want, &more);
        if (!batch) {
            bw_stix_page_free(out);
            return ST_ERROR;
        }
        size_t i;
        json_t *row;
        json_array_foreach(batch, i, row) {
            const char *rid = json_string_value(json_array_get(row, 0));
            int64_t us = json_integer_value(json_array_get(row, 2));
            /* the cursor's record itself: skip what was served of it (unless it changed since and
             * moved on, in which case this is another row) */
            long skip = pos.id[0] && pos.us == us && strcmp(pos.id, rid) == 0 ? pos.skip : 0;
            json_t *objs = record_objects(json_string_value(json_array_get(row, 1)), c, want_coa, want_ind);
            size_t n = json_array_size(objs);
            long j = take(out, objs, (size_t)skip, n, q, us, &count);
            if (j < 0) {
                json_decref(objs);
                json_decref(batch);
                bw_stix_page_free(out);
                return ST_ERROR;
            }
            json_decref(objs);
            pos.us = us;
            snprintf(pos.id, sizeof pos.id, "%s", rid);
            pos.skip = j;
            scanned++;
            if ((size_t)j < n || (count == q->limit && (i + 1 < json_array_size(batch) || more))) {
                out->more = true;
                out->next = pos;
                json_decref(batch);
                return ST_OK;
            }
        }
        size_t got = json_array_size(batch);
        json_decref(batch);
        if (!more || got == 0)
            return ST_OK; /* the end of the stream */
        /* the next statement starts at the last record read, which it skips whole */
    }
    out->more = true; /* the scan budget ran out: the client asks again from here */
    out->next = pos;
    return ST_OK;
}

/* Adds the shared object id refers to (an attack pattern) to objs unless seen (ids: an object
 * used as a set). */
static void add_ref(json_t *objs, json_t *seen, const char *id)
{
    if (json_object_get(seen, id))
        return;
    const json_t *o = bw_stix_shared_find(id);
    if (!o)
        return;
    json_object_set_new(seen, id, json_true());
    json_array_append(objs, (json_t *)o);
}

int bw_stix_bundle_page(struct db *db, int64_t after_us, const char *after_id, long limit, json_t **bundle,
                        bool *more, int64_t *last_us, char last_id[BW_INTEL_ID_MAX + 1])
{
    *bundle = NULL;
    *more = false;
    last_id[0] = '\0';
    json_t *batch = json_array();
    /* after a record: from it, inclusive, and drop it (it was the last of the previous page) */
    bool drop_first = after_id != NULL;
    if (!batch ||
        store_intel_changed(db, after_id ? after_us : -1, after_id, limit + (drop_first ? 1 : 0), collect, batch,
                            more) != ST_OK) {
        json_decref(batch);
        return ST_ERROR;
    }
    if (drop_first && json_array_size(batch) > 0) {
        json_t *f = json_array_get(batch, 0);
        if (json_integer_value(json_array_get(f, 2)) == after_us &&
            strcmp(json_string_value(json_array_get(f, 0)), after_id) == 0)
            json_array_remove(batch, 0);
        else if (json_array_size(batch) > (size_t)limit) /* it changed and moved: one row too many */
            json_array_remove(batch, json_array_size(batch) - 1), *more = true;
    }
    json_t *head = json_array(), *body = json_array(), *seen = json_object();
    const json_t *shared = bw_stix_shared();
    json_array_append(head, json_array_get(shared, 0)); /* the identity */
    json_array_append(head, json_array_get(shared, 1)); /* the extension definition */
    size_t i;
    json_t *row;
    json_array_foreach(batch, i, row) {
        json_t *objs = record_objects(json_string_value(json_array_get(row, 1)), BW_STIX_FEED, true, true);
        size_t j;
        json_t *o;
        json_array_foreach(objs, j, o) {
            json_array_append(body, o);
            /* the shared patterns it refers to, so the bundle stands alone */
            add_ref(head, seen, bw_json_str(o, "source_ref"));
            add_ref(head, seen, bw_json_str(o, "target_ref"));
            size_t k;
            json_t *ref;
            json_array_foreach(json_object_get(o, "object_refs"), k, ref) add_ref(head, seen, json_string_value(ref));
        }
        json_decref(objs);
        *last_us = json_integer_value(json_array_get(row, 2));
        snprintf(last_id, BW_INTEL_ID_MAX + 1, "%s", json_string_value(json_array_get(row, 0)));
    }
    json_array_extend(head, body);
    *bundle = bw_stix_bundle(head);
    json_decref(head);
    json_decref(body);
    json_decref(seen);
    json_decref(batch);
    return *bundle ? ST_OK : ST_ERROR;
}
