/* SARIF 2.1.0 pieces shared by the CLI's report and the API's SARIF view (see sarif.h). */
#include "engine/code/sarif.h"
#include "common/utf8.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define DOCS_BASE "https://github.com/bulwark-security/bulwark/blob/main/docs/rules/"

void bw_rule_help_uri(const struct bw_rule *rule, char *out, size_t outlen)
{
    char anchor[64];
    size_t i = 0;
    for (; rule->id[i] && i + 1 < sizeof anchor; i++)
        anchor[i] = (char)tolower((unsigned char)rule->id[i]);
    anchor[i] = '\0';
    snprintf(out, outlen, DOCS_BASE "%s.md#%s", rule->category, anchor);
}

static double security_severity(int s)
{
    static const double v[] = {0, 3.0, 5.5, 8.0, 9.5};
    return v[s];
}

const char *bw_sarif_level(int s) { return s >= BW_SEV_HIGH ? "error" : s == BW_SEV_MEDIUM ? "warning" : "note"; }

static json_t *help_markdown(const struct bw_rule *r)
{
    char uri[256];
    bw_rule_help_uri(r, uri, sizeof uri);
    return json_sprintf("**%s** (%s, [%s](https://cwe.mitre.org/data/definitions/%s.html))\n\n%s\n\n**Fix:** %s\n\n"
                        "[Rule documentation](%s)",
                        r->title, r->id, r->cwe, r->cwe + 4, r->description, r->remediation, uri);
}

json_t *bw_sarif_rule(const struct bw_rule *r)
{
    char cwe_tag[48], sev[16], uri[256];
    snprintf(cwe_tag, sizeof cwe_tag, "external/cwe/cwe-%s", r->cwe + 4);
    snprintf(sev, sizeof sev, "%.1f", security_severity(r->severity));
    bw_rule_help_uri(r, uri, sizeof uri);
    json_t *tags = json_pack("[s,s,s]", "security", r->category, cwe_tag);
    if (tags && r->owasp_llm)
        json_array_append_new(tags, json_sprintf("owasp-llm-2025/%s", r->owasp_llm));
    return json_pack("{s:s,s:s,s:{s:s},s:{s:s},s:s,s:{s:s,s:o},s:{s:s},s:{s:o,s:s,s:s}}", "id", r->id, "name", r->id,
                     "shortDescription", "text", r->title, "fullDescription", "text", r->description, "helpUri", uri,
                     "help", "text", r->remediation, "markdown", help_markdown(r), "defaultConfiguration", "level",
                     bw_sarif_level(r->severity), "properties", "tags", tags, "security-severity", sev, "precision",
                     "high");
}

json_t *bw_sarif_finding_tags(const struct bw_finding *x)
{
    if (!x->owasp_llm || (x->rule->owasp_llm && strcmp(x->owasp_llm, x->rule->owasp_llm) == 0))
        return NULL;
    return json_pack("[o]", json_sprintf("owasp-llm-2025/%s", x->owasp_llm));
}

json_t *bw_sarif_code_flows(const struct bw_finding *x, const json_t *artifact)
{
    if (!x->ntrace)
        return NULL;
    static const char *const what[] = {"", "untrusted data enters here", "it flows on here",
                                       "and reaches the sink here"};
    json_t *locs = json_array();
    for (uint8_t i = 0; locs && i < x->ntrace; i++) {
        const struct bw_trace_step *st = &x->trace[i];
        json_t *l = json_pack("{s:{s:{s:O,s:{s:i,s:i,s:i}},s:{s:s}},s:[s]}", "location", "physicalLocation",
                              "artifactLocation", artifact, "region", "startLine", (json_int_t)st->line,
                              "startColumn", (json_int_t)st->column, "endLine", (json_int_t)st->end_line, "message",
                              "text", what[st->kind <= 3 ? st->kind : 2], "kinds", bw_trace_kind_name(st->kind));
        if (json_array_append_new(locs, l) != 0) {
            json_decref(locs);
            return NULL;
        }
    }
    return locs ? json_pack("[{s:[{s:o}]}]", "threadFlows", "locations", locs) : NULL;
}

json_t *bw_sarif_log_one(const struct bw_finding *v, size_t n, const char *uri, json_t *props)
{
    json_t *rules = json_array(), *results = json_array(), *artifact = json_pack("{s:s}", "uri", uri);
    const struct bw_rule **named = calloc(n ? n : 1, sizeof *named);
    size_t nnamed = 0;
    if (!rules || !results || !artifact || !named)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        const struct bw_finding *x = &v[i];
        size_t ri = 0;
        while (ri < nnamed && named[ri] != x->rule)
            ri++;
        if (ri == nnamed) {
            named[nnamed++] = x->rule;
            if (json_array_append_new(rules, bw_sarif_rule(x->rule)) != 0) /* ruleIndex must stay true */
                goto fail;
        }
        json_t *res = json_pack("{s:s,s:i,s:s,s:{s:s},s:[{s:{s:O,s:{s:i,s:i,s:i,s:{s:o}}}}]}", "ruleId", x->rule->id,
                                "ruleIndex", (json_int_t)ri, "level", bw_sarif_level(x->severity), "message", "text",
                                x->rule->title, "locations", "physicalLocation", "artifactLocation", artifact, "region",
                                "startLine", (json_int_t)x->line, "startColumn", (json_int_t)x->column, "endLine",
                                (json_int_t)x->end_line, "snippet", "text", bw_utf8_json(x->snippet));
        json_t *tags = res ? bw_sarif_finding_tags(x) : NULL;
        if (tags && json_object_set_new(res, "properties", json_pack("{s:o}", "tags", tags)) != 0)
            res = (json_decref(res), NULL);
        json_t *flows = res ? bw_sarif_code_flows(x, artifact) : NULL;
        if (flows && json_object_set_new(res, "codeFlows", flows) != 0)
            res = (json_decref(res), NULL);
        if (!res || json_array_append_new(results, res) != 0)
            goto fail;
    }
    free(named);
    json_decref(artifact);
    json_t *log = json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:s,s:s,s:o}},s:s,s:o}]}", "$schema",
                            "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool",
                            "driver", "name", "bulwark", "version", BULWARK_VERSION, "semanticVersion",
                            BULWARK_VERSION, "informationUri", "https://github.com/bulwark-security/bulwark", "rules",
                            rules, "columnKind", "unicodeCodePoints", "results", results);
    if (log && props)
        json_object_set_new(json_array_get(json_object_get(log, "runs"), 0), "properties", props);
    else
        json_decref(props);
    return log;
fail:
    free(named);
    json_decref(artifact);
    json_decref(rules);
    json_decref(results);
    json_decref(props);
    return NULL;
}
