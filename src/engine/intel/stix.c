/* STIX 2.1 objects of the intel store (contract in stix.h). Objects are built member by member in
 * a fixed order and dumped with JSON_PRESERVE_ORDER by callers, so the same inputs give the same
 * bytes. Text copied from records is bounded (BW_STIX_MAX_*). */
#include "engine/intel/stix.h"
#include "common/jsonx.h"

#include "common/limits.h"
#include "common/utf8.h"
#include "engine/intel/attack.h"
#include "engine/intel/ids.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- SHA-1 (FIPS 180-4), only for version-5 UUIDs: not used for anything secret ---------------- */

struct sha1 {
    uint32_t h[5];
    uint64_t len;
    unsigned char buf[64];
    size_t n;
};

static uint32_t rol(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

static void sha1_block(struct sha1 *s, const unsigned char *p)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20)
            f = (b & c) | (~b & d), k = 0x5A827999u;
        else if (i < 40)
            f = b ^ c ^ d, k = 0x6ED9EBA1u;
        else if (i < 60)
            f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDCu;
        else
            f = b ^ c ^ d, k = 0xCA62C1D6u;
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d, d = c, c = rol(b, 30), b = a, a = t;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d, s->h[4] += e;
}

static void sha1_init(struct sha1 *s)
{
    static const uint32_t h0[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
    memcpy(s->h, h0, sizeof h0);
    s->len = 0;
    s->n = 0;
}

static void sha1_update(struct sha1 *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    s->len += len;
    while (len > 0) {
        size_t k = 64 - s->n < len ? 64 - s->n : len;
        memcpy(s->buf + s->n, p, k);
        s->n += k, p += k, len -= k;
        if (s->n == 64) {
            sha1_block(s, s->buf);
            s->n = 0;
        }
    }
}

static void sha1_final(struct sha1 *s, unsigned char out[20])
{
    uint64_t bits = s->len * 8;
    unsigned char pad = 0x80, zero = 0, lenb[8];
    sha1_update(s, &pad, 1);
    while (s->n != 56)
        sha1_update(s, &zero, 1);
    for (int i = 0; i < 8; i++)
        lenb[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha1_update(s, lenb, 8);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (unsigned char)(s->h[i] >> (24 - 8 * j));
}

/* ---- ids ------------------------------------------------------------------------------------- */

static void uuid_text(const unsigned char d[16], char out[37])
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[o++] = '-';
        out[o++] = hex[d[i] >> 4];
        out[o++] = hex[d[i] & 15];
    }
    out[o] = '\0';
}

static void uuid5_final(struct sha1 *s, char out[37])
{
    unsigned char h[20];
    sha1_final(s, h);
    h[6] = (unsigned char)((h[6] & 0x0F) | 0x50); /* version 5 */
    h[8] = (unsigned char)((h[8] & 0x3F) | 0x80); /* RFC 9562 variant */
    uuid_text(h, out);
}

void bw_stix_uuid5(const unsigned char ns[16], const char *name, size_t len, char out[37])
{
    struct sha1 s;
    sha1_init(&s);
    sha1_update(&s, ns, 16);
    sha1_update(&s, name, len);
    uuid5_final(&s, out);
}

static unsigned char g_ns[16];
static pthread_once_t g_ns_once = PTHREAD_ONCE_INIT;

static void ns_parse(void)
{
    const char *t = BW_STIX_NAMESPACE;
    size_t k = 0;
    for (size_t i = 0; t[i] && k < 32; i++) {
        char c = t[i];
        if (c == '-')
            continue;
        int v = c <= '9' ? c - '0' : c - 'a' + 10;
        g_ns[k / 2] = (unsigned char)(k % 2 ? g_ns[k / 2] | v : v << 4);
        k++;
    }
}

void bw_stix_uuid(const char *name, char out[37])
{
    pthread_once(&g_ns_once, ns_parse);
    bw_stix_uuid5(g_ns, name, strlen(name), out);
}

void bw_stix_id(const char *type, const char *name, char out[BW_STIX_ID_MAX])
{
    pthread_once(&g_ns_once, ns_parse);
    struct sha1 s;
    sha1_init(&s);
    sha1_update(&s, g_ns, 16);
    sha1_update(&s, type, strlen(type));
    sha1_update(&s, "/", 1);
    sha1_update(&s, name, strlen(name));
    char u[37];
    uuid5_final(&s, u);
    snprintf(out, BW_STIX_ID_MAX, "%s--%s", type, u);
}

static char g_identity[BW_STIX_ID_MAX], g_extension[BW_STIX_ID_MAX];
static pthread_once_t g_ids_once = PTHREAD_ONCE_INIT;
static void ids_init(void)
{
    bw_stix_id("identity", "bulwark", g_identity);
    bw_stix_id("extension-definition", "bulwark-intel-properties", g_extension);
}
const char *bw_stix_identity_id(void)
{
    pthread_once(&g_ids_once, ids_init);
    return g_identity;
}
const char *bw_stix_extension_id(void)
{
    pthread_once(&g_ids_once, ids_init);
    return g_extension;
}

bool bw_stix_time(const char *ts, char out[32])
{
    size_t n = ts ? strlen(ts) : 0;
    /* YYYY-MM-DDTHH:MM:SS then Z or a fraction and Z */
    if (n < 20 || n > 30 || ts[4] != '-' || ts[7] != '-' || ts[10] != 'T' || ts[13] != ':' || ts[16] != ':' ||
        ts[n - 1] != 'Z')
        return false;
    for (size_t i = 0; i < 19; i++)
        if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16 && (ts[i] < '0' || ts[i] > '9'))
            return false;
    if (n == 20) {
        memcpy(out, ts, 19);
        memcpy(out + 19, ".000Z", 6);
        return true;
    }
    if (ts[19] != '.')
        return false;
    for (size_t i = 20; i < n - 1; i++)
        if (ts[i] < '0' || ts[i] > '9')
            return false;
    memcpy(out, ts, n + 1);
    return n > 21;
}

/* ---- building blocks ------------------------------------------------------------------------- */

/* A new SDO/SRO head: type, spec_version, id, created_by_ref (unless it is the identity), created,
 * modified. */
static json_t *head(const char *type, const char *id, const char *created, const char *modified)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(type));
    json_object_set_new(o, "spec_version", json_string("2.1"));
    json_object_set_new(o, "id", json_string(id));
    if (strcmp(type, "identity") != 0)
        json_object_set_new(o, "created_by_ref", json_string(bw_stix_identity_id()));
    json_object_set_new(o, "created", json_string(created));
    json_object_set_new(o, "modified", json_string(modified));
    return o;
}

/* A string member clipped to max bytes on a UTF-8 boundary; nothing when s is empty. The text is
 * valid UTF-8 (jansson's strings, or built from them) except perhaps a sequence cut at its end by
 * a bounded snprintf: that is dropped too. */
static void set_text(json_t *o, const char *k, const char *s, size_t max)
{
    if (!s || !*s)
        return;
    size_t n = strlen(s);
    if (n > max)
        n = max;
    for (int tries = 0; tries < 4 && n > 0 && !bw_utf8_valid(s, n); tries++)
        n--;
    if (n > 0)
        json_object_set_new(o, k, json_stringn(s, n));
}

static json_t *ext_ref(const char *source, const char *external_id, const char *url)
{
    json_t *r = json_object();
    json_object_set_new(r, "source_name", json_string(source));
    if (url && *url)
        json_object_set_new(r, "url", json_string(url));
    if (external_id && *external_id)
        json_object_set_new(r, "external_id", json_string(external_id));
    return r;
}

static json_t *attack_pattern(const char *tid, const char *name, const char *url, bool atlas, const char *created,
                              const char *modified)
{
    char id[BW_STIX_ID_MAX];
    bw_stix_id("attack-pattern", tid, id);
    json_t *o = head("attack-pattern", id, created, modified);
    set_text(o, "name", name && *name ? name : tid, BW_STIX_MAX_NAME);
    json_object_set_new(o, "external_references",
                        json_pack("[o]", ext_ref(atlas ? "mitre-atlas" : "mitre-attack", tid, url)));
    return o;
}

/* ---- shared objects -------------------------------------------------------------------------- */

static json_t *g_shared, *g_shared_by_id;
static pthread_once_t g_shared_once = PTHREAD_ONCE_INIT;

static void shared_build(void)
{
    const char *t = BW_STIX_TABLES_TIME;
    json_t *a = json_array();
    json_t *idn = head("identity", bw_stix_identity_id(), t, t);
    json_object_set_new(idn, "name", json_string("bulwark"));
    json_object_set_new(idn, "description",
                        json_string("Self-hosted AI-security and security-intelligence server; the producer of "
                                    "these objects (from CISA KEV, OSV, MITRE ATLAS and ATT&CK data)."));
    json_object_set_new(idn, "identity_class", json_string("system"));
    json_array_append_new(a, idn);

    json_t *ext = head("extension-definition", bw_stix_extension_id(), t, t);
    json_object_set_new(ext, "name", json_string("bulwark intel properties"));
    json_object_set_new(
        ext, "description",
        json_string("Facts bulwark keeps on a vulnerability: kev (in CISA's Known Exploited Vulnerabilities "
                    "catalog), kev_date_added, kev_due_date, kev_required_action, kev_ransomware_use, epss "
                    "({score, percentile, date} from FIRST's EPSS, when known), cvss_version, cvss_vector, "
                    "cvss_base_score, severity (CRITICAL, HIGH, MEDIUM, LOW), risk_score (0-100, bulwark's "
                    "composite score), risk_tier, record_type (ai_cve, model_advisory, prompt_attack, "
                    "agent_threat), exploit_available."));
    json_object_set_new(ext, "schema",
                        json_string("Property extension; members as described above. Documented in bulwark's "
                                    "OpenAPI document (GET /api/openapi.json), STIX bundle section."));
    json_object_set_new(ext, "version", json_string("1.0.0"));
    json_object_set_new(ext, "extension_types", json_pack("[s]", "property-extension"));
    json_array_append_new(a, ext);

    for (size_t i = 0; i < bw_atlas_technique_count(); i++) {
        const struct bw_atlas_technique *x = bw_atlas_technique_at(i);
        json_array_append_new(a, attack_pattern(x->id, x->name, x->url, true, t, t));
    }
    for (size_t i = 0; i < bw_attack_technique_count(); i++) {
        const struct bw_attack_technique *x = bw_attack_technique_at(i);
        json_array_append_new(a, attack_pattern(x->id, x->name, x->url, false, t, t));
    }
    g_shared = a;
    g_shared_by_id = json_object();
    size_t i;
    json_t *o;
    json_array_foreach(a, i, o) json_object_set(g_shared_by_id, bw_json_str(o, "id"), o);
}

const json_t *bw_stix_shared(void)
{
    pthread_once(&g_shared_once, shared_build);
    return g_shared;
}

const json_t *bw_stix_shared_find(const char *id)
{
    pthread_once(&g_shared_once, shared_build);
    return json_object_get(g_shared_by_id, id);
}

/* ---- one record ------------------------------------------------------------------------------ */

static void relationship(json_t *out, const char *src, const char *type, const char *dst, const char *created,
                         const char *modified)
{
    char name[3 * BW_STIX_ID_MAX], id[BW_STIX_ID_MAX];
    snprintf(name, sizeof name, "%s/%s/%s", src, type, dst);
    bw_stix_id("relationship", name, id);
    json_t *r = head("relationship", id, created, modified);
    json_object_set_new(r, "relationship_type", json_string(type));
    json_object_set_new(r, "source_ref", json_string(src));
    json_object_set_new(r, "target_ref", json_string(dst));
    json_array_append_new(out, r);
}

/* The attack-pattern ids of the record's techniques that the tables know (sub-techniques the
 * tables lack resolve to their parent), de-duplicated, at most BW_STIX_MAX_TECHNIQUES. */
static size_t techniques(const json_t *rec, char ids[][BW_STIX_ID_MAX])
{
    size_t n = 0, i;
    json_t *v;
    for (int pass = 0; pass < 2; pass++) {
        json_array_foreach(json_object_get(rec, pass ? "attack_techniques" : "atlas_techniques"), i, v) {
            if (n == BW_STIX_MAX_TECHNIQUES)
                return n;
            const char *t = json_string_value(v), *tid = NULL;
            if (!t)
                continue;
            if (pass == 0) {
                const struct bw_atlas_technique *x = bw_atlas_technique_resolve(t);
                tid = x ? x->id : NULL;
            } else {
                const struct bw_attack_technique *x = bw_attack_technique_resolve(t);
                tid = x ? x->id : NULL;
            }
            if (!tid)
                continue;
            char id[BW_STIX_ID_MAX];
            bw_stix_id("attack-pattern", tid, id);
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = strcmp(ids[k], id) == 0;
            if (!seen)
                memcpy(ids[n++], id, BW_STIX_ID_MAX);
        }
    }
    return n;
}

/* The property extension of a vulnerability. */
static json_t *extension(const json_t *rec)
{
    json_t *e = json_object();
    json_object_set_new(e, "extension_type", json_string("property-extension"));
    json_object_set_new(e, "kev", json_boolean(json_is_true(json_object_get(rec, "kev"))));
    const json_t *kd = json_object_get(rec, "kev_details");
    static const char *const kev_keys[][2] = {{"date_added", "kev_date_added"},
                                              {"due_date", "kev_due_date"},
                                              {"required_action", "kev_required_action"},
                                              {"ransomware_use", "kev_ransomware_use"}};
    for (size_t i = 0; json_is_object(kd) && i < sizeof kev_keys / sizeof kev_keys[0]; i++)
        set_text(e, kev_keys[i][1], bw_json_str(kd, kev_keys[i][0]), BW_STIX_MAX_TEXT);
    /* EPSS, when the record carries one ({score, percentile, date}); absent otherwise */
    const json_t *epss = json_object_get(rec, "epss");
    if (json_is_object(epss) && json_is_number(json_object_get(epss, "score"))) {
        json_t *x = json_object();
        json_object_set_new(x, "score", json_real(json_number_value(json_object_get(epss, "score"))));
        if (json_is_number(json_object_get(epss, "percentile")))
            json_object_set_new(x, "percentile", json_real(json_number_value(json_object_get(epss, "percentile"))));
        set_text(x, "date", bw_json_str(epss, "date"), 32);
        json_object_set_new(e, "epss", x);
    }
    const json_t *cvss = json_object_get(rec, "cvss");
    if (json_is_object(cvss)) {
        set_text(e, "cvss_version", bw_json_str(cvss, "version"), 16);
        set_text(e, "cvss_vector", bw_json_str(cvss, "vector"), 256);
        if (json_is_number(json_object_get(cvss, "base_score")))
            json_object_set_new(e, "cvss_base_score",
                                json_real(json_number_value(json_object_get(cvss, "base_score"))));
    }
    set_text(e, "severity", bw_json_str(rec, "severity"), 16);
    if (json_is_integer(json_object_get(rec, "risk_score")))
        json_object_set(e, "risk_score", json_object_get(rec, "risk_score"));
    set_text(e, "risk_tier", bw_json_str(rec, "risk_tier"), 16);
    set_text(e, "record_type", bw_json_str(rec, "type"), 32);
    json_object_set_new(e, "exploit_available", json_boolean(json_is_true(json_object_get(rec, "exploit_available"))));
    return e;
}

static json_t *vulnerability(const json_t *rec, const char *rid, const char *id, const char *created,
                             const char *modified)
{
    json_t *o = head("vulnerability", id, created, modified);
    set_text(o, "name", rid, BW_STIX_MAX_NAME);
    char desc[BW_STIX_MAX_TEXT + 1];
    snprintf(desc, sizeof desc, "%s. %s", bw_json_str(rec, "title"), bw_json_str(rec, "summary"));
    set_text(o, "description", desc, BW_STIX_MAX_TEXT);
    json_t *refs = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(rec, "cve"), i, v) {
        if (json_array_size(refs) < BW_STIX_MAX_REFS && json_is_string(v) && bw_cve_valid(json_string_value(v)))
            json_array_append_new(refs, ext_ref("cve", json_string_value(v), NULL));
    }
    if (!bw_cve_valid(rid)) /* an advisory filed under its own id */
        json_array_append_new(refs, ext_ref("bulwark", rid, NULL));
    json_array_foreach(json_object_get(rec, "aliases"), i, v) {
        const char *a = json_string_value(v);
        if (json_array_size(refs) < BW_STIX_MAX_REFS && a && *a && !bw_cve_valid(a))
            json_array_append_new(refs, ext_ref(strncmp(a, "GHSA-", 5) == 0 ? "ghsa" : "osv", a, NULL));
    }
    json_array_foreach(json_object_get(rec, "references"), i, v) {
        const char *u = bw_json_str(v, "url"), *k = bw_json_str(v, "kind");
        if (json_array_size(refs) < BW_STIX_MAX_REFS && *u && strlen(u) <= BW_STIX_MAX_URL)
            json_array_append_new(refs, ext_ref(*k ? k : "web", NULL, u));
    }
    if (json_array_size(refs) > 0)
        json_object_set_new(o, "external_references", refs);
    else
        json_decref(refs);
    json_t *ext = json_object();
    json_object_set_new(ext, bw_stix_extension_id(), extension(rec));
    json_object_set_new(o, "extensions", ext);
    return o;
}

static json_t *course_of_action(const json_t *pb, const char *rid, const char *title, const char *created,
                                const char *modified, char id[BW_STIX_ID_MAX])
{
    bw_stix_id("course-of-action", rid, id);
    json_t *o = head("course-of-action", id, created, modified);
    char name[BW_STIX_MAX_NAME + 1];
    snprintf(name, sizeof name, "Mitigation and response: %s", title);
    set_text(o, "name", name, BW_STIX_MAX_NAME);
    /* the advisory, then the immediate actions as a list */
    size_t cap = BW_STIX_MAX_TEXT + 1, len = 0;
    char *d = malloc(cap);
    if (d) {
        len = (size_t)snprintf(d, cap, "%s", bw_json_str(pb, "executive_advisory"));
        size_t i;
        json_t *a;
        json_array_foreach(json_object_get(pb, "immediate_actions"), i, a) {
            if (len >= cap - 1 || !json_is_string(a))
                break;
            len += (size_t)snprintf(d + len, cap - len, "%s- %s", len ? "\n" : "", json_string_value(a));
        }
        if (len >= cap)
            len = cap - 1;
        d[len] = '\0';
        set_text(o, "description", d, BW_STIX_MAX_TEXT);
        free(d);
    }
    char path[BW_INTEL_ID_MAX + 64];
    snprintf(path, sizeof path, "GET /api/threat-intel/%.64s/playbook", rid);
    /* no external_id: a CVE id under another source_name than "cve" is invalid STIX */
    json_t *ref = ext_ref("bulwark", NULL, NULL);
    json_object_set_new(ref, "description", json_string(path));
    json_object_set_new(o, "external_references", json_pack("[o]", ref));
    return o;
}

static json_t *indicator(const char *kind, const char *rid, const char *title, const char *pattern,
                         const char *created, const char *modified, char id[BW_STIX_ID_MAX])
{
    char name[BW_INTEL_ID_MAX + 16];
    snprintf(name, sizeof name, "%s/%.64s", kind, rid);
    bw_stix_id("indicator", name, id);
    json_t *o = head("indicator", id, created, modified);
    char label[BW_STIX_MAX_NAME + 1];
    snprintf(label, sizeof label, "%s rule: %s", strcmp(kind, "sigma") == 0 ? "Sigma" : "YARA", title);
    set_text(o, "name", label, BW_STIX_MAX_NAME);
    json_object_set_new(o, "indicator_types", json_pack("[s]", "malicious-activity"));
    json_object_set_new(o, "pattern", json_string(pattern));
    json_object_set_new(o, "pattern_type", json_string(kind));
    json_object_set_new(o, "valid_from", json_string(created));
    return o;
}

int bw_stix_record(const json_t *rec, const json_t *pb, const json_t *hunt, json_t *out)
{
    const char *rid = json_string_value(json_object_get(rec, "id"));
    if (!rid || !*rid || !json_is_array(out))
        return -1;
    char created[32], modified[32];
    if (!bw_stix_time(bw_json_str(rec, "published"), created))
        snprintf(created, sizeof created, "%s", BW_STIX_TABLES_TIME);
    if (!bw_stix_time(bw_json_str(rec, "enriched_at"), modified) || strcmp(modified, created) < 0)
        memcpy(modified, created, sizeof modified);
    /* a record whose EPSS score changed after its facts says when (changed_at): the objects carry
     * that score, so that is their version too */
    char changed[32];
    if (bw_stix_time(bw_json_str(rec, "changed_at"), changed) && strcmp(changed, modified) > 0)
        memcpy(modified, changed, sizeof modified);
    const char *title = bw_json_str(rec, "title");
    if (!*title)
        title = rid;

    char (*tech)[BW_STIX_ID_MAX] = malloc(BW_STIX_MAX_TECHNIQUES * sizeof *tech);
    if (!tech)
        return -1;
    size_t nt = techniques(rec, tech);

    /* the subject */
    enum { VULN, REPORT, PATTERN } kind = VULN;
    char subject[BW_STIX_ID_MAX];
    json_t *report = NULL;
    if (bw_atlas_id_valid(rid)) {
        kind = PATTERN;
        const struct bw_atlas_technique *x = bw_atlas_technique_find(rid);
        bw_stix_id("attack-pattern", rid, subject);
        if (!x) /* not in the tables: this record is its only source */
            json_array_append_new(out, attack_pattern(rid, title, NULL, true, created, modified));
    } else if (strncmp(rid, "AML.CS", 6) == 0) {
        kind = REPORT;
        bw_stix_id("report", rid, subject);
        report = head("report", subject, created, modified);
        set_text(report, "name", title, BW_STIX_MAX_NAME);
        set_text(report, "description", bw_json_str(rec, "summary"), BW_STIX_MAX_TEXT);
        json_object_set_new(report, "report_types", json_pack("[s]", "attack-pattern"));
        json_object_set_new(report, "published", json_string(created));
        json_object_set_new(report, "external_references",
                            json_pack("[o]", ext_ref("mitre-atlas", rid, bw_json_str(json_array_get(json_object_get(rec, "references"), 0), "url"))));
    } else {
        bw_stix_id("vulnerability", rid, subject);
        json_array_append_new(out, vulnerability(rec, rid, subject, created, modified));
    }

    char coa[BW_STIX_ID_MAX] = "", sigma[BW_STIX_ID_MAX] = "", yara[BW_STIX_ID_MAX] = "";
    if (json_is_object(pb))
        json_array_append_new(out, course_of_action(pb, rid, title, created, modified, coa));
    const char *sy = bw_json_str(hunt, "sigma_yaml"), *yr = bw_json_str(hunt, "yara");
    if (*sy)
        json_array_append_new(out, indicator("sigma", rid, title, sy, created, modified, sigma));
    if (*yr)
        json_array_append_new(out, indicator("yara", rid, title, yr, created, modified, yara));

    if (report) { /* its object_refs: the techniques and this record's other objects */
        json_t *refs = json_array();
        for (size_t i = 0; i < nt; i++)
            json_array_append_new(refs, json_string(tech[i]));
        const char *own[] = {coa, sigma, yara};
        for (size_t i = 0; i < 3; i++)
            if (own[i][0])
                json_array_append_new(refs, json_string(own[i]));
        if (json_array_size(refs) == 0) /* object_refs needs one: the producer */
            json_array_append_new(refs, json_string(bw_stix_identity_id()));
        json_object_set_new(report, "object_refs", refs);
        json_array_insert_new(out, json_array_size(out) - (size_t)(coa[0] != 0) - (size_t)(sigma[0] != 0) -
                                       (size_t)(yara[0] != 0),
                              report);
    }

    if (coa[0] && kind != REPORT)
        relationship(out, coa, "mitigates", subject, created, modified);
    if (kind == VULN)
        for (size_t i = 0; i < nt; i++)
            relationship(out, tech[i], "targets", subject, created, modified);
    const char *inds[] = {sigma, yara};
    for (size_t i = 0; i < 2; i++)
        if (inds[i][0] && kind != REPORT)
            relationship(out, inds[i], kind == PATTERN ? "indicates" : "related-to", subject, created, modified);
    free(tech);
    return 0;
}

json_t *bw_stix_bundle(const json_t *objects)
{
    pthread_once(&g_ns_once, ns_parse);
    struct sha1 s;
    sha1_init(&s);
    sha1_update(&s, g_ns, 16);
    sha1_update(&s, "bundle", 6);
    size_t i;
    json_t *o;
    json_array_foreach(objects, i, o) {
        const char *id = bw_json_str(o, "id"), *m = bw_json_str(o, "modified");
        sha1_update(&s, "/", 1);
        sha1_update(&s, id, strlen(id));
        sha1_update(&s, "@", 1);
        sha1_update(&s, m, strlen(m));
    }
    char u[37], id[BW_STIX_ID_MAX];
    uuid5_final(&s, u);
    snprintf(id, sizeof id, "bundle--%s", u);
    return json_pack("{s:s,s:s,s:O}", "type", "bundle", "id", id, "objects", objects);
}
