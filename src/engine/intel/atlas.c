/* MITRE ATLAS (ATLAS.yaml as published by mitre-atlas/atlas-data) -> records of its LLM and
 * agent techniques and of the case studies that use them. The type rules are in sources.h. */
#include "engine/intel/normalize.h"

#include "common/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_NONE, K_PROMPT, K_AGENT };

struct tech {
    const char *id, *name, *parent_id, *maturity, *attack_id, *attack_url;
    const json_t *tactics; /* array of tactic ids, or NULL */
    char created[21], modified[21];
    const struct tech *parent;
    enum kind kind;
    int studies; /* case studies whose procedure uses it (or one of its sub-techniques) */
};

struct atlas {
    struct tech *t;
    size_t n, cap;
    json_t *tactic_names; /* object: tactic id -> name */
};

static enum kind own_kind(const char *name)
{
    if (strstr(name, "Agent") || strstr(name, "Tool Invocation") || strstr(name, "MCP") || strstr(name, "Plugin"))
        return K_AGENT;
    if (strstr(name, "LLM") || strstr(name, "Prompt") || strstr(name, "Jailbreak") || strstr(name, "RAG"))
        return K_PROMPT;
    return K_NONE;
}

static const struct tech *find(const struct atlas *a, const char *id)
{
    for (size_t i = 0; id && i < a->n; i++)
        if (strcmp(a->t[i].id, id) == 0)
            return &a->t[i];
    return NULL;
}

static const json_t *tactics_of(const struct tech *t)
{
    return t->tactics ? t->tactics : t->parent ? t->parent->tactics : NULL;
}

static bool has_tactic(const struct tech *t, const char *tactic)
{
    size_t i;
    json_t *v;
    json_array_foreach(tactics_of(t), i, v)
        if (strcmp(json_string_value(v), tactic) == 0)
            return true;
    return false;
}

static bool name_has(const struct tech *t, const char *const *words)
{
    for (size_t i = 0; words[i]; i++)
        if (strstr(t->name, words[i]))
            return true;
    return false;
}

/* The AI impacts a technique stands for, added to rec. */
static void impacts(json_t *rec, const struct tech *t)
{
    static const char *const exec[] = {"Tool Invocation", "Command", "Execution", "Reverse Shell", NULL};
    static const char *const data[] = {"Leakage", "Extract", "Exfiltration", "Credential", "Data from", NULL};
    static const char *const theft[] = {"Extract AI Model", "Distillation", "Replication", "Theft", NULL};
    static const char *const supply[] = {"Supply Chain", "Poisoned", "Publish", NULL};
    static const char *const avail[] = {"Denial", "Destruction", "Cost", "Spamming", "Resource", "Chaff", NULL};
    if (t->kind == K_AGENT)
        bw_rec_impact(rec, "agentic");
    if (t->kind == K_PROMPT)
        bw_rec_impact(rec, "prompt_injection");
    if (name_has(t, exec) || has_tactic(t, "AML.TA0005"))
        bw_rec_impact(rec, "tool_execution");
    if (name_has(t, data) || has_tactic(t, "AML.TA0010") || has_tactic(t, "AML.TA0009") ||
        has_tactic(t, "AML.TA0013"))
        bw_rec_impact(rec, "data_exposure");
    if (name_has(t, theft))
        bw_rec_impact(rec, "model_theft");
    if (name_has(t, supply))
        bw_rec_impact(rec, "model_supply_chain");
    if (has_tactic(t, "AML.TA0011") && name_has(t, avail))
        bw_rec_impact(rec, "availability");
}

static void attack_ref(json_t *rec, const struct tech *t)
{
    const struct tech *src = t->attack_id ? t : t->parent && t->parent->attack_id ? t->parent : NULL;
    if (!src)
        return;
    bw_rec_add(rec, "attack_techniques", src->attack_id);
    char url[128];
    if (!src->attack_url) {
        snprintf(url, sizeof url, "https://attack.mitre.org/techniques/%s/", src->attack_id);
        for (char *p = url + 36; *p; p++)
            if (*p == '.')
                *p = '/';
    }
    bw_rec_add_ref(rec, src->attack_url ? src->attack_url : url, "attack");
}

/* "LLM Prompt Injection: Direct": a sub-technique's own name alone ("Direct") says little */
static void display_name(const struct tech *t, char *out, size_t cap)
{
    if (t->parent)
        snprintf(out, cap, "%s: %s", t->parent->name, t->name);
    else
        snprintf(out, cap, "%s", t->name);
}

static bool has_impact(const json_t *rec, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(rec, "ai_impact"), i, v)
        if (strcmp(json_string_value(v), name) == 0)
            return true;
    return false;
}

static const char *maturity_severity(const char *m)
{
    if (m && strcmp(m, "realized") == 0)
        return "HIGH";
    if (m && strcmp(m, "feasible") == 0)
        return "LOW";
    return "MEDIUM";
}

static json_t *technique_record(const struct atlas *a, const struct tech *t)
{
    json_t *r = bw_rec_new(t->id, t->kind == K_AGENT ? "agent_threat" : "prompt_attack", "atlas");
    if (!r)
        return NULL;
    char title[300];
    display_name(t, title, sizeof title);
    bw_rec_str(r, "title", title);
    bw_rec_str(r, "published", t->created);
    bw_rec_str(r, "updated", t->modified);
    bw_rec_add(r, "atlas_techniques", t->id);
    if (t->parent)
        bw_rec_add(r, "atlas_techniques", t->parent->id);
    attack_ref(r, t);
    impacts(r, t);
    if (t->studies > 0)
        json_object_set_new(r, "exploit_available", json_true());
    const char *maturity = t->maturity ? t->maturity : t->parent ? t->parent->maturity : NULL;
    const char *sev = maturity_severity(maturity);
    bw_rec_str(r, "severity", has_impact(r, "tool_execution") ? bw_sev_up(sev) : sev);
    char url[128];
    snprintf(url, sizeof url, "https://atlas.mitre.org/techniques/%s", t->id);
    bw_rec_add_ref(r, url, "atlas");
    /* summary: what, under which tactics, how mature, how often seen */
    char tactics[512] = "", sum[1200];
    size_t len = 0, i;
    json_t *v;
    json_array_foreach(tactics_of(t), i, v) {
        const char *nm = json_string_value(json_object_get(a->tactic_names, json_string_value(v)));
        if (len < sizeof tactics)
            len += (size_t)snprintf(tactics + len, sizeof tactics - len, "%s%s", i ? ", " : "",
                                    nm ? nm : json_string_value(v));
    }
    char parent[300] = "", seen[96], equiv[64] = "";
    if (t->parent)
        snprintf(parent, sizeof parent, ", a sub-technique of %s (%s)", t->parent->name, t->parent->id);
    if (t->studies)
        snprintf(seen, sizeof seen, "%d ATLAS case stud%s use%s it.", t->studies, t->studies == 1 ? "y" : "ies",
                 t->studies == 1 ? "s" : "");
    else
        snprintf(seen, sizeof seen, "No ATLAS case study uses it yet.");
    const char *ak = json_string_value(json_array_get(json_object_get(r, "attack_techniques"), 0));
    if (ak)
        snprintf(equiv, sizeof equiv, " ATT&CK equivalent: %s.", ak);
    snprintf(sum, sizeof sum, "%s technique in MITRE ATLAS%s%s%s, maturity %s%s. %s%s",
             t->kind == K_AGENT ? "AI agent" : "LLM prompt", tactics[0] ? " (" : "", tactics, tactics[0] ? ")" : "",
             maturity ? maturity : "not stated", parent, seen, equiv);
    bw_rec_str(r, "summary", sum);
    bw_rec_normalise(r);
    return r;
}

static int read_techniques(struct bw_src *s, struct atlas *a, const json_t *matrices)
{
    size_t mi, i;
    json_t *m, *tech;
    json_array_foreach(matrices, mi, m) {
        char where[64], prefix[64];
        json_t *list, *tactics;
        if (bw_src_item(s, matrices, mi, "matrices", where, sizeof where) != 0)
            return -1;
        if (bw_src_arr(s, m, "techniques", true, where, &list) || bw_src_arr(s, m, "tactics", false, where, &tactics))
            return -1;
        json_array_foreach(tactics, i, tech) {
            const char *id, *name;
            snprintf(prefix, sizeof prefix, "matrices[%zu].tactics", mi);
            if (bw_src_item(s, tactics, i, prefix, where, sizeof where) != 0)
                return -1;
            if (bw_src_str(s, tech, "id", true, where, &id) || bw_src_str(s, tech, "name", true, where, &name))
                return -1;
            json_object_set_new(a->tactic_names, id, json_string(name));
        }
        if (!BW_VEC_RESERVE(a->t, a->cap, a->n + json_array_size(list) + 1, BW_VEC_UNBOUNDED))
            return bw_src_fail(s, m, NULL, "out of memory");
        json_array_foreach(list, i, tech) {
            struct tech *t = &a->t[a->n];
            memset(t, 0, sizeof *t);
            json_t *ref = NULL, *tac = NULL;
            snprintf(prefix, sizeof prefix, "matrices[%zu].techniques", mi);
            if (bw_src_item(s, list, i, prefix, where, sizeof where) != 0)
                return -1;
            if (bw_src_str(s, tech, "id", true, where, &t->id) || bw_src_str(s, tech, "name", true, where, &t->name) ||
                bw_src_date(s, tech, "created_date", true, where, t->created) ||
                bw_src_date(s, tech, "modified_date", true, where, t->modified) ||
                bw_src_str(s, tech, "subtechnique-of", false, where, &t->parent_id) ||
                bw_src_str(s, tech, "maturity", false, where, &t->maturity) ||
                bw_src_arr(s, tech, "tactics", false, where, &tac) ||
                bw_src_obj(s, tech, "ATT&CK-reference", false, where, &ref))
                return -1;
            if (strncmp(t->id, "AML.T", 5) != 0 || !bw_intel_id_valid(t->id))
                return bw_src_fail(s, json_object_get(tech, "id"), tech, "%s: 'id' is not an ATLAS technique id", where);
            size_t k;
            json_t *x;
            json_array_foreach(tac, k, x)
                if (!json_is_string(x))
                    return bw_src_fail(s, x, tac, "%s: tactics[%zu] must be a string", where, k);
            t->tactics = tac;
            if (ref && (bw_src_str(s, ref, "id", true, where, &t->attack_id) ||
                        bw_src_str(s, ref, "url", false, where, &t->attack_url)))
                return -1;
            a->n++;
        }
    }
    for (size_t k = 0; k < a->n; k++) {
        a->t[k].parent = find(a, a->t[k].parent_id);
        a->t[k].kind = own_kind(a->t[k].name);
    }
    for (size_t k = 0; k < a->n; k++) /* a sub-technique without a telling name is its parent's kind */
        if (a->t[k].kind == K_NONE && a->t[k].parent)
            a->t[k].kind = own_kind(a->t[k].parent->name);
    return 0;
}

/* The technique ids of a case study's procedure, validated. */
static int procedure(struct bw_src *s, const json_t *cs, const char *where, json_t **steps)
{
    if (bw_src_arr(s, cs, "procedure", true, where, steps) != 0)
        return -1;
    size_t i;
    json_t *st;
    json_array_foreach(*steps, i, st) {
        char w[96], prefix[64];
        const char *tech;
        snprintf(prefix, sizeof prefix, "%s.procedure", where);
        if (bw_src_item(s, *steps, i, prefix, w, sizeof w) != 0)
            return -1;
        if (bw_src_str(s, st, "technique", true, w, &tech) != 0)
            return -1;
    }
    return 0;
}

static json_t *study_record(struct bw_src *s, const struct atlas *a, const json_t *cs, const char *where, int *rc)
{
    const char *id, *name, *kind = NULL, *target = NULL;
    char date[21];
    json_t *steps, *refs;
    *rc = -1; /* cs is a mapping: bw_intel_atlas checked every case study first */
    if (bw_src_str(s, cs, "id", true, where, &id) || bw_src_str(s, cs, "name", true, where, &name) ||
        bw_src_date(s, cs, "incident-date", true, where, date) ||
        bw_src_str(s, cs, "case-study-type", false, where, &kind) ||
        bw_src_str(s, cs, "target", false, where, &target) || procedure(s, cs, where, &steps) ||
        bw_src_arr(s, cs, "references", false, where, &refs))
        return NULL;
    if (strncmp(id, "AML.CS", 6) != 0 || !bw_intel_id_valid(id))
        return bw_src_fail(s, json_object_get(cs, "id"), cs, "%s: 'id' is not an ATLAS case study id", where), NULL;
    *rc = 0;
    enum kind k = K_NONE;
    size_t i;
    json_t *st;
    json_array_foreach(steps, i, st) {
        const struct tech *t = find(a, json_string_value(json_object_get(st, "technique")));
        if (t && t->kind > k)
            k = t->kind;
    }
    if (k == K_NONE)
        return NULL;
    json_t *r = bw_rec_new(id, k == K_AGENT ? "agent_threat" : "prompt_attack", "atlas");
    if (!r) {
        *rc = bw_src_fail(s, cs, NULL, "out of memory");
        return NULL;
    }
    bw_rec_str(r, "title", name);
    bw_rec_str(r, "published", date);
    bw_rec_str(r, "updated", date);
    json_object_set_new(r, "exploit_available", json_true());
    char first[300] = "", second[300] = "";
    json_array_foreach(steps, i, st) {
        const char *tid = json_string_value(json_object_get(st, "technique"));
        const struct tech *t = find(a, tid);
        bw_rec_add(r, "atlas_techniques", tid);
        if (!t)
            continue;
        attack_ref(r, t);
        impacts(r, t);
        char nm[300];
        display_name(t, nm, sizeof nm);
        if (t->kind != K_NONE && !first[0])
            snprintf(first, sizeof first, "%s", nm);
        else if (t->kind != K_NONE && !second[0] && strcmp(nm, first) != 0)
            snprintf(second, sizeof second, "%s", nm);
    }
    if (k == K_AGENT)
        bw_rec_impact(r, "agentic");
    bw_rec_normalise(r);
    const char *sev = kind && strcmp(kind, "incident") == 0 ? "HIGH" : "MEDIUM";
    bw_rec_str(r, "severity", has_impact(r, "tool_execution") ? bw_sev_up(sev) : sev);
    char url[128];
    snprintf(url, sizeof url, "https://atlas.mitre.org/studies/%s", id);
    bw_rec_add_ref(r, url, "atlas");
    json_t *ref;
    json_array_foreach(refs, i, ref) {
        const char *u = NULL;
        char w[96], prefix[64];
        snprintf(prefix, sizeof prefix, "%s.references", where);
        if (bw_src_item(s, refs, i, prefix, w, sizeof w) != 0 || bw_src_str(s, ref, "url", false, w, &u) != 0) {
            json_decref(r);
            *rc = -1;
            return NULL;
        }
        bw_rec_add_ref(r, u, "web");
    }
    char sum[1400], tgt[200] = "", incl[700] = "";
    if (target && *target)
        snprintf(tgt, sizeof tgt, " against %.150s", target);
    if (first[0])
        snprintf(incl, sizeof incl, ", including %s%s%s", first, second[0] ? " and " : "", second);
    size_t ntech = json_array_size(json_object_get(r, "atlas_techniques"));
    snprintf(sum, sizeof sum, "%s %.10s%s: %zu procedure step%s across %zu ATLAS technique%s%s.",
             kind && strcmp(kind, "incident") == 0 ? "Incident of" : "Exercise of", date, tgt,
             json_array_size(steps), json_array_size(steps) == 1 ? "" : "s", ntech, ntech == 1 ? "" : "s", incl);
    bw_rec_str(r, "summary", sum);
    bw_rec_normalise(r);
    return r;
}

/* How many case studies use each technique; a sub-technique's use counts for its parent too. */
static void count_studies(struct atlas *a, const json_t *studies)
{
    size_t i, j;
    json_t *cs, *st;
    bool *used = calloc(a->n ? a->n : 1, sizeof *used);
    if (!used)
        return;
    json_array_foreach(studies, i, cs) {
        memset(used, 0, a->n * sizeof *used);
        json_array_foreach(json_object_get(cs, "procedure"), j, st) {
            const struct tech *t = find(a, json_string_value(json_object_get(st, "technique")));
            for (; t; t = t->parent)
                used[t - a->t] = true;
        }
        for (size_t k = 0; k < a->n; k++)
            a->t[k].studies += used[k];
    }
    free(used);
}

int bw_intel_atlas(const struct bw_tree *tree, json_t **out, struct bw_intel_reject *rej)
{
    struct bw_src s = {tree, rej};
    *out = NULL;
    const json_t *root = tree->root;
    if (!json_is_object(root))
        return bw_src_fail(&s, root, NULL, "ATLAS data must be a mapping");
    json_t *matrices, *studies;
    if (bw_src_arr(&s, root, "matrices", true, "ATLAS", &matrices) ||
        bw_src_arr(&s, root, "case-studies", false, "ATLAS", &studies))
        return -1;
    struct atlas a = {.tactic_names = json_object()};
    json_t *all = json_array();
    int rc = -1;
    if (!all || !a.tactic_names) {
        bw_src_fail(&s, root, NULL, "out of memory");
        goto out;
    }
    if (read_techniques(&s, &a, matrices) != 0)
        goto out;
    /* validate every case study before counting on their shape */
    size_t i;
    json_t *cs;
    json_array_foreach(studies, i, cs) {
        char where[48];
        json_t *steps;
        if (bw_src_item(&s, studies, i, "case-studies", where, sizeof where) != 0 ||
            procedure(&s, cs, where, &steps) != 0)
            goto out;
    }
    count_studies(&a, studies);
    for (size_t k = 0; k < a.n; k++) {
        if (a.t[k].kind == K_NONE)
            continue;
        json_t *r = technique_record(&a, &a.t[k]);
        if (!r) {
            bw_src_fail(&s, root, NULL, "out of memory");
            goto out;
        }
        json_array_append_new(all, r);
    }
    json_array_foreach(studies, i, cs) {
        char where[48];
        snprintf(where, sizeof where, "case-studies[%zu]", i);
        int e;
        json_t *r = study_record(&s, &a, cs, where, &e);
        if (e != 0)
            goto out;
        if (r)
            json_array_append_new(all, r);
    }
    *out = all;
    all = NULL;
    rc = 0;
out:
    json_decref(all);
    json_decref(a.tactic_names);
    free(a.t);
    return rc;
}
