/* The reports of `bulwark scan`: text, bulwark JSON, SARIF 2.1.0 (paths relative to the report
 * root, rules with helpUri and help.markdown, baselineState, invocations), GitLab's SAST report
 * format (15.x) and JUnit XML. Rendering only: what is in the report was decided in scan.c. */
#include "cli/scan.h"
#include "engine/code/sarif.h"
#include "common/utf8.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* path percent-encoded as RFC 3986 wants in a URI path: unreserved characters and '/' stay. */
static json_t *uri_json(const char *prefix, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t pl = strlen(prefix), n = strlen(path);
    char *u = malloc(pl + 3 * n + 1);
    if (!u)
        return NULL;
    memcpy(u, prefix, pl);
    size_t o = pl;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((isalnum(*p) && *p < 0x80) || strchr("-._~/", *p)) {
            u[o++] = (char)*p;
        } else {
            u[o++] = '%';
            u[o++] = hex[*p >> 4];
            u[o++] = hex[*p & 15];
        }
    }
    json_t *j = json_stringn(u, o);
    free(u);
    return j;
}

/* Relative paths go under %SRCROOT% (the report root, which GitHub maps onto the repository);
 * files outside it keep an absolute file URI. */
static json_t *artifact_location(const char *rel)
{
    if (rel[0] == '/')
        return json_pack("{s:o}", "uri", uri_json("file://", rel));
    return json_pack("{s:o,s:s}", "uri", uri_json("", rel), "uriBaseId", "%SRCROOT%");
}

/* A taint finding's trace as SARIF codeFlows: one thread flow from the source to the sink, each
 * step a location in the finding's file with what happened there. NULL without a trace, and for
 * notebook cells (the trace's lines are the cell's, not the file's). */
static json_t *code_flows(const struct bw_scan_item *it)
{
    if (!it->x->ntrace || it->cell)
        return NULL;
    json_t *artifact = artifact_location(it->rel);
    json_t *flows = artifact ? bw_sarif_code_flows(it->x, artifact) : NULL;
    json_decref(artifact);
    return flows;
}

json_t *bw_report_sarif(const struct bw_scan_report *r)
{
    json_t *rules = json_array(), *results = json_array();
    size_t nr = bw_scanner_rule_count(r->sc);
    for (size_t i = 0; i <= nr; i++) {
        const struct bw_rule *rule = i < nr ? bw_scanner_rule(r->sc, i) : bw_scan_shell_rule();
        json_t *j = bw_sarif_rule(rule);
        if (!j || json_array_append_new(rules, j) != 0) { /* ruleIndex would point at the wrong rule */
            fprintf(stderr, "bulwark scan: rule %s: the SARIF rule cannot be built\n", rule->id);
            goto fail;
        }
    }
    for (size_t i = 0; i < r->n; i++) {
        const struct bw_scan_item *it = &r->items[i];
        size_t ri = 0;
        while (ri < nr && bw_scanner_rule(r->sc, ri) != it->x->rule)
            ri++;
        json_t *region = json_pack("{s:i,s:i,s:i,s:{s:o}}", "startLine", (json_int_t)it->line, "startColumn",
                                   (json_int_t)(it->cell ? 1 : it->x->column), "endLine", (json_int_t)it->end_line,
                                   "snippet", "text", bw_utf8_json(it->x->snippet));
        json_t *msg = it->cell ? json_sprintf("%s (cell %u line %u)", it->x->rule->title, it->cell, it->cell_line)
                               : json_string(it->x->rule->title);
        json_t *res = json_pack("{s:s,s:i,s:s,s:{s:o},s:[{s:{s:o,s:o}}],s:{s:s,s:s}}", "ruleId", it->x->rule->id,
                                "ruleIndex", (json_int_t)ri, "level", bw_sarif_level(it->severity), "message", "text", msg,
                                "locations", "physicalLocation", "artifactLocation", artifact_location(it->rel),
                                "region", region, "partialFingerprints", "bulwark/v1", it->fp,
                                "primaryLocationLineHash", it->fp);
        if (res && it->cell)
            json_object_set_new(res, "properties", json_pack("{s:i,s:i}", "cell", (json_int_t)it->cell, "cellLine",
                                                              (json_int_t)it->cell_line));
        json_t *tags = res ? bw_sarif_finding_tags(it->x) : NULL;
        if (tags) { /* a model's reply reached the sink: LLM05 on this result */
            json_t *props = json_object_get(res, "properties");
            if (!props && json_object_set_new(res, "properties", props = json_object()) != 0)
                props = NULL;
            if (!props || json_object_set_new(props, "tags", tags) != 0)
                res = (json_decref(res), NULL);
        }
        if (res && it->state)
            json_object_set_new(res, "baselineState", json_string(it->state));
        json_t *flows = res ? code_flows(it) : NULL;
        if (flows && json_object_set_new(res, "codeFlows", flows) != 0)
            res = (json_decref(res), NULL);
        if (!res || json_array_append_new(results, res) != 0) {
            fprintf(stderr, "bulwark scan: %s:%u: the SARIF result cannot be built\n", it->rel, it->line);
            goto fail;
        }
    }
    size_t i;
    json_t *a;
    json_array_foreach(r->absent, i, a) {
        json_t *res = json_deep_copy(a);
        if (res && json_object_get(res, "runs") == NULL && json_object_get(res, "ruleId")) {
            json_object_del(res, "ruleIndex"); /* the old run's index */
            json_object_set_new(res, "baselineState", json_string("absent"));
        } else if (res) { /* a bulwark JSON finding: rebuilt as a result */
            json_t *f = res;
            res = json_pack("{s:O,s:{s:O},s:[{s:{s:o,s:{s:O}}}],s:{s:O},s:s}", "ruleId", json_object_get(f, "rule_id"),
                            "message", "text", json_object_get(f, "title"), "locations", "physicalLocation",
                            "artifactLocation", artifact_location(json_string_value(json_object_get(f, "path"))),
                            "region", "startLine", json_object_get(f, "line"), "partialFingerprints", "bulwark/v1",
                            json_object_get(f, "fingerprint"), "baselineState", "absent");
            json_decref(f);
        }
        if (!res || json_array_append_new(results, res) != 0) {
            fprintf(stderr, "bulwark scan: an absent baseline result cannot be built\n");
            goto fail;
        }
    }
    json_t *notes = json_array();
    json_array_foreach(r->notes, i, a)
        json_array_append_new(notes, json_pack("{s:{s:O},s:s}", "message", "text", a, "level", "note"));
    char root_uri[4200];
    snprintf(root_uri, sizeof root_uri, "%s/", r->root);
    return json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:s,s:s,s:o}},s:{s:{s:o}},s:[{s:b,s:i,s:o,s:o,s:o}],s:s,s:o}]}",
                     "$schema", "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool",
                     "driver", "name", "bulwark", "version", BULWARK_VERSION, "semanticVersion", BULWARK_VERSION,
                     "informationUri", "https://github.com/bulwark-security/bulwark", "rules", rules,
                     "originalUriBaseIds", "%SRCROOT%", "uri", uri_json("file://", root_uri), "invocations",
                     "executionSuccessful", r->exit_code != 2, "exitCode", r->exit_code, "startTimeUtc",
                     json_sprintf("%sZ", r->start), "endTimeUtc", json_sprintf("%sZ", r->end), "toolExecutionNotifications", notes, "columnKind", "unicodeCodePoints",
                     "results", results);
fail:
    json_decref(rules);
    json_decref(results);
    return NULL;
}

json_t *bw_report_json(const struct bw_scan_report *r)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < r->n; i++) {
        const struct bw_scan_item *it = &r->items[i];
        const struct bw_finding *x = it->x;
        json_t *o = json_pack("{s:o,s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:o,s:s,s:s}", "path", bw_utf8_json(it->shown),
                              "rule_id", x->rule->id, "title", x->rule->title, "severity", bw_sev_name(it->severity),
                              "category", x->rule->category, "cwe", x->rule->cwe, "line", (json_int_t)it->line,
                              "column", (json_int_t)x->column, "end_line", (json_int_t)it->end_line, "snippet",
                              bw_utf8_json(x->snippet), "remediation", x->rule->remediation, "fingerprint", it->fp);
        if (o && x->owasp_llm)
            json_object_set_new(o, "owasp_llm", json_string(x->owasp_llm));
        if (o && it->cell) {
            json_object_set_new(o, "cell", json_integer(it->cell));
            json_object_set_new(o, "cell_line", json_integer(it->cell_line));
        }
        if (o && it->state)
            json_object_set_new(o, "baseline_state", json_string(it->state));
        json_t *trace = o ? bw_finding_trace_json(x) : NULL;
        if (trace && json_object_set_new(o, "trace", trace) != 0)
            o = (json_decref(o), NULL);
        if (!o || json_array_append_new(arr, o) != 0) {
            fprintf(stderr, "bulwark scan: %s:%u: the JSON finding cannot be built\n", it->shown, it->line);
            json_decref(arr);
            return NULL;
        }
    }
    /* "o" for absent: a fresh empty array is handed over, a kept one gains a reference */
    return json_pack("{s:s,s:i,s:i,s:i,s:i,s:o,s:{s:i,s:i,s:i,s:i},s:b,s:O,s:o,s:i}", "tool", "bulwark " BULWARK_VERSION,
                     "files_scanned", (json_int_t)r->scanned, "files_skipped", (json_int_t)r->skipped, "files_parsed",
                     (json_int_t)r->parsed, "bytes_scanned",
                     (json_int_t)r->bytes, "findings", arr, "summary", "critical", r->counts[4], "high", r->counts[3],
                     "medium", r->counts[2], "low", r->counts[1], "truncated", json_array_size(r->truncated) > 0,
                     "truncated_files", r->truncated, "absent", r->absent ? json_incref(r->absent) : json_array(), "exit_code",
                     r->exit_code);
}

/* GitLab's severities are capitalised: Critical, High, Medium, Low (Info, Unknown unused). */
static const char *gl_sev(int s)
{
    static const char *const v[] = {"Unknown", "Low", "Medium", "High", "Critical"};
    return v[s];
}

json_t *bw_report_gitlab(const struct bw_scan_report *r)
{
    json_t *vulns = json_array();
    for (size_t i = 0; i < r->n; i++) {
        const struct bw_scan_item *it = &r->items[i];
        const struct bw_rule *ru = it->x->rule;
        char uri[256], name[256];
        bw_rule_help_uri(ru, uri, sizeof uri);
        snprintf(name, sizeof name, "%s", ru->title); /* GitLab: name at most 255 characters */
        /* id: the fingerprint makes it stable across pipelines, as GitLab uses it to track */
        json_t *v = json_pack("{s:s,s:s,s:s,s:s,s:s,s:[{s:s,s:s,s:s,s:s},{s:s,s:s,s:s,s:s}],s:{s:o,s:i,s:i}}", "id",
                              it->fp, "name", name, "description", ru->description, "severity", gl_sev(it->severity),
                              "solution", ru->remediation, "identifiers", "type", "bulwark_rule_id", "name", ru->id,
                              "value", ru->id, "url", uri, "type", "cwe", "name", ru->cwe, "value", ru->cwe + 4, "url",
                              "https://cwe.mitre.org/data/definitions/", "location", "file", bw_utf8_json(it->rel),
                              "start_line", (json_int_t)it->line, "end_line", (json_int_t)it->end_line);
        if (v) { /* the CWE page of this very weakness */
            json_t *cwe = json_array_get(json_object_get(v, "identifiers"), 1);
            json_object_set_new(cwe, "url", json_sprintf("https://cwe.mitre.org/data/definitions/%s.html", ru->cwe + 4));
        }
        if (!v || json_array_append_new(vulns, v) != 0) {
            json_decref(vulns);
            return NULL;
        }
    }
    return json_pack("{s:s,s:o,s:{s:{s:s,s:s,s:s,s:{s:s}},s:{s:s,s:s,s:s,s:{s:s}},s:s,s:s,s:s,s:s}}", "version",
                     "15.0.7", "vulnerabilities", vulns, "scan", "analyzer", "id", "bulwark", "name", "bulwark",
                     "version", BULWARK_VERSION, "vendor", "name", "bulwark", "scanner", "id", "bulwark", "name",
                     "bulwark", "version", BULWARK_VERSION, "vendor", "name", "bulwark", "type", "sast", "start_time",
                     r->start, "end_time", r->end, "status", r->exit_code == 2 ? "failure" : "success");
}

static void xml_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* XML 1.0 forbids most control characters even as references */
            if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
                fputc('?', f);
            else
                fputc(*p, f);
        }
    }
}

char *bw_report_junit(const struct bw_scan_report *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    size_t tests = r->n ? r->n : 1;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bulwark scan\" tests=\"%zu\" failures=\"%zu\">\n"
               "  <testsuite name=\"bulwark\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
            tests, r->n, tests, r->n);
    if (r->n == 0)
        fprintf(f, "    <testcase classname=\"bulwark\" name=\"%zu files scanned, no findings\"/>\n", r->scanned);
    for (size_t i = 0; i < r->n; i++) {
        const struct bw_scan_item *it = &r->items[i];
        fputs("    <testcase classname=\"", f);
        xml_text(f, it->shown);
        fprintf(f, "\" name=\"%s line %u\" file=\"", it->x->rule->id, it->line);
        xml_text(f, it->rel);
        fprintf(f, "\" line=\"%u\">\n      <failure type=\"%s\" message=\"", it->line, bw_sev_name(it->severity));
        xml_text(f, it->x->rule->title);
        fputs("\">", f);
        xml_text(f, it->rel);
        fprintf(f, ":%u: %s %s [%s]\n", it->line, bw_sev_name(it->severity), it->x->rule->id, it->x->rule->cwe);
        xml_text(f, it->x->snippet);
        fputs("\n", f);
        xml_text(f, it->x->rule->remediation);
        fputs("</failure>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

void bw_report_text(FILE *out, const struct bw_scan_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const struct bw_scan_item *it = &r->items[i];
        const struct bw_finding *x = it->x;
        if (it->cell)
            fprintf(out, "%s:cell %u line %u: ", it->shown, it->cell, it->cell_line);
        else
            fprintf(out, "%s:%u:%u: ", it->shown, it->line, x->column);
        fprintf(out, "%s %s %s [%s]\n    %s\n", bw_sev_name(it->severity), x->rule->id, x->rule->title, x->rule->cwe,
                x->snippet);
    }
    fprintf(out, "%zu file%s scanned, %d critical, %d high, %d medium, %d low", r->scanned, r->scanned == 1 ? "" : "s",
            r->counts[4], r->counts[3], r->counts[2], r->counts[1]);
    /* how many files needed a syntax tree: what a syntax or taint rule's prefilter cost */
    if (r->parsed)
        fprintf(out, " (%zu parsed for syntax and taint rules)", r->parsed);
    if (r->skipped)
        fprintf(out, " (%zu skipped: binary, generated, lockfiles or named files not scanned)", r->skipped);
    fputc('\n', out);
}
