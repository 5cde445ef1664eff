/* TAXII 2.1 query parameters (contract in taxii.h). */
#include "engine/intel/taxii.h"
#include "common/jsonx.h"

#include "common/timeutil.h"
#include "engine/intel/stix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bw_taxii_query_free(struct bw_taxii_query *q)
{
    free(q->next);
    for (size_t i = 0; i < q->ntypes; i++)
        free(q->types[i]);
    for (size_t i = 0; i < q->nids; i++)
        free(q->ids[i]);
    for (size_t i = 0; i < q->nversions; i++)
        free(q->versions[i]);
    memset(q, 0, sizeof *q);
}

static void err(json_t *errors, const char *field, const char *msg)
{
    if (json_array_size(errors) < BW_MAX_ERRORS)
        json_array_append_new(errors, json_pack("{s:s,s:s}", "field", field, "message", msg));
}

int bw_taxii_parse_time(const char *s, int64_t *us)
{
    size_t n = s ? strlen(s) : 0;
    if (n < 20 || n > 27 || s[n - 1] != 'Z')
        return -1;
    char base[21];
    memcpy(base, s, 19);
    base[19] = 'Z';
    base[20] = '\0';
    int64_t sec;
    if (bw_parse_iso8601(base, &sec) != 0)
        return -1;
    int64_t frac = 0;
    if (n > 20) {
        if (s[19] != '.' || n == 21)
            return -1;
        int digits = 0;
        for (size_t i = 20; i < n - 1; i++, digits++) {
            if (s[i] < '0' || s[i] > '9')
                return -1;
            frac = frac * 10 + (s[i] - '0');
        }
        for (; digits < 6; digits++)
            frac *= 10;
    }
    *us = sec * 1000000 + frac;
    return 0;
}

void bw_taxii_time(int64_t us, char out[32])
{
    if (us < 0)
        us = 0;
    char base[21];
    bw_iso8601(us / 1000000, base);
    snprintf(out, 32, "%.19s.%06ldZ", base, (long)(us % 1000000));
}

static bool type_ok(const char *t)
{
    size_t n = strlen(t);
    if (n < 3 || n > 250 || t[0] < 'a' || t[0] > 'z')
        return false;
    return strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

static bool id_ok(const char *s)
{
    const char *sep = strstr(s, "--");
    if (!sep || (size_t)(sep - s) >= BW_STIX_ID_MAX - 40 || strlen(sep + 2) != 36)
        return false;
    char type[BW_STIX_ID_MAX];
    memcpy(type, s, (size_t)(sep - s));
    type[sep - s] = '\0';
    if (!type_ok(type))
        return false;
    const char *u = sep + 2;
    for (int i = 0; i < 36; i++) {
        char c = u[i];
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    }
    return true;
}

/* Splits a comma-separated list into list[] (copies), checking each entry with ok (NULL: any).
 * false after adding an error. */
static bool split(const char *field, const char *v, char **list, size_t *n, bool (*ok)(const char *), json_t *errors,
                  const char *what)
{
    if (!v || !*v) {
        err(errors, field, "must not be empty");
        return false;
    }
    const char *p = v;
    while (true) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (*n == BW_TAXII_MATCH_MAX) {
            err(errors, field, "has too many values (at most 16)");
            return false;
        }
        if (len == 0 || len > 300) {
            err(errors, field, what);
            return false;
        }
        char *s = strndup(p, len);
        if (!s || (ok && !ok(s))) {
            free(s);
            err(errors, field, what);
            return false;
        }
        list[(*n)++] = s;
        if (!c)
            return true;
        p = c + 1;
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Appends "name=v1,v2;" (values sorted, so the order a client lists them in does not matter). */
static void canon_list(struct bw_taxii_query *q, size_t *len, const char *name, char **list, size_t n)
{
    if (!n)
        return;
    char *sorted[BW_TAXII_MATCH_MAX];
    memcpy(sorted, list, n * sizeof *list);
    qsort(sorted, n, sizeof *sorted, cmp_str);
    *len += (size_t)snprintf(q->canon + *len, *len < sizeof q->canon ? sizeof q->canon - *len : 0, "%s=", name);
    for (size_t i = 0; i < n && *len < sizeof q->canon; i++)
        *len += (size_t)snprintf(q->canon + *len, sizeof q->canon - *len, "%s%s", i ? "," : "", sorted[i]);
    if (*len < sizeof q->canon)
        *len += (size_t)snprintf(q->canon + *len, sizeof q->canon - *len, ";");
}

int bw_taxii_query_parse(const char *const (*pairs)[2], size_t n, struct bw_taxii_query *q, json_t **errors_out)
{
    memset(q, 0, sizeof *q);
    q->limit = BW_TAXII_LIMIT_DEFAULT;
    q->any_version = true;
    q->spec_21 = true;
    json_t *errors = json_array();
    bool versions_given = false, spec_given = false, spec_21 = false;
    for (size_t i = 0; i < n; i++) {
        const char *k = pairs[i][0], *v = pairs[i][1];
        if (!k)
            continue;
        if (strcmp(k, "added_after") == 0) {
            if (bw_taxii_parse_time(v, &q->added_after_us) != 0)
                err(errors, k, "must be an RFC 3339 UTC timestamp such as 2026-01-01T00:00:00.000Z");
            else
                q->has_added_after = true;
        } else if (strcmp(k, "limit") == 0) {
            size_t len = v ? strlen(v) : 0;
            if (len == 0 || strspn(v, "0123456789") != len || strspn(v, "0") == len) {
                err(errors, k, "must be a positive integer");
            } else {
                errno = 0;
                long x = strtol(v, NULL, 10);
                q->limit = errno == ERANGE || x > BW_TAXII_LIMIT_MAX ? BW_TAXII_LIMIT_MAX : x;
            }
        } else if (strcmp(k, "next") == 0) {
            if (!v || !*v || strlen(v) > BW_CURSOR_MAX)
                err(errors, k, "is not a next value this server gave");
            else if (!q->next)
                q->next = strdup(v);
        } else if (strcmp(k, "match[type]") == 0) {
            split(k, v, q->types, &q->ntypes, type_ok, errors, "must list STIX type names");
        } else if (strcmp(k, "match[id]") == 0) {
            split(k, v, q->ids, &q->nids, id_ok, errors, "must list STIX ids (type--uuid)");
        } else if (strcmp(k, "match[version]") == 0) {
            char *vals[BW_TAXII_MATCH_MAX];
            size_t nv = 0;
            versions_given = true;
            if (split(k, v, vals, &nv, NULL, errors, "must list last, first, all or timestamps")) {
                bool any = false;
                for (size_t j = 0; j < nv; j++) {
                    int64_t us;
                    char ms[32];
                    if (strcmp(vals[j], "last") == 0 || strcmp(vals[j], "first") == 0 || strcmp(vals[j], "all") == 0) {
                        any = true;
                    } else if (bw_taxii_parse_time(vals[j], &us) == 0 && q->nversions < BW_TAXII_MATCH_MAX &&
                               bw_stix_time(vals[j], ms)) {
                        q->versions[q->nversions++] = strdup(ms);
                    } else {
                        err(errors, k, "must list last, first, all or timestamps");
                    }
                }
                q->any_version = any;
            }
            for (size_t j = 0; j < nv; j++)
                free(vals[j]);
        } else if (strcmp(k, "match[spec_version]") == 0) {
            char *vals[BW_TAXII_MATCH_MAX];
            size_t nv = 0;
            spec_given = true;
            if (split(k, v, vals, &nv, NULL, errors, "must list 2.0 or 2.1"))
                for (size_t j = 0; j < nv; j++) {
                    if (strcmp(vals[j], "2.1") == 0)
                        spec_21 = true;
                    else if (strcmp(vals[j], "2.0") != 0)
                        err(errors, k, "must list 2.0 or 2.1");
                }
            for (size_t j = 0; j < nv; j++)
                free(vals[j]);
        }
    }
    if (versions_given && !q->any_version && q->nversions == 0)
        q->any_version = false;
    if (!versions_given)
        q->any_version = true;
    q->spec_21 = spec_given ? spec_21 : true;
    if (json_array_size(errors) > 0) {
        bw_taxii_query_free(q);
        if (errors_out)
            *errors_out = errors;
        else
            json_decref(errors);
        return -1;
    }
    json_decref(errors);
    size_t len = 0;
    if (q->has_added_after)
        len += (size_t)snprintf(q->canon, sizeof q->canon, "a=%lld;", (long long)q->added_after_us);
    canon_list(q, &len, "t", q->types, q->ntypes);
    canon_list(q, &len, "i", q->ids, q->nids);
    canon_list(q, &len, "v", q->versions, q->nversions);
    if (len < sizeof q->canon)
        snprintf(q->canon + len, sizeof q->canon - len, "any=%d;s=%d", q->any_version, q->spec_21);
    return 0;
}

static bool in(char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

bool bw_taxii_wants_type(const struct bw_taxii_query *q, const char *type)
{
    if (!q->spec_21)
        return false;
    if (q->ntypes && !in(q->types, q->ntypes, type))
        return false;
    if (q->nids) { /* an id names its type */
        size_t tl = strlen(type);
        for (size_t i = 0; i < q->nids; i++)
            if (strncmp(q->ids[i], type, tl) == 0 && q->ids[i][tl] == '-')
                return true;
        return false;
    }
    return true;
}

bool bw_taxii_match(const struct bw_taxii_query *q, const json_t *o)
{
    if (!bw_taxii_wants_type(q, bw_json_str(o, "type")))
        return false;
    if (q->nids && !in(q->ids, q->nids, bw_json_str(o, "id")))
        return false;
    if (!q->any_version && !in(q->versions, q->nversions, bw_json_str(o, "modified")))
        return false;
    return true;
}

json_t *bw_taxii_error(unsigned status, const char *title, const char *description, const char *error_code,
                       json_t *details)
{
    char st[8];
    snprintf(st, sizeof st, "%u", status);
    json_t *e = json_object();
    json_object_set_new(e, "title", json_string(title ? title : "error"));
    if (description)
        json_object_set_new(e, "description", json_string(description));
    json_object_set_new(e, "http_status", json_string(st));
    if (error_code)
        json_object_set_new(e, "error_code", json_string(error_code));
    if (details)
        json_object_set_new(e, "details", details);
    return e;
}
