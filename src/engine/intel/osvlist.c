/* OSV sources: a zip of advisories or a JSON list (osvlist.h). */
#include "engine/intel/osvlist.h"

#include "common/limits.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zip.h>

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Inflates entry i into *out (malloc'ed, *n bytes): at most BW_INTEL_OSV_MAX_ENTRY, whatever the
 * header claims (a lying size stops at the limit). 0, or -1 with msg. */
static int read_entry(zip_t *z, zip_uint64_t i, const char *name, char **out, size_t *n, char *msg, size_t cap)
{
    zip_file_t *f = zip_fopen_index(z, i, 0);
    if (!f) {
        snprintf(msg, cap, "%s: cannot be read: %s", name, zip_strerror(z));
        return -1;
    }
    size_t have = 0, room = 64 * 1024;
    char *b = malloc(room);
    int rc = b ? 0 : -1;
    if (!b)
        snprintf(msg, cap, "out of memory");
    while (rc == 0) {
        if (have == room) {
            size_t grown = room * 2 > BW_INTEL_OSV_MAX_ENTRY + 1 ? BW_INTEL_OSV_MAX_ENTRY + 1 : room * 2;
            char *nb = grown > room ? realloc(b, grown) : NULL;
            if (!nb) {
                snprintf(msg, cap, "%s: larger than %u bytes", name, BW_INTEL_OSV_MAX_ENTRY);
                rc = -1;
                break;
            }
            b = nb;
            room = grown;
        }
        zip_int64_t got = zip_fread(f, b + have, room - have);
        if (got < 0) { /* libzip checks the CRC at the end: a damaged entry fails here */
            snprintf(msg, cap, "%s: %s", name, zip_file_strerror(f));
            rc = -1;
        } else if (got == 0) {
            break;
        } else {
            have += (size_t)got;
        }
    }
    zip_fclose(f);
    if (rc != 0) {
        free(b);
        return -1;
    }
    *out = b;
    *n = have;
    return 0;
}

static int walk_zip(const char *buf, size_t len, bw_osv_doc_fn fn, void *arg, char *msg, size_t cap)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(buf, len, 0, &ze);
    zip_t *z = src ? zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze) : NULL;
    if (!z) {
        snprintf(msg, cap, "not a readable zip: %s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        if (src)
            zip_source_free(src);
        return -1;
    }
    zip_error_fini(&ze);
    zip_int64_t n = zip_get_num_entries(z, 0);
    int rc = 0;
    if (n > BW_INTEL_OSV_MAX_ENTRIES) {
        snprintf(msg, cap, "more than %d entries", BW_INTEL_OSV_MAX_ENTRIES);
        rc = -1;
    }
    uint64_t total = 0;
    for (zip_int64_t i = 0; rc == 0 && i < n; i++) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(z, (zip_uint64_t)i, 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME)) {
            snprintf(msg, cap, "entry %lld: %s", (long long)i, zip_strerror(z));
            rc = -1;
            break;
        }
        if (!ends_with(st.name, ".json")) /* directories, a README */
            continue;
        if ((st.valid & ZIP_STAT_SIZE) && st.size > BW_INTEL_OSV_MAX_ENTRY) {
            snprintf(msg, cap, "%.200s: larger than %u bytes", st.name, BW_INTEL_OSV_MAX_ENTRY);
            rc = -1;
            break;
        }
        char *doc = NULL;
        size_t dn = 0;
        if (read_entry(z, (zip_uint64_t)i, st.name, &doc, &dn, msg, cap) != 0) {
            rc = -1;
            break;
        }
        total += dn;
        if (total > BW_INTEL_OSV_MAX_TOTAL) {
            snprintf(msg, cap, "the advisories inflate to more than %u bytes", BW_INTEL_OSV_MAX_TOTAL);
            rc = -1;
        } else {
            rc = fn(st.name, doc, dn, arg);
        }
        free(doc);
    }
    zip_discard(z); /* read-only: nothing to write back; frees the source too */
    return rc;
}

/* A JSON list (or one advisory): each element re-serialised for fn, so every advisory reaches the
 * normaliser the same way as a zip entry. */
static int walk_json(const char *buf, size_t len, bw_osv_doc_fn fn, void *arg, char *msg, size_t cap)
{
    json_error_t je;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        snprintf(msg, cap, "line %d, column %d: %s", je.line, je.column, je.text);
        return -1;
    }
    int rc = 0;
    if (json_is_object(root)) {
        rc = fn("[0]", buf, len, arg);
    } else if (!json_is_array(root)) {
        snprintf(msg, cap, "expected an OSV advisory or an array of them");
        rc = -1;
    } else if (json_array_size(root) > BW_INTEL_OSV_MAX_ENTRIES) {
        snprintf(msg, cap, "more than %d advisories", BW_INTEL_OSV_MAX_ENTRIES);
        rc = -1;
    } else {
        size_t i;
        json_t *a;
        json_array_foreach(root, i, a) {
            char name[32];
            snprintf(name, sizeof name, "[%zu]", i);
            if (!json_is_object(a)) {
                snprintf(msg, cap, "%s: expected an OSV advisory (an object)", name);
                rc = -1;
                break;
            }
            char *doc = json_dumps(a, JSON_COMPACT);
            if (!doc) {
                snprintf(msg, cap, "out of memory");
                rc = -1;
                break;
            }
            rc = fn(name, doc, strlen(doc), arg);
            free(doc);
            if (rc != 0)
                break;
        }
    }
    json_decref(root);
    return rc;
}

int bw_osv_list(const char *buf, size_t len, bw_osv_doc_fn fn, void *arg, char *msg, size_t cap)
{
    msg[0] = '\0';
    /* a local file header, or the end record of an empty archive */
    if (len >= 4 && buf[0] == 'P' && buf[1] == 'K' && ((buf[2] == 3 && buf[3] == 4) || (buf[2] == 5 && buf[3] == 6)))
        return walk_zip(buf, len, fn, arg, msg, cap);
    return walk_json(buf, len, fn, arg, msg, cap);
}

/* The filter's entries one by one: [Ecosystem:]name, trimmed; false at the end. */
struct entry {
    char eco[BW_INTEL_OSV_PACKAGE_MAX + 1], name[BW_INTEL_OSV_PACKAGE_MAX + 1];
};

static const char *next_entry(const char *p, struct entry *e, bool *ok)
{
    *ok = true;
    while (*p == ' ' || *p == ',')
        p++;
    if (!*p)
        return NULL;
    const char *end = p;
    while (*end && *end != ',')
        end++;
    const char *last = end;
    while (last > p && last[-1] == ' ')
        last--;
    size_t n = (size_t)(last - p);
    const char *colon = memchr(p, ':', n);
    e->eco[0] = e->name[0] = '\0';
    if (n > BW_INTEL_OSV_PACKAGE_MAX || (colon && (colon == p || colon + 1 == last))) {
        *ok = false;
        return end;
    }
    for (const char *c = p; c < last; c++)
        if (iscntrl((unsigned char)*c) || *c == ' ')
            *ok = false;
    if (colon) {
        snprintf(e->eco, sizeof e->eco, "%.*s", (int)(colon - p), p);
        snprintf(e->name, sizeof e->name, "%.*s", (int)(last - colon - 1), colon + 1);
    } else {
        snprintf(e->name, sizeof e->name, "%.*s", (int)n, p);
    }
    return end;
}

bool bw_osv_filter_valid(const char *filter)
{
    struct entry e;
    bool ok = true;
    int n = 0;
    for (const char *p = filter; p && (p = next_entry(p, &e, &ok)) && ok;)
        if (++n > BW_INTEL_OSV_PACKAGES_MAX)
            return false;
    return ok;
}

bool bw_osv_wanted(const json_t *advisory, const char *filter)
{
    if (!filter || !filter[strspn(filter, " ,")])
        return true;
    const json_t *affected = json_object_get(advisory, "affected");
    size_t i;
    const json_t *a;
    json_array_foreach(affected, i, a) {
        const json_t *pkg = json_object_get(a, "package");
        const char *eco = json_string_value(json_object_get(pkg, "ecosystem"));
        const char *name = json_string_value(json_object_get(pkg, "name"));
        if (!name)
            continue;
        struct entry e;
        bool ok = true;
        for (const char *p = filter; (p = next_entry(p, &e, &ok));)
            if (ok && strcasecmp(e.name, name) == 0 && (!e.eco[0] || (eco && strcasecmp(e.eco, eco) == 0)))
                return true;
    }
    return false;
}
