/* The orchestrator's pipeline (see orch.h for what it reads, the score and the scope). */
#include "services/orch.h"
#include "common/jsonx.h"

#include "audit/audit.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "engine/intel/attack.h"
#include "engine/intel/cvss.h"
#include "engine/intel/facts.h"
#include "engine/intel/intel.h"
#include "engine/intel/playbook.h"
#include "engine/intel/risk.h"
#include "engine/intel/compliance.h"
#include "engine/intel/hunt.h"
#include "engine/risk.h"
#include "net/url.h"
#include "store/store.h"
#include "store/store_intel.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bw_orch_phase_names[BW_ORCH_PHASES] = {
    "load_sources",   "normalise",          "deduplicate",        "enrich_cvss",     "correlate_kev",
    "map_attack",     "map_atlas",          "map_owasp_llm",      "score_risk",      "correlate_assets",
    "refresh_stale_playbooks", "map_compliance", "build_hunt_pack", "grade_posture", "build_recommendations",
    "persist_snapshot",
};

_Static_assert(BW_PHASE_FAILED + 1 == BW_ORCH_PHASE__STATUSES, "one name per phase status");
static const char *const PHASE_STATUSES[BW_ORCH_PHASE__STATUSES] = {"pending", "running", "done", "failed"};

const char *bw_orch_phase_status_name(enum bw_orch_phase_status s)
{
    return (unsigned)s < BW_ORCH_PHASE__STATUSES ? PHASE_STATUSES[s] : NULL;
}

const char *bw_orch_grade(int score)
{
    return score >= 90 ? "A" : score >= 80 ? "B" : score >= 70 ? "C" : score >= 60 ? "D" : "F";
}

/* ---- scope ---------------------------------------------------------------------------------- */

static void scope_all(struct bw_orch_scope *out)
{
    memset(out, 0, sizeof *out);
    out->all = true;
    snprintf(out->kind, sizeof out->kind, "all");
    snprintf(out->key, sizeof out->key, "all");
}

static int scope_account(struct db *db, const char *user_id, bool mssp, struct bw_orch_scope *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->kind, sizeof out->kind, "%s", mssp ? "mssp" : "account");
    snprintf(out->owner, sizeof out->owner, "%s", user_id);
    snprintf(out->key, sizeof out->key, "acct:%s", user_id);
    out->accounts = json_array();
    if (!out->accounts)
        return ST_ERROR;
    json_array_append_new(out->accounts, json_string(user_id));
    if (mssp && store_orch_managed(db, user_id, BW_ORCH_ACCOUNTS_MAX, out->accounts) != ST_OK) {
        bw_orch_scope_free(out);
        return ST_ERROR;
    }
    return ST_OK;
}

int bw_orch_scope_of(struct db *db, const struct bw_principal *p, struct bw_orch_scope *out)
{
    if (p->kind == BW_AUTH_ADMINKEY || p->role == BW_ROLE_ADMIN) {
        scope_all(out);
        return ST_OK;
    }
    return scope_account(db, p->user_id, p->role == BW_ROLE_MSSP, out);
}

int bw_orch_scope_from_key(struct db *db, const char *key, struct bw_orch_scope *out)
{
    if (strcmp(key, "all") == 0) {
        scope_all(out);
        return ST_OK;
    }
    if (strncmp(key, "acct:", 5) != 0)
        return ST_NOTFOUND;
    struct store_user u;
    int rc = store_user_by_id(db, key + 5, &u);
    if (rc != ST_OK)
        return rc;
    /* the account's role now decides, as it would for a request now */
    if (u.role == BW_ROLE_ADMIN) {
        scope_all(out);
        snprintf(out->key, sizeof out->key, "%s", key);
        return ST_OK;
    }
    return scope_account(db, u.id, u.role == BW_ROLE_MSSP, out);
}

void bw_orch_scope_free(struct bw_orch_scope *s)
{
    json_decref(s->accounts);
    s->accounts = NULL;
}

json_t *bw_orch_scope_json(const struct bw_orch_scope *s)
{
    return json_pack("{s:s,s:o,s:o}", "kind", s->kind, "account_id", s->owner[0] ? json_string(s->owner) : json_null(),
                     "accounts", s->accounts ? json_deep_copy(s->accounts) : json_null());
}

void bw_orch_packs_free(struct bw_orch_packs *p)
{
    json_decref(p->ciso);
    json_decref(p->aspm);
    json_decref(p->compliance);
    json_decref(p->hunt);
    memset(p, 0, sizeof *p);
}

/* ---- small helpers -------------------------------------------------------------------------- */

static const char *const SEV_NAMES[5] = {"INFO", "LOW", "MEDIUM", "HIGH", "CRITICAL"};

/* counter objects: {key: n} */
static void bump(json_t *counts, const char *key, json_int_t by)
{
    json_t *v = json_object_get(counts, key);
    json_object_set_new(counts, key, json_integer(json_integer_value(v) + by));
}

static bool in_array(const json_t *a, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        const char *t = json_string_value(v);
        if (t && strcmp(t, s) == 0)
            return true;
    }
    return false;
}

static void add_unique(json_t *a, const char *s)
{
    if (s && *s && !in_array(a, s))
        json_array_append_new(a, json_string(s));
}

/* ---- asset matching ------------------------------------------------------------------------- */

static const char *const GENERIC[] = {
    "http", "https", "internal", "local", "localhost", "prod", "production", "staging", "model", "models", "server",
    "service", "api", "app", "apps", "core", "data", "test", "tests", "main", "web", "www", "com", "org", "net",
    "cloud", "agent", "agents", "chat", "python", "library", "package", "framework", "plugin", "tool", "tools",
};

static bool generic(const char *w)
{
    for (size_t i = 0; i < sizeof GENERIC / sizeof *GENERIC; i++)
        if (strcmp(w, GENERIC[i]) == 0)
            return true;
    return false;
}

/* Appends the lowercase words (>= 4 alphanumerics, not generic) of s to words. */
static void words_of(const char *s, json_t *words)
{
    char w[64];
    size_t n = 0;
    for (const char *p = s;; p++) {
        if (*p && isalnum((unsigned char)*p)) {
            if (n < sizeof w - 1)
                w[n++] = (char)tolower((unsigned char)*p);
            continue;
        }
        w[n] = '\0';
        if (n >= 4 && !generic(w))
            add_unique(words, w);
        n = 0;
        if (!*p)
            break;
    }
}

/* The words of an asset: name, provider and the endpoint's host. */
static json_t *asset_words(const json_t *a)
{
    json_t *w = json_array();
    words_of(bw_json_str(a, "name"), w);
    words_of(bw_json_str(a, "provider"), w);
    struct bw_url u; /* the host as the shared URL parser reads it: never the userinfo */
    if (bw_url_read(&u, bw_json_str(a, "endpoint")))
        words_of(u.host.name, w);
    return w;
}

/* The words of a threat record: its affected products and packages, and the KEV product. */
static json_t *record_words(const json_t *rec)
{
    struct bw_facts f;
    bw_facts_read(&f, rec);
    json_t *w = json_array();
    size_t i;
    json_t *af;
    json_array_foreach(f.affected, i, af) {
        words_of(bw_json_str(af, "product"), w);
        words_of(bw_json_str(af, "package"), w);
    }
    words_of(f.kev_product, w);
    return w;
}

static bool words_meet(const json_t *a, const json_t *b)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) if (in_array(b, json_string_value(v))) return true;
    return false;
}

/* ---- the pipeline's state ------------------------------------------------------------------- */

struct run {
    struct db *db;
    const struct bw_orch_scope *s;
    const struct bw_orch_opts *o;
    char today[11];
    struct store_orch_counts counts;
    json_t *active;      /* active CVE documents */
    json_t *kev;         /* KEV documents */
    json_t *considered;  /* id -> document: active ∪ KEV, de-duplicated */
    json_t *assets;      /* the scope's assets (with their latest scan) */
    json_t *engagements; /* completed engagements */
    json_t *anomalies;
    json_t *stats;       /* per phase: what it did (shown in the CISO pack) */
    json_t *risk_now;    /* id -> score at the run's time */
    json_t *attack;      /* technique id -> {intel, findings} */
    json_t *atlas;
    json_t *owasp;       /* LLMxx -> {intel, findings} */
    json_t *matches;     /* id -> [asset ids] */
    json_t *findings;    /* open findings, HIGH and CRITICAL, most severe first */
    json_t *compliance, *hunt;
    int score;
    json_t *components;
    json_t *recommendations;
    int64_t stale_playbooks, refreshed_playbooks;
};

static void run_free(struct run *r)
{
    json_t **all[] = {&r->active, &r->kev, &r->considered, &r->assets, &r->engagements, &r->anomalies, &r->stats,
                      &r->risk_now, &r->attack, &r->atlas, &r->owasp, &r->matches, &r->findings, &r->compliance,
                      &r->hunt, &r->components, &r->recommendations};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        json_decref(*all[i]);
        *all[i] = NULL;
    }
}

static void stat(struct run *r, const char *phase, json_t *v) { json_object_set_new(r->stats, phase, v); }

/* ---- the stored rows as the pipeline reads them ---------------------------------------------- */

static json_t *text_or_null(const char *s) { return s ? json_string(s) : json_null(); }

/* A stored document, parsed; null when there is none or it does not parse. */
static json_t *doc_or_null(const char *s)
{
    json_t *v = s ? json_loads(s, 0, NULL) : NULL;
    return v ? v : json_null();
}

/* Appends {id,user_id,name,type,provider,endpoint,env,security_score,risk_level,score_basis,
 * created_at,last_scan_id,last_scanned_at,scan} to the array out, scan the latest scan document or null. */
static void add_asset(void *out, const struct store_orch_asset *a)
{
    json_t *o = json_object();
    const char *const texts[] = {a->id, a->user_id, a->name, a->type, a->provider, a->endpoint, a->env};
    static const char *const names[] = {"id", "user_id", "name", "type", "provider", "endpoint", "env"};
    for (int i = 0; i < 7; i++)
        json_object_set_new(o, names[i], text_or_null(texts[i]));
    json_object_set_new(o, "security_score", json_integer(a->security_score));
    json_object_set_new(o, "risk_level", text_or_null(a->risk_level));
    json_object_set_new(o, "score_basis", text_or_null(a->score_basis));
    json_object_set_new(o, "created_at", text_or_null(a->created_at));
    json_object_set_new(o, "last_scan_id", text_or_null(a->last_scan_id));
    json_object_set_new(o, "last_scanned_at", text_or_null(a->last_scanned_at));
    json_object_set_new(o, "scan", doc_or_null(a->scan));
    json_array_append_new(out, o);
}

/* Appends {id,user_id,asset_id,overall_risk,finished_at,report} to the array out; an engagement
 * whose report is not a JSON object is left out (it cannot come from this server). */
static void add_engagement(void *out, const struct store_orch_engagement *e)
{
    json_t *report = doc_or_null(e->report);
    if (!json_is_object(report)) {
        json_decref(report);
        return;
    }
    json_array_append_new(out, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "id", text_or_null(e->id), "user_id",
                                         text_or_null(e->user_id), "asset_id", text_or_null(e->asset_id),
                                         "overall_risk", text_or_null(e->overall_risk), "finished_at",
                                         text_or_null(e->finished_at), "report", report));
}

/* Appends an intel record's document to the array out; one that is not a JSON object is left out. */
static void add_doc(void *out, const char *doc)
{
    json_t *d = doc_or_null(doc);
    if (json_is_object(d))
        json_array_append_new(out, d);
    else
        json_decref(d);
}

/* ---- phases --------------------------------------------------------------------------------- */

static int load_sources(struct run *r)
{
    if (store_orch_counts(r->db, &r->counts) != ST_OK ||
        store_orch_active_cves(r->db, (size_t)r->o->max_items, add_doc, r->active) != ST_OK ||
        store_orch_kev(r->db, BW_ORCH_KEV_MAX, add_doc, r->kev) != ST_OK)
        return -1;
    if (r->s->all) {
        if (store_orch_assets(r->db, NULL, BW_ORCH_ASSETS_MAX, add_asset, r->assets) != ST_OK ||
            store_orch_engagements(r->db, NULL, BW_ORCH_ENGAGEMENTS_MAX, add_engagement, r->engagements) != ST_OK)
            return -1;
    } else {
        size_t i;
        json_t *id;
        json_array_foreach(r->s->accounts, i, id) {
            size_t have = json_array_size(r->assets), eng = json_array_size(r->engagements);
            if (have < BW_ORCH_ASSETS_MAX && store_orch_assets(r->db, json_string_value(id), BW_ORCH_ASSETS_MAX - have,
                                                               add_asset, r->assets) != ST_OK)
                return -1;
            if (eng < BW_ORCH_ENGAGEMENTS_MAX &&
                store_orch_engagements(r->db, json_string_value(id), BW_ORCH_ENGAGEMENTS_MAX - eng, add_engagement,
                                       r->engagements) != ST_OK)
                return -1;
        }
    }
    size_t na = r->s->accounts ? json_array_size(r->s->accounts) : 0;
    const char **ids = calloc(na ? na : 1, sizeof *ids);
    if (!ids)
        return -1;
    for (size_t i = 0; i < na; i++)
        ids[i] = json_string_value(json_array_get(r->s->accounts, i));
    struct bw_audit_scope as = {r->s->all, ids, na};
    json_t *an = NULL;
    int rc = bw_audit_anomalies(r->db, &as, r->o->now_s * 1000, &an);
    free(ids);
    if (rc != 0 || !json_is_array(an)) {
        json_decref(an);
        return -1;
    }
    json_decref(r->anomalies);
    r->anomalies = an;
    stat(r, "load_sources",
         json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}", "intel_records", (json_int_t)r->counts.records, "active_cves",
                   (json_int_t)json_array_size(r->active), "kev_entries", (json_int_t)json_array_size(r->kev), "assets",
                   (json_int_t)json_array_size(r->assets), "engagements", (json_int_t)json_array_size(r->engagements),
                   "anomalies", (json_int_t)json_array_size(r->anomalies)));
    return 0;
}

/* Drops documents that fail the record check (they cannot come from a correct import). */
static size_t keep_valid(json_t *a)
{
    size_t dropped = 0;
    char why[128];
    for (size_t i = 0; i < json_array_size(a);) {
        if (bw_intel_check(json_array_get(a, i), why, sizeof why) != 0) {
            json_array_remove(a, i);
            dropped++;
        } else {
            i++;
        }
    }
    return dropped;
}

static int normalise(struct run *r)
{
    size_t d = keep_valid(r->active) + keep_valid(r->kev);
    stat(r, "normalise", json_pack("{s:I}", "invalid_dropped", (json_int_t)d));
    return 0;
}

/* One threat, one entry: records are keyed by CVE, but an advisory filed under another id can
 * name a CVE that has its own record (then the CVE's record stands for both). */
static int deduplicate(struct run *r)
{
    size_t dup = 0;
    json_t *lists[2] = {r->active, r->kev};
    for (int l = 0; l < 2; l++) {
        size_t i;
        json_t *d;
        json_array_foreach(lists[l], i, d) {
            const char *id = bw_json_str(d, "id");
            if (json_object_get(r->considered, id)) {
                dup++;
                continue;
            }
            json_object_set(r->considered, id, d);
        }
    }
    size_t aliased = 0;
    const char *id;
    json_t *d;
    void *tmp;
    json_t *drop = json_array();
    json_object_foreach_safe(r->considered, tmp, id, d) {
        if (strncmp(id, "CVE-", 4) == 0)
            continue;
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(d, "cve"), i, c) {
            if (json_object_get(r->considered, json_string_value(c))) {
                add_unique(drop, id);
                break;
            }
        }
    }
    size_t i;
    json_t *v;
    json_array_foreach(drop, i, v) {
        json_object_del(r->considered, json_string_value(v));
        aliased++;
    }
    json_decref(drop);
    stat(r, "deduplicate", json_pack("{s:I,s:I,s:I}", "overlapping", (json_int_t)dup, "aliases_folded",
                                     (json_int_t)aliased, "threats", (json_int_t)json_object_size(r->considered)));
    return 0;
}

static int enrich_cvss(struct run *r)
{
    size_t with = 0, verified = 0, mismatched = 0, unparsable = 0;
    const char *id;
    json_t *d;
    json_object_foreach(r->considered, id, d) {
        json_t *c = json_object_get(d, "cvss");
        if (!json_is_object(c))
            continue;
        with++;
        struct bw_cvss cv;
        if (bw_cvss_parse(bw_json_str(c, "vector"), &cv) != 0) {
            unparsable++;
            continue;
        }
        double stored = json_number_value(json_object_get(c, "base_score"));
        if ((long)(stored * 10 + 0.5) == (long)(cv.base_score * 10 + 0.5))
            verified++;
        else
            mismatched++;
    }
    stat(r, "enrich_cvss", json_pack("{s:I,s:I,s:I,s:I}", "with_cvss", (json_int_t)with, "verified",
                                     (json_int_t)verified, "mismatched", (json_int_t)mismatched, "unparsable",
                                     (json_int_t)unparsable));
    return 0;
}

static bool kev_overdue(const json_t *rec, const char *today)
{
    const char *due = bw_json_str(json_object_get(rec, "kev_details"), "due_date");
    return strlen(due) >= 10 && strncmp(due, today, 10) < 0;
}

static int correlate_kev(struct run *r)
{
    size_t overdue = 0, ransomware = 0, active_in_kev = 0;
    size_t i;
    json_t *d;
    json_array_foreach(r->kev, i, d) {
        if (kev_overdue(d, r->today))
            overdue++;
        const char *rw = bw_json_str(json_object_get(d, "kev_details"), "ransomware_use");
        if (strcasecmp(rw, "Known") == 0)
            ransomware++;
    }
    json_array_foreach(r->active, i, d) if (json_is_true(json_object_get(d, "kev"))) active_in_kev++;
    stat(r, "correlate_kev", json_pack("{s:I,s:I,s:I,s:I}", "kev_entries", (json_int_t)json_array_size(r->kev),
                                       "past_due_date", (json_int_t)overdue, "known_ransomware_use",
                                       (json_int_t)ransomware, "active_cves_in_kev", (json_int_t)active_in_kev));
    return 0;
}

static void tally(json_t *map, const char *id, const char *member)
{
    if (!id)
        return; /* not a string: no key to count under */
    json_t *e = json_object_get(map, id);
    if (!e) {
        e = json_pack("{s:i,s:i}", "intel_records", 0, "findings", 0);
        json_object_set_new(map, id, e);
    }
    bump(e, member, 1);
}

/* Counts the techniques the considered records list under member into map, as intel_records. */
static void tally_records(struct run *r, const char *member, json_t *map)
{
    const char *id;
    json_t *d;
    json_object_foreach(r->considered, id, d) {
        size_t i;
        json_t *t;
        json_array_foreach(json_object_get(d, member), i, t) tally(map, json_string_value(t), "intel_records");
    }
}

static int map_attack(struct run *r)
{
    tally_records(r, "attack_techniques", r->attack);
    stat(r, "map_attack", json_pack("{s:I}", "techniques", (json_int_t)json_object_size(r->attack)));
    return 0;
}

/* OWASP LLM (2025) risks of asset-scan findings, as the ATLAS techniques they exercise. */
static const char *owasp_to_atlas(const char *llm)
{
    static const char *const M[][2] = {
        {"LLM01", "AML.T0051"}, {"LLM02", "AML.T0057"}, {"LLM03", "AML.T0010"}, {"LLM04", "AML.T0020"},
        {"LLM05", "AML.T0050"}, {"LLM06", "AML.T0053"}, {"LLM07", "AML.T0056"}, {"LLM08", "AML.T0070"},
        {"LLM09", "AML.T0048"}, {"LLM10", "AML.T0029"},
    };
    for (size_t i = 0; llm && i < sizeof M / sizeof *M; i++)
        if (strncmp(llm, M[i][0], 5) == 0)
            return M[i][1];
    return NULL;
}

/* Every finding of the scope, as {source, severity, title, owasp_llm, atlas[], asset_id, ref, at}. */
static void collect_findings(struct run *r)
{
    size_t i;
    json_t *a;
    json_array_foreach(r->assets, i, a) {
        json_t *scan = json_object_get(a, "scan");
        size_t j;
        json_t *f;
        json_array_foreach(json_object_get(scan, "findings"), j, f) {
            const char *llm = bw_json_str(f, "owasp_llm");
            json_t *atlas = json_array();
            add_unique(atlas, owasp_to_atlas(llm));
            json_array_append_new(r->findings,
                                  json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:s,s:s,s:o}", "source", "asset_scan", "severity",
                                            bw_json_str(f, "severity"), "title", bw_json_str(f, "title"), "owasp_llm", llm, "atlas",
                                            atlas, "asset_id", bw_json_str(a, "id"), "asset_name", bw_json_str(a, "name"), "scan_id",
                                            bw_json_str(a, "last_scan_id"), "found_at", json_deep_copy(json_object_get(a,
                                            "last_scanned_at"))));
        }
    }
    json_array_foreach(r->engagements, i, a) {
        json_t *rep = json_object_get(a, "report");
        size_t j;
        json_t *f;
        json_array_foreach(json_object_get(rep, "critical_findings"), j, f) {
            json_t *atlas = json_array();
            size_t k;
            json_t *t;
            json_array_foreach(json_object_get(f, "atlas"), k, t) add_unique(atlas, json_string_value(t));
            char title[200];
            snprintf(title, sizeof title, "Red team: %s succeeded", bw_json_str(f, "technique"));
            json_array_append_new(r->findings,
                                  json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:s,s:s,s:o}", "source", "redteam", "severity",
                                            bw_json_str(f, "severity"), "title", title, "owasp_llm", bw_json_str(f, "owasp_llm"),
                                            "atlas", atlas, "asset_id", bw_json_str(a, "asset_id"), "attack_id",
                                            bw_json_str(f, "attack_id"), "engagement_id", bw_json_str(a, "id"), "found_at",
                                            json_deep_copy(json_object_get(a, "finished_at"))));
        }
    }
}

static int map_atlas(struct run *r)
{
    tally_records(r, "atlas_techniques", r->atlas);
    collect_findings(r);
    size_t i;
    json_t *f;
    json_array_foreach(r->findings, i, f) {
        size_t k;
        json_t *t;
        json_array_foreach(json_object_get(f, "atlas"), k, t) tally(r->atlas, json_string_value(t), "findings");
    }
    stat(r, "map_atlas", json_pack("{s:I,s:I}", "techniques", (json_int_t)json_object_size(r->atlas), "findings",
                                   (json_int_t)json_array_size(r->findings)));
    return 0;
}

/* A record's AI impacts as OWASP LLM (2025) risks. */
static const char *impact_to_owasp(const char *impact)
{
    static const char *const M[][2] = {
        {"prompt_injection", "LLM01"}, {"data_exposure", "LLM02"},  {"model_supply_chain", "LLM03"},
        {"tool_execution", "LLM05"},   {"agentic", "LLM06"},        {"model_theft", "LLM10"},
        {"availability", "LLM10"},
    };
    for (size_t i = 0; impact && i < sizeof M / sizeof *M; i++)
        if (strcmp(impact, M[i][0]) == 0)
            return M[i][1];
    return NULL;
}

static int map_owasp(struct run *r)
{
    const char *id;
    json_t *d;
    json_object_foreach(r->considered, id, d) {
        json_t *seen = json_array();
        size_t i;
        json_t *t;
        json_array_foreach(json_object_get(d, "ai_impact"), i, t) add_unique(seen, impact_to_owasp(json_string_value(t)));
        json_array_foreach(seen, i, t) tally(r->owasp, json_string_value(t), "intel_records");
        json_decref(seen);
    }
    size_t i;
    json_t *f;
    json_array_foreach(r->findings, i, f) {
        const char *llm = bw_json_str(f, "owasp_llm");
        if (strlen(llm) >= 5 && strncmp(llm, "LLM", 3) == 0) {
            char k[6];
            memcpy(k, llm, 5);
            k[5] = '\0';
            tally(r->owasp, k, "findings");
        }
    }
    stat(r, "map_owasp_llm", json_pack("{s:I}", "risks", (json_int_t)json_object_size(r->owasp)));
    return 0;
}

/* ---- sorting: stable, through qsort over (item, position) pairs ------------------------- */

typedef int (*json_cmp)(const json_t *x, const json_t *y, void *ctx);
struct sort_item {
    json_t *v;
    size_t pos;
};
/* qsort has no context argument (qsort_r is not portable): the comparator is per thread. */
static _Thread_local struct {
    json_cmp cmp;
    void *ctx;
} t_sort;

static int sort_item_cmp(const void *a, const void *b)
{
    const struct sort_item *x = a, *y = b;
    int c = t_sort.cmp(x->v, y->v, t_sort.ctx);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Sorts a JSON array in place, equal items keeping their order. */
static void sort_array(json_t *a, json_cmp cmp, void *ctx)
{
    size_t n = json_array_size(a);
    struct sort_item *v = n > 1 ? malloc(n * sizeof *v) : NULL;
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        v[i] = (struct sort_item){json_incref(json_array_get(a, i)), i};
    t_sort.cmp = cmp;
    t_sort.ctx = ctx;
    qsort(v, n, sizeof *v, sort_item_cmp);
    json_array_clear(a);
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, v[i].v);
    free(v);
}

/* Riskier first (the run's scores in ctx), then id. */
static int cmp_risk(const json_t *x, const json_t *y, void *ctx)
{
    json_int_t sx = json_integer_value(json_object_get(ctx, bw_json_str(x, "id")));
    json_int_t sy = json_integer_value(json_object_get(ctx, bw_json_str(y, "id")));
    if (sx != sy)
        return sx > sy ? -1 : 1;
    return strcmp(bw_json_str(x, "id"), bw_json_str(y, "id"));
}

static int score_risk(struct run *r)
{
    size_t changed = 0;
    const char *id;
    json_t *d;
    json_object_foreach(r->considered, id, d) {
        int now = bw_risk_score(d, r->o->now_s);
        if (now != (int)json_integer_value(json_object_get(d, "risk_score")))
            changed++;
        json_object_set_new(r->risk_now, id, json_integer(now));
    }
    sort_array(r->active, cmp_risk, r->risk_now);
    sort_array(r->kev, cmp_risk, r->risk_now);
    stat(r, "score_risk", json_pack("{s:I,s:I}", "scored", (json_int_t)json_object_size(r->risk_now),
                                    "changed_since_import", (json_int_t)changed));
    return 0;
}

static int correlate_assets(struct run *r)
{
    size_t na = json_array_size(r->assets);
    json_t **aw = calloc(na ? na : 1, sizeof *aw);
    if (!aw)
        return -1;
    for (size_t i = 0; i < na; i++)
        aw[i] = asset_words(json_array_get(r->assets, i));
    size_t pairs = 0;
    const char *id;
    json_t *d;
    json_object_foreach(r->considered, id, d) {
        json_t *rw = record_words(d);
        json_t *hits = NULL;
        for (size_t i = 0; json_array_size(rw) && i < na; i++) {
            if (!words_meet(rw, aw[i]))
                continue;
            if (!hits)
                hits = json_array();
            json_array_append_new(hits, json_string(bw_json_str(json_array_get(r->assets, i), "id")));
            pairs++;
        }
        if (hits)
            json_object_set_new(r->matches, id, hits);
        json_decref(rw);
    }
    for (size_t i = 0; i < na; i++)
        json_decref(aw[i]);
    free(aw);
    stat(r, "correlate_assets", json_pack("{s:I,s:I}", "threats_matched", (json_int_t)json_object_size(r->matches),
                                          "asset_matches", (json_int_t)pairs));
    return 0;
}

/* Saves a new generation of the playbook of threat_id for user_id from the record as stored now. */
static int regenerate_playbook(struct run *r, const char *user_id, const char *threat_id)
{
    char *doc = NULL;
    int64_t version = 0;
    if (store_intel_get(r->db, threat_id, &doc, &version) != ST_OK)
        return -1;
    json_t *rec = json_loads(doc, 0, NULL);
    free(doc);
    /* the text the API serves and stores (bw_playbook_build would parse it only to dump it again),
     * with the playbook's own tier, as a GET or POST saves it */
    char tier[BW_PLAYBOOK_TIER_MAX];
    char *text = rec ? bw_playbook_text(rec, NULL, tier) : NULL;
    int rc = -1;
    if (text) {
        struct store_playbook p = {0};
        bw_id_new("pbk_", p.id);
        snprintf(p.user_id, sizeof p.user_id, "%s", user_id);
        snprintf(p.threat_id, sizeof p.threat_id, "%s", threat_id);
        p.record_version = version;
        snprintf(p.risk_tier, sizeof p.risk_tier, "%s", tier);
        p.generated_us = bw_now_us();
        bw_iso8601(p.generated_us / 1000000, p.generated_at);
        rc = store_playbook_insert(r->db, &p, text) == ST_OK ? 0 : -1;
    }
    free(text);
    json_decref(rec);
    return rc;
}

static int refresh_playbooks(struct run *r)
{
    json_t *accounts = r->s->accounts ? json_incref(r->s->accounts) : json_array();
    if (r->s->all) { /* every account's saved playbooks */
        struct store_user *u = NULL;
        size_t n = 0;
        if (store_user_list(r->db, &u, &n) != ST_OK) {
            json_decref(accounts);
            return -1;
        }
        for (size_t i = 0; i < n && i < BW_ORCH_ACCOUNTS_MAX; i++)
            json_array_append_new(accounts, json_string(u[i].id));
        free(u);
    }
    size_t budget = (size_t)r->o->max_items, failed = 0;
    size_t i;
    json_t *acc;
    json_array_foreach(accounts, i, acc) {
        json_t *stale = json_array();
        if (store_orch_stale_playbooks(r->db, json_string_value(acc), BW_ORCH_MAX_ITEMS, stale) != ST_OK) {
            json_decref(stale);
            json_decref(accounts);
            return -1;
        }
        r->stale_playbooks += (int64_t)json_array_size(stale);
        size_t j;
        json_t *s;
        json_array_foreach(stale, j, s) {
            if (!r->o->job_id || budget == 0)
                break;
            budget--;
            if (regenerate_playbook(r, json_string_value(acc), bw_json_str(s, "threat_id")) == 0)
                r->refreshed_playbooks++;
            else
                failed++;
        }
        json_decref(stale);
    }
    json_decref(accounts);
    stat(r, "refresh_stale_playbooks",
         json_pack("{s:I,s:I,s:I,s:b}", "stale", (json_int_t)r->stale_playbooks, "regenerated",
                   (json_int_t)r->refreshed_playbooks, "failed", (json_int_t)failed, "regeneration", r->o->job_id != NULL));
    return 0;
}

static pthread_once_t g_comp_once = PTHREAD_ONCE_INIT;
static struct bw_compliance *g_comp;

static void comp_load(void)
{
    char why[256];
    if (bw_compliance_load(&g_comp, why, sizeof why) != 0) {
        g_comp = NULL;
        bw_logf(BW_LOG_ERROR, NULL, "compliance mapping unusable: %s", why);
    }
}

static int map_compliance(struct run *r)
{
    pthread_once(&g_comp_once, comp_load);
    if (!g_comp)
        return -1;
    size_t n = json_array_size(r->active);
    const json_t **recs = calloc(n ? n : 1, sizeof *recs);
    if (!recs)
        return -1;
    for (size_t i = 0; i < n; i++)
        recs[i] = json_array_get(r->active, i);
    r->compliance = bw_compliance_map(g_comp, recs, n);
    free(recs);
    if (!r->compliance)
        return -1;
    json_t *sum = json_object();
    size_t i;
    json_t *fw;
    json_array_foreach(json_object_get(r->compliance, "frameworks"), i, fw)
        json_object_set(sum, bw_json_str(fw, "id"), json_object_get(fw, "controls_affected"));
    stat(r, "map_compliance", json_pack("{s:I,s:o}", "cves", (json_int_t)n, "controls_affected", sum));
    return 0;
}

static int build_hunt(struct run *r)
{
    json_t *rules = json_array(), *skipped = json_array();
    size_t i;
    json_t *d;
    json_array_foreach(r->active, i, d) {
        json_t *h = NULL;
        char why[160];
        if (bw_hunt_build(d, &h, why, sizeof why) == 0)
            json_array_append_new(rules, h);
        else
            json_array_append_new(skipped, json_pack("{s:s,s:s}", "threat_id", bw_json_str(d, "id"), "reason", why));
    }
    r->hunt = json_pack("{s:o,s:o}", "rules", rules, "skipped", skipped);
    stat(r, "build_hunt_pack", json_pack("{s:I,s:I}", "rules", (json_int_t)json_array_size(rules), "skipped",
                                         (json_int_t)json_array_size(skipped)));
    return r->hunt ? 0 : -1;
}

/* Most severe first, then asset. */
static int cmp_finding(const json_t *x, const json_t *y, void *ctx)
{
    (void)ctx;
    int a = bw_sev_parse(bw_json_str(x, "severity")), b = bw_sev_parse(bw_json_str(y, "severity"));
    if (a != b)
        return b - a;
    return strcmp(bw_json_str(x, "asset_id"), bw_json_str(y, "asset_id"));
}

static int grade_posture(struct run *r)
{
    /* keep HIGH and CRITICAL findings, most severe first */
    json_t *keep = json_array();
    size_t i;
    json_t *f;
    json_array_foreach(r->findings, i, f) if (bw_sev_parse(bw_json_str(f, "severity")) >= BW_SEV_HIGH)
        json_array_append(keep, f);
    sort_array(keep, cmp_finding, NULL);
    json_decref(r->findings);
    r->findings = keep;

    size_t crit = 0, high = 0;
    json_array_foreach(r->findings, i, f) {
        if (bw_sev_parse(bw_json_str(f, "severity")) == BW_SEV_CRITICAL)
            crit++;
        else
            high++;
    }
    size_t registered = json_array_size(r->assets), recent = 0, scanned = 0;
    long sum = 0;
    char cutoff[24];
    _Static_assert(BW_ORCH_COVERAGE_DAYS == 30, "the answer names the window: scanned_30d, unscanned-in-30-days");
    bw_iso8601(r->o->now_s - (int64_t)BW_ORCH_COVERAGE_DAYS * 86400, cutoff);
    json_t *a;
    json_array_foreach(r->assets, i, a) {
        const char *at = json_string_value(json_object_get(a, "last_scanned_at"));
        if (!at)
            continue;
        scanned++;
        sum += (long)json_integer_value(json_object_get(a, "security_score"));
        if (strcmp(at, cutoff) >= 0)
            recent++;
    }
    long d_find = (long)(10 * crit + 4 * high);
    if (d_find > 40)
        d_find = 40;
    long d_cov = registered ? (long)((20 * (registered - recent) + registered / 2) / registered) : 20;
    long mean = scanned ? (sum + (long)scanned / 2) / (long)scanned : -1;
    long d_assets = scanned ? (100 - mean) / 5 : 0;
    if (d_assets > 20)
        d_assets = 20;
    long d_exp = 0;
    const char *id;
    json_t *m;
    json_object_foreach(r->matches, id, m) {
        json_t *rec = json_object_get(r->considered, id);
        d_exp += json_is_true(json_object_get(rec, "kev")) ? 5 : 2;
    }
    if (d_exp > 10)
        d_exp = 10;
    long d_abuse = 0;
    json_array_foreach(r->anomalies, i, a) d_abuse +=
        bw_sev_parse(bw_json_str(a, "severity")) >= BW_SEV_HIGH ? 5 : 2;
    if (d_abuse > 10)
        d_abuse = 10;
    long score = 100 - d_find - d_cov - d_assets - d_exp - d_abuse;
    r->score = score < 0 ? 0 : (int)score;
    r->components = json_pack("{s:{s:i,s:i,s:i},s:{s:i,s:i,s:i},s:{s:i,s:o},s:{s:i,s:i},s:{s:i,s:i}}",
                              "findings", "deduction", (int)d_find, "critical", (int)crit, "high", (int)high,
                              "coverage", "deduction", (int)d_cov, "registered", (int)registered, "scanned_30d",
                              (int)recent, "assets", "deduction", (int)d_assets, "mean_security_score",
                              mean >= 0 ? json_integer(mean) : json_null(), "exposure", "deduction", (int)d_exp,
                              "matched_threats", (int)json_object_size(r->matches), "abuse", "deduction",
                              (int)d_abuse, "anomalies", (int)json_array_size(r->anomalies));
    stat(r, "grade_posture", json_pack("{s:i,s:s}", "score", r->score, "grade", bw_orch_grade(r->score)));
    return r->components ? 0 : -1;
}

static json_t *risk_of(struct run *r, const char *id)
{
    json_t *v = json_object_get(r->risk_now, id);
    return v ? json_incref(v) : json_null();
}

static json_t *cite(const char *type, const char *id) { return json_pack("{s:s,s:s}", "type", type, "id", id); }

static void recommend(json_t *out, int prio, const char *title, const char *action, json_t *cites)
{
    json_array_append_new(out, json_pack("{s:i,s:s,s:s,s:s,s:o}", "weight", prio, "priority",
                                         SEV_NAMES[prio >= 4 ? 4 : prio], "title", title, "action", action, "cites",
                                         cites));
}

static int cmp_weight(const json_t *x, const json_t *y, void *ctx)
{
    (void)ctx;
    json_int_t a = json_integer_value(json_object_get(x, "weight")), b = json_integer_value(json_object_get(y, "weight"));
    return (b > a) - (b < a);
}

static int build_recommendations(struct run *r)
{
    json_t *out = json_array();
    char title[256], action[512];
    /* 1. KEV entries on the scope's assets */
    size_t i;
    json_t *d;
    json_array_foreach(r->kev, i, d) {
        json_t *m = json_object_get(r->matches, bw_json_str(d, "id"));
        if (!m)
            continue;
        json_t *cites = json_array();
        json_array_append_new(cites, cite("intel", bw_json_str(d, "id")));
        size_t j;
        json_t *a;
        json_array_foreach(m, j, a) json_array_append_new(cites, cite("asset", json_string_value(a)));
        const json_t *kd = json_object_get(d, "kev_details");
        snprintf(title, sizeof title, "Patch %s (exploited in the wild) on %zu asset(s)", bw_json_str(d, "id"),
                 json_array_size(m));
        snprintf(action, sizeof action, "%s%s%s", bw_json_str(kd, "required_action")[0] ? bw_json_str(kd, "required_action")
                                                                                 : "Apply the vendor fix or mitigation.",
                 bw_json_str(kd, "due_date")[0] ? " CISA due date: " : "", bw_json_str(kd, "due_date"));
        recommend(out, 4, title, action, cites);
    }
    /* 2. open critical/high findings, one per asset and source */
    json_t *seen = json_array();
    json_t *f;
    json_array_foreach(r->findings, i, f) {
        char key[160];
        snprintf(key, sizeof key, "%s|%s", bw_json_str(f, "asset_id"), bw_json_str(f, "source"));
        if (in_array(seen, key))
            continue;
        json_array_append_new(seen, json_string(key));
        bool rt = strcmp(bw_json_str(f, "source"), "redteam") == 0;
        json_t *cites = json_array();
        json_array_append_new(cites, cite("asset", bw_json_str(f, "asset_id")));
        json_array_append_new(cites, rt ? cite("engagement", bw_json_str(f, "engagement_id")) : cite("asset_scan", bw_json_str(f, "scan_id")));
        snprintf(title, sizeof title, "Fix %s finding on asset %s: %s", bw_json_str(f, "severity"), bw_json_str(f, "asset_id"),
                 bw_json_str(f, "title"));
        snprintf(action, sizeof action, rt ? "Harden the target against %s (OWASP %s), then re-run the engagement."
                                           : "Remediate the finding (OWASP %s%s), then re-scan the asset.",
                 rt ? bw_json_str(f, "title") : bw_json_str(f, "owasp_llm"), rt ? bw_json_str(f, "owasp_llm") : "");
        recommend(out, bw_sev_parse(bw_json_str(f, "severity")), title, action, cites);
    }
    json_decref(seen);
    /* 3. zero-trust anomalies */
    json_array_foreach(r->anomalies, i, d) {
        json_t *cites = json_array();
        char aid[160];
        snprintf(aid, sizeof aid, "%s:%s", bw_json_str(d, "type"), bw_json_str(d, "principal"));
        json_array_append_new(cites, cite("anomaly", aid));
        snprintf(title, sizeof title, "Investigate %s by %s (%lld events)", bw_json_str(d, "type"), bw_json_str(d, "principal"),
                 (long long)json_integer_value(json_object_get(d, "count")));
        snprintf(action, sizeof action,
                 "Review the principal's recent activity; revoke or rotate the key, or block the address, if it is not "
                 "expected.");
        recommend(out, bw_sev_parse(bw_json_str(d, "severity")), title, action, cites);
    }
    /* 4. registered assets never scanned (one recommendation citing them) */
    json_t *unscanned = json_array();
    json_t *a;
    json_array_foreach(r->assets, i, a) if (json_is_null(json_object_get(a, "last_scanned_at")) &&
                                            json_array_size(unscanned) < 20)
        json_array_append_new(unscanned, cite("asset", bw_json_str(a, "id")));
    if (json_array_size(unscanned)) {
        snprintf(title, sizeof title, "Scan %zu registered asset(s) that were never scanned", json_array_size(unscanned));
        recommend(out, 3, title, "Run POST /api/ai-security/assets/{id}/scan for each cited asset.", unscanned);
    } else {
        json_decref(unscanned);
    }
    /* 5. the riskiest active CVEs (KEV first) not already cited */
    size_t extra = 0;
    json_array_foreach(r->active, i, d) {
        if (extra >= 5)
            break;
        if (json_object_get(r->matches, bw_json_str(d, "id")) && json_is_true(json_object_get(d, "kev")))
            continue; /* already in 1. */
        json_t *cites = json_array();
        json_array_append_new(cites, cite("intel", bw_json_str(d, "id")));
        snprintf(title, sizeof title, "Check exposure to %s: %s", bw_json_str(d, "id"), bw_json_str(d, "title"));
        snprintf(action, sizeof action,
                 "Inventory where the affected product runs and apply the fix; the threat's playbook is at "
                 "/api/threat-intel/%s/playbook.",
                 bw_json_str(d, "id"));
        recommend(out, bw_sev_parse(bw_json_str(d, "severity")), title, action, cites);
        extra++;
    }
    /* most urgent first; stable within a weight */
    size_t n = json_array_size(out);
    sort_array(out, cmp_weight, NULL);
    while (json_array_size(out) > BW_ORCH_RECOMMENDATIONS)
        json_array_remove(out, json_array_size(out) - 1);
    json_array_foreach(out, i, d) {
        json_object_del(d, "weight");
        json_object_set_new(d, "rank", json_integer((json_int_t)i + 1));
    }
    r->recommendations = out;
    stat(r, "build_recommendations", json_pack("{s:I}", "recommendations", (json_int_t)n));
    return 0;
}

/* ---- the packs ------------------------------------------------------------------------------ */

/* Most observed first, then id. */
static int cmp_observed(const json_t *x, const json_t *y, void *ctx)
{
    (void)ctx;
    json_int_t a = json_integer_value(json_object_get(x, "count")), b = json_integer_value(json_object_get(y, "count"));
    if (a != b)
        return a > b ? -1 : 1;
    return strcmp(bw_json_str(x, "id"), bw_json_str(y, "id"));
}

static json_t *technique_list(struct run *r)
{
    json_t *out = json_array();
    json_t *maps[2] = {r->attack, r->atlas};
    for (int k = 0; k < 2; k++) {
        const char *id;
        json_t *e;
        json_object_foreach(maps[k], id, e) {
            json_int_t ni = json_integer_value(json_object_get(e, "intel_records"));
            json_int_t nf = json_integer_value(json_object_get(e, "findings"));
            const char *name = NULL, *url = NULL;
            if (k == 0) {
                const struct bw_attack_technique *t = bw_attack_technique_resolve(id);
                name = t ? t->name : NULL;
                url = t ? t->url : NULL;
            } else {
                const struct bw_atlas_technique *t = bw_atlas_technique_resolve(id);
                name = t ? t->name : NULL;
                url = t ? t->url : NULL;
            }
            json_array_append_new(out, json_pack("{s:s,s:s,s:o,s:o,s:I,s:I,s:I}", "id", id, "framework",
                                                 k == 0 ? "ATT&CK" : "ATLAS", "name",
                                                 name ? json_string(name) : json_null(), "url",
                                                 url ? json_string(url) : json_null(), "count", ni + nf,
                                                 "intel_records", ni, "findings", nf));
        }
    }
    sort_array(out, cmp_observed, NULL);
    return out;
}

static json_t *kev_entries(struct run *r, size_t *matched)
{
    json_t *first = json_array(), *rest = json_array();
    *matched = 0;
    size_t i;
    json_t *d;
    json_array_foreach(r->kev, i, d) {
        const json_t *kd = json_object_get(d, "kev_details");
        json_t *m = json_object_get(r->matches, bw_json_str(d, "id"));
        json_t *e = json_pack("{s:s,s:O,s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:s,s:o,s:s,s:o}", "threat_id", bw_json_str(d, "id"), "cve",
                              json_object_get(d, "cve"), "title", bw_json_str(d, "title"), "vendor", bw_json_str(kd, "vendor"),
                              "product", bw_json_str(kd, "product"), "date_added", bw_json_str(kd, "date_added"), "due_date",
                              bw_json_str(kd, "due_date"), "required_action", bw_json_str(kd, "required_action"), "past_due",
                              kev_overdue(d, r->today), "ransomware_use", bw_json_str(kd, "ransomware_use"), "risk_score",
                              risk_of(r, bw_json_str(d, "id")), "relevance",
                              m ? "asset_match" : "ai_stack", "matched_assets", m ? json_deep_copy(m) : json_array());
        json_array_append_new(m ? first : rest, e);
        if (m)
            (*matched)++;
    }
    json_array_extend(first, rest);
    json_decref(rest);
    return first;
}

static json_t *owasp_list(struct run *r)
{
    json_t *out = json_array();
    const char *id;
    json_t *e;
    json_object_foreach(r->owasp, id, e) {
        json_int_t ni = json_integer_value(json_object_get(e, "intel_records"));
        json_int_t nf = json_integer_value(json_object_get(e, "findings"));
        json_array_append_new(out, json_pack("{s:s,s:I,s:I,s:I}", "owasp_llm", id, "count", ni + nf, "intel_records",
                                             ni, "findings", nf));
    }
    return out;
}

static json_t *ciso_pack(struct run *r)
{
    size_t matched = 0;
    json_t *kev = kev_entries(r, &matched);
    json_t *top = json_array();
    size_t i;
    json_t *d;
    json_array_foreach(r->active, i, d) {
        if (i >= 10)
            break;
        json_array_append_new(top, json_pack("{s:s,s:s,s:s,s:o,s:b,s:o}", "threat_id", bw_json_str(d, "id"), "title",
                                             bw_json_str(d, "title"), "severity", bw_json_str(d, "severity"), "risk_score",
                                             risk_of(r, bw_json_str(d, "id")), "kev",
                                             json_is_true(json_object_get(d, "kev")), "matched_assets",
                                             json_object_get(r->matches, bw_json_str(d, "id"))
                                                 ? json_deep_copy(json_object_get(r->matches, bw_json_str(d, "id")))
                                                 : json_array()));
    }
    return json_pack(
        "{s:{s:s,s:i,s:O,s:s},s:{s:I,s:I,s:I},s:{s:I,s:I,s:I,s:I},s:o,s:I,s:I,s:o,s:o,s:o,s:O,s:O}", "posture", "grade",
        bw_orch_grade(r->score), "score", r->score, "components", r->components, "formula",
        "100 - findings(10/CRITICAL + 4/HIGH, max 40) - coverage(20 x unscanned-in-30-days share, 20 with no asset) - "
        "assets((100 - mean security score)/5, max 20) - exposure(5/KEV + 2/other matched CVE, max 10) - abuse(5/HIGH + "
        "2/other anomaly, max 10); A >= 90, B >= 80, C >= 70, D >= 60, else F",
        "critical_cves", "total", (json_int_t)r->counts.critical, "in_kev", (json_int_t)r->counts.critical_kev,
        "ai_related", (json_int_t)r->counts.critical_ai, "intel", "records", (json_int_t)r->counts.records, "cves",
        (json_int_t)r->counts.cves, "cves_in_kev", (json_int_t)r->counts.cves_kev, "kev_entries",
        (json_int_t)r->counts.kev, "kev_entries", kev, "kev_entries_total", (json_int_t)json_array_size(r->kev),
        "kev_entries_matched", (json_int_t)matched, "mitre_techniques", technique_list(r), "owasp_llm", owasp_list(r),
        "top_threats", top, "recommendations", r->recommendations, "pipeline", r->stats);
}

static json_t *aspm_pack(struct run *r)
{
    json_t *by_type = json_object(), *by_level = json_pack("{s:i,s:i,s:i,s:i}", "CRITICAL", 0, "HIGH", 0, "MEDIUM", 0,
                                                           "LOW", 0);
    json_t *never = json_array();
    size_t scanned = 0, i;
    json_t *a;
    json_array_foreach(r->assets, i, a) {
        bump(by_type, bw_json_str(a, "type"), 1);
        if (json_is_null(json_object_get(a, "last_scanned_at"))) {
            if (json_array_size(never) < 50)
                json_array_append_new(never, json_string(bw_json_str(a, "id")));
            continue;
        }
        scanned++;
        bump(by_level, bw_json_str(a, "risk_level"), 1);
    }
    size_t crit = 0, high = 0;
    json_t *items = json_array(), *f;
    json_array_foreach(r->findings, i, f) {
        if (bw_sev_parse(bw_json_str(f, "severity")) == BW_SEV_CRITICAL)
            crit++;
        else
            high++;
        if (json_array_size(items) < BW_ORCH_FINDINGS_LISTED)
            json_array_append(items, f);
    }
    /* open risks: OWASP LLM risks hit by findings, with the assets behind them */
    json_t *risks = json_object();
    json_array_foreach(r->findings, i, f) {
        const char *llm = bw_json_str(f, "owasp_llm");
        if (!*llm)
            continue;
        json_t *e = json_object_get(risks, llm);
        if (!e) {
            e = json_pack("{s:s,s:i,s:s,s:[]}", "owasp_llm", llm, "findings", 0, "max_severity", bw_json_str(f, "severity"),
                          "assets");
            json_object_set_new(risks, llm, e);
        }
        bump(e, "findings", 1);
        add_unique(json_object_get(e, "assets"), bw_json_str(f, "asset_id"));
    }
    json_t *open = json_array();
    const char *k;
    json_t *v;
    json_object_foreach(risks, k, v) json_array_append(open, v);
    json_decref(risks);
    json_t *exposure = json_array();
    json_array_foreach(r->active, i, a) {
        json_t *m = json_object_get(r->matches, bw_json_str(a, "id"));
        if (m)
            json_array_append_new(exposure, json_pack("{s:s,s:b,s:o,s:O}", "threat_id", bw_json_str(a, "id"), "kev",
                                                      json_is_true(json_object_get(a, "kev")), "risk_score",
                                                      risk_of(r, bw_json_str(a, "id")), "assets", m));
    }
    size_t registered = json_array_size(r->assets);
    long mean = json_integer_value(json_object_get(json_object_get(r->components, "assets"), "mean_security_score"));
    bool have_mean = !json_is_null(json_object_get(json_object_get(r->components, "assets"), "mean_security_score"));
    return json_pack(
        "{s:{s:I,s:I,s:I,s:I,s:o,s:o,s:o},s:{s:i,s:s,s:o,s:o},s:{s:I,s:I,s:I,s:o},s:o,s:o,s:{s:i,s:I,s:O}}", "assets",
        "registered", (json_int_t)registered, "scanned", (json_int_t)scanned, "unscanned",
        (json_int_t)(registered - scanned), "scanned_30d",
        json_integer_value(json_object_get(json_object_get(r->components, "coverage"), "scanned_30d")), "by_type",
        by_type, "by_risk_level", by_level, "never_scanned", never, "posture", "score", r->score, "grade",
        bw_orch_grade(r->score), "mean_security_score", have_mean ? json_integer(mean) : json_null(), "risk_level",
        have_mean ? json_string(mean >= 80 ? "LOW" : mean >= 60 ? "MEDIUM" : mean >= 40 ? "HIGH" : "CRITICAL")
                  : json_null(),
        "critical_findings", "total", (json_int_t)(crit + high), "critical", (json_int_t)crit, "high", (json_int_t)high,
        "items", items, "open_risks", open, "exposure", exposure, "zero_trust", "window_hours", 24, "total",
        (json_int_t)json_array_size(r->anomalies), "anomalies", r->anomalies);
}

static json_t *compliance_pack(struct run *r)
{
    json_t *c = json_deep_copy(r->compliance);
    json_object_set_new(c, "active_cves", json_integer((json_int_t)json_array_size(r->active)));
    return c;
}

static json_t *hunt_pack(struct run *r)
{
    json_t *h = json_deep_copy(r->hunt);
    json_object_set_new(h, "count", json_integer((json_int_t)json_array_size(json_object_get(h, "rules"))));
    json_object_set_new(h, "active_cves", json_integer((json_int_t)json_array_size(r->active)));
    json_object_set_new(h, "formats", json_pack("[s,s,s]", "sigma", "kql", "yara"));
    return h;
}

/* The envelope every pack carries. */
static void envelope(json_t *pack, const char *name, const struct bw_orch_scope *s, const struct bw_orch_opts *o,
                     const char *snap_id, const char *at)
{
    json_object_set_new(pack, "pack", json_string(name));
    json_object_set_new(pack, "generated_at", json_string(at));
    json_object_set_new(pack, "scope", bw_orch_scope_json(s));
    json_object_set_new(pack, "snapshot",
                        json_pack("{s:o,s:o,s:s,s:i,s:s}", "id", snap_id ? json_string(snap_id) : json_null(), "job_id",
                                  o->job_id ? json_string(o->job_id) : json_null(), "source",
                                  o->job_id ? "run" : "on_demand", "max_items", (int)o->max_items, "generated_at", at));
}

static int persist(struct run *r, struct bw_orch_packs *out, char *why, size_t cap)
{
    char at[24], snap[BW_ID_MAX];
    bw_iso8601(r->o->now_s, at);
    bw_id_new("snp_", snap);
    out->ciso = ciso_pack(r);
    out->aspm = aspm_pack(r);
    out->compliance = compliance_pack(r);
    out->hunt = hunt_pack(r);
    if (!out->ciso || !out->aspm || !out->compliance || !out->hunt) {
        snprintf(why, cap, "out of memory building the packs");
        return -1;
    }
    const char *sid = r->o->job_id ? snap : NULL;
    envelope(out->ciso, "ciso", r->s, r->o, sid, at);
    envelope(out->aspm, "aspm", r->s, r->o, sid, at);
    envelope(out->compliance, "compliance", r->s, r->o, sid, at);
    envelope(out->hunt, "hunt-pack", r->s, r->o, sid, at);
    if (!r->o->job_id)
        return 0;
    char *t[4] = {json_dumps(out->ciso, JSON_COMPACT), json_dumps(out->aspm, JSON_COMPACT),
                  json_dumps(out->compliance, JSON_COMPACT), json_dumps(out->hunt, JSON_COMPACT)};
    int rc = -1;
    if (t[0] && t[1] && t[2] && t[3]) {
        struct store_orch_snapshot m = {0};
        snprintf(m.id, sizeof m.id, "%s", snap);
        snprintf(m.scope_key, sizeof m.scope_key, "%s", r->s->key);
        snprintf(m.job_id, sizeof m.job_id, "%s", r->o->job_id);
        m.max_items = r->o->max_items;
        snprintf(m.created_at, sizeof m.created_at, "%s", at);
        m.created_us = bw_now_us();
        rc = store_orch_snapshot_save(r->db, &m, (const char *const *)t, BW_ORCH_SNAPSHOTS_KEEP) == ST_OK ? 0 : -1;
        if (rc)
            snprintf(why, cap, "saving the snapshot failed");
    } else {
        snprintf(why, cap, "out of memory serialising the packs");
    }
    for (int i = 0; i < 4; i++)
        free(t[i]);
    return rc;
}

int bw_orch_compute(struct db *db, const struct bw_orch_scope *s, const struct bw_orch_opts *o,
                    struct bw_orch_packs *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    struct run r = {.db = db, .s = s, .o = o};
    char now[24];
    bw_iso8601(o->now_s, now);
    memcpy(r.today, now, 10);
    r.today[10] = '\0';
    r.active = json_array();
    r.kev = json_array();
    r.considered = json_object();
    r.assets = json_array();
    r.engagements = json_array();
    r.anomalies = json_array();
    r.stats = json_object();
    r.risk_now = json_object();
    r.attack = json_object();
    r.atlas = json_object();
    r.owasp = json_object();
    r.matches = json_object();
    r.findings = json_array();
    int (*const phases[BW_ORCH_PHASES - 1])(struct run *) = {
        load_sources,     normalise,         deduplicate,    enrich_cvss,   correlate_kev,
        map_attack,       map_atlas,         map_owasp,      score_risk,    correlate_assets,
        refresh_playbooks, map_compliance,   build_hunt,     grade_posture, build_recommendations,
    };
    int rc = 0;
    for (int i = 0; i < BW_ORCH_PHASES; i++) {
        if (o->phase && !o->phase(o->arg, i + 1)) {
            rc = 1;
            break;
        }
        int prc = i < BW_ORCH_PHASES - 1 ? phases[i](&r) : persist(&r, out, why, cap);
        if (prc != 0) {
            if (i < BW_ORCH_PHASES - 1)
                snprintf(why, cap, "phase %s failed (storage or memory)", bw_orch_phase_names[i]);
            rc = -1;
            break;
        }
    }
    if (rc != 0)
        bw_orch_packs_free(out);
    run_free(&r);
    return rc;
}
