/* The orchestration API (/api/orchestrator/god-mode/...): status (public, coarse unless the
 * caller is privileged), the four packs, and runs of the 16-phase pipeline on the job queue.
 * Privileged = ENTERPRISE, role mssp or admin, or the admin key (the route table enforces it);
 * what a caller sees is its scope (src/services/orch.h). Another scope's run is 404. */
#include "api/api.h"
#include "api/api_util.h"
#include "auth/policy.h"
#include "common/jsonx.h"
#include "common/timeutil.h"
#include "jobs/jobs.h"
#include "engine/intel/compliance.h"
#include "services/orch.h"
#include "services/orch_cache.h"
#include "store/store.h"
#include "store/store_intel.h"
#include "store/store_orch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BULWARK_VERSION
#define BULWARK_VERSION "0"
#endif

static const char JSON_TYPE[] = "application/json; charset=utf-8";

/* The caller's scope; false after replying. */
static bool scope_for(struct bw_req *r, struct bw_orch_scope *s)
{
    if (bw_orch_scope_of(api_ctx(r)->db, &r->principal, s) == ST_OK)
        return true;
    api_reply_storage(r);
    return false;
}

static json_t *opt_text(const char *s) { return s && *s ? json_string(s) : json_null(); }

/* A run as clients see it (API.md: job_id, status, phase, phase_name, phases_done, phases_total,
 * started_at, finished_at, error; plus max_items, accepted_at and the phase list). */
static json_t *run_json(const struct store_orch_run *run)
{
    bool done = run->status == BW_RUN_COMPLETED;
    /* the current phase is running or failed as the run is */
    bool marked = run->status == BW_RUN_RUNNING || run->status == BW_RUN_FAILED;
    json_t *phases = json_array();
    for (int i = 0; i < BW_ORCH_PHASES; i++) {
        enum bw_orch_phase_status st = i < run->phases_done || done ? BW_PHASE_DONE
                                       : i + 1 == run->phase && marked
                                           ? (run->status == BW_RUN_RUNNING ? BW_PHASE_RUNNING : BW_PHASE_FAILED)
                                           : BW_PHASE_PENDING;
        json_array_append_new(phases, json_pack("{s:i,s:s,s:s}", "index", i + 1, "name", bw_orch_phase_names[i],
                                                "status", bw_orch_phase_status_name(st)));
    }
    int phase = run->phase;
    return json_pack("{s:s,s:s,s:i,s:o,s:i,s:i,s:I,s:s,s:o,s:o,s:o,s:o}", "job_id", run->job_id, "status",
                     bw_run_status_name(run->status), "phase", phase, "phase_name",
                     phase >= 1 && phase <= BW_ORCH_PHASES ? json_string(bw_orch_phase_names[phase - 1]) : json_null(),
                     "phases_done", done ? BW_ORCH_PHASES : run->phases_done, "phases_total", BW_ORCH_PHASES,
                     "max_items", (json_int_t)run->max_items, "accepted_at", run->accepted_at, "started_at",
                     opt_text(run->started_at), "finished_at", opt_text(run->finished_at), "error",
                     opt_text(run->error), "phases", phases);
}

void api_orch_status(struct bw_req *r)
{
    if (bw_policy_check(BW_ACCESS_PRIVILEGED, &r->principal).err != BW_OK) {
        static const char coarse[] = "{\"status\":\"ok\",\"available\":true}";
        bw_reply_static(r, 200, coarse, sizeof coarse - 1);
        return;
    }
    struct bw_orch_scope s;
    if (!scope_for(r, &s))
        return;
    struct db *db = api_ctx(r)->db;
    int64_t runs = 0, intel = 0, assets = 0;
    struct store_orch_run last, cur;
    int rc_last = store_orch_run_latest(db, s.all ? NULL : s.key, &last);
    int rc_cur = store_orch_run_active(db, s.key, &cur);
    bool ok = store_orch_run_count(db, s.all ? NULL : s.key, &runs) == ST_OK && store_intel_count(db, &intel) == ST_OK &&
              rc_last != ST_ERROR && rc_cur != ST_ERROR;
    if (ok && s.all) {
        ok = store_orch_asset_count(db, NULL, &assets) == ST_OK;
    } else if (ok) {
        size_t i;
        json_t *id;
        json_array_foreach(s.accounts, i, id) {
            int64_t n = 0;
            if (store_orch_asset_count(db, json_string_value(id), &n) != ST_OK) {
                ok = false;
                break;
            }
            assets += n;
        }
    }
    if (!ok) {
        bw_orch_scope_free(&s);
        api_reply_storage(r);
        return;
    }
    json_t *phases = json_array();
    for (int i = 0; i < BW_ORCH_PHASES; i++)
        json_array_append_new(phases, json_string(bw_orch_phase_names[i]));
    bw_reply_json(r, 200,
                  json_pack("{s:s,s:b,s:o,s:o,s:o,s:I,s:I,s:I,s:I,s:s,s:o}", "status", "ok", "available", true, "scope",
                            bw_orch_scope_json(&s), "last_run", rc_last == ST_OK ? run_json(&last) : json_null(),
                            "current_run", rc_cur == ST_OK ? run_json(&cur) : json_null(), "runs_total",
                            (json_int_t)runs, "intel_records", (json_int_t)intel, "assets", (json_int_t)assets,
                            "uptime_s", (json_int_t)(bw_now_s() - api_ctx(r)->started_s), "version", BULWARK_VERSION,
                            "phases", phases));
    bw_orch_scope_free(&s);
}

/* The compliance pack narrowed to one framework: its entry in frameworks, its key in each CVE's
 * gaps. Takes pack (a new reference) and returns it. */
static json_t *compliance_only(json_t *pack, const char *fw)
{
    json_t *fws = json_object_get(pack, "frameworks"), *keep = json_array();
    size_t i;
    json_t *x;
    json_array_foreach(fws, i, x) {
        if (strcmp(bw_json_str(x, "id"), fw) == 0)
            json_array_append(keep, x);
    }
    json_object_set_new(pack, "frameworks", keep);
    json_array_foreach(json_object_get(pack, "cves"), i, x) {
        json_t *gaps = json_object_get(x, "gaps"), *one = json_object();
        json_t *g = json_object_get(gaps, fw);
        if (g)
            json_object_set(one, fw, g);
        json_object_set_new(x, "gaps", one);
    }
    json_object_set_new(pack, "filter", json_pack("{s:s}", "framework", fw));
    return pack;
}

/* Serves the scope's newest snapshot of a pack, or else its on-demand computation, shared by the
 * scope's requests for BULWARK_ORCH_PACK_CACHE_S (services/orch_cache.h); fw narrows the
 * compliance pack to one framework (NULL: the whole pack, sent as kept). Runs on the pack pool:
 * a computation takes tenths of a second, and a snapshot is up to a megabyte. */
static void serve_pack(struct bw_req *r, enum store_orch_pack pack, const char *fw)
{
    struct bw_orch_scope s;
    if (!scope_for(r, &s))
        return;
    struct api_ctx *c = api_ctx(r);
    struct store_orch_snapshot meta;
    char *text = NULL;
    size_t len = 0;
    int rc = store_orch_snapshot_latest(c->db, s.key, pack, &meta, &text);
    if (rc == ST_OK) {
        len = strlen(text);
        bw_orch_cache_forget(c->orch_cache, s.key); /* a run completed: its snapshot is what counts */
    } else if (rc == ST_NOTFOUND) {
        rc = bw_orch_cache_get(c->orch_cache, &s, pack, bw_now_s(), &text, &len);
    }
    bw_orch_scope_free(&s);
    if (rc != ST_OK) {
        api_reply_storage(r);
        return;
    }
    if (!fw) {
        bw_reply_text(r, 200, JSON_TYPE, text, len);
        return;
    }
    json_t *j = json_loadb(text, len, 0, NULL);
    free(text);
    if (!j) {
        bw_reply_internal(r, "the pack is not JSON");
        return;
    }
    bw_reply_json(r, 200, compliance_only(j, fw));
}

static void ciso_work(struct bw_req *r) { serve_pack(r, STORE_PACK_CISO, NULL); }
static void aspm_work(struct bw_req *r) { serve_pack(r, STORE_PACK_ASPM, NULL); }
static void hunt_work(struct bw_req *r) { serve_pack(r, STORE_PACK_HUNT, NULL); }
/* the query was checked on the event thread; the suspended request's values stay put */
static void compliance_work(struct bw_req *r) { serve_pack(r, STORE_PACK_COMPLIANCE, bw_query(r, "framework")); }

/* Each answers 503 itself when the pack pool's queue is full. */
void api_orch_ciso(struct bw_req *r) { bw_req_defer_on(r, api_ctx(r)->orch_pool, ciso_work); }
void api_orch_aspm(struct bw_req *r) { bw_req_defer_on(r, api_ctx(r)->orch_pool, aspm_work); }

void api_orch_compliance(struct bw_req *r)
{
    const char *fw = bw_query(r, "framework");
    if (fw) {
        bool known = false;
        for (int i = 0; i < BW_COMPLIANCE_FRAMEWORKS; i++)
            known |= strcmp(fw, bw_compliance_framework_ids[i]) == 0;
        if (!known) {
            struct bw_verr v = {0};
            bw_verr_add(&v, "framework",
                        "must be one of iso_27001_2022, soc2_tsc, nist_csf_2.0, gdpr, dpdp_2023, owasp_llm_2025");
            bw_verr_reply(r, &v);
            return;
        }
    }
    bw_req_defer_on(r, api_ctx(r)->orch_pool, compliance_work);
}

void api_orch_hunt(struct bw_req *r) { bw_req_defer_on(r, api_ctx(r)->orch_pool, hunt_work); }

void api_orch_run(struct bw_req *r)
{
    long max_items = BW_ORCH_MAX_ITEMS_DEFAULT;
    struct bw_verr v = {0};
    if (r->json && !json_is_object(r->json)) {
        bw_verr_add(&v, "body", "must be a JSON object");
    } else if (r->json) {
        json_t *m = json_object_get(r->json, "max_items");
        if (m && !json_is_integer(m))
            bw_verr_add(&v, "max_items", "must be an integer");
        else if (m && (json_integer_value(m) < 1 || json_integer_value(m) > BW_ORCH_MAX_ITEMS)) {
            char msg[64];
            snprintf(msg, sizeof msg, "must be between 1 and %d", BW_ORCH_MAX_ITEMS);
            bw_verr_add(&v, "max_items", msg);
        } else if (m)
            max_items = (long)json_integer_value(m);
    }
    if (bw_verr_reply(r, &v))
        return;
    struct bw_orch_scope s;
    if (!scope_for(r, &s))
        return;
    struct store_orch_run run = {0};
    bw_id_new("job_", run.job_id);
    snprintf(run.scope_key, sizeof run.scope_key, "%s", s.key);
    snprintf(run.requested_by, sizeof run.requested_by, "%s",
             r->principal.kind == BW_AUTH_ADMINKEY ? "admin_key" : r->principal.user_id);
    run.max_items = max_items;
    int64_t now_us = bw_now_us();
    bw_iso8601(now_us / 1000000, run.accepted_at);
    char active[BW_ID_MAX];
    int rc = store_orch_run_create(api_ctx(r)->db, &run, now_us, BW_JOB_MAX_ATTEMPTS, now_us / 1000, active);
    bw_orch_scope_free(&s);
    if (rc == ST_CONFLICT) {
        char msg[160];
        snprintf(msg, sizeof msg, "a run is already in progress for this scope: %s", active[0] ? active : "(finishing)");
        bw_reply_error(r, BW_E_CONFLICT, msg, json_pack("{s:s}", "job_id", active));
        return;
    }
    if (rc != ST_OK) {
        api_reply_storage(r);
        return;
    }
    bw_reply_json(r, 202,
                  json_pack("{s:s,s:s,s:i,s:I,s:s}", "job_id", run.job_id, "status", bw_run_status_name(BW_RUN_QUEUED),
                            "phases_total", BW_ORCH_PHASES, "max_items", (json_int_t)max_items, "accepted_at",
                            run.accepted_at));
}

void api_orch_run_get(struct bw_req *r)
{
    const char *id = r->params[0];
    if (!bw_id_valid(id, "job_")) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such run", NULL);
        return;
    }
    struct bw_orch_scope s;
    if (!scope_for(r, &s))
        return;
    struct store_orch_run run;
    int rc = store_orch_run_get(api_ctx(r)->db, id, &run);
    bool visible = rc == ST_OK && (s.all || strcmp(run.scope_key, s.key) == 0);
    bw_orch_scope_free(&s);
    if (rc == ST_ERROR)
        api_reply_storage(r);
    else if (!visible)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such run", NULL);
    else
        bw_reply_json(r, 200, run_json(&run));
}
