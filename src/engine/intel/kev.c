/* CISA Known Exploited Vulnerabilities catalog (JSON, schema in kev-data) -> records. */
#include "engine/intel/ids.h"
#include "engine/intel/normalize.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* AI/ML products, matched as whole words against KEV's vendorProject and product. The catalog
 * of 2025-08-25 has one such entry (Langflow); the list names the AI serving, orchestration and
 * notebook products whose entries would belong in an AI threat feed when CISA adds them. */
const char *const bw_intel_kev_keywords[] = {
    "Langflow", "LangChain", "LlamaIndex", "Flowise",  "Dify",     "AnythingLLM", "Open WebUI", "Ollama",
    "LocalAI",  "vLLM",      "Ray",        "Anyscale", "MLflow",   "Kubeflow",    "ClearML",    "BentoML",
    "H2O",      "MindsDB",   "Gradio",     "ComfyUI",  "Jupyter",  "TensorFlow",  "PyTorch",    "ONNX",
    "PaddlePaddle", "Triton Inference Server", "NeMo", "Hugging Face", "OpenAI", NULL};

static bool word_in(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strcasestr(text, word); p; p = strcasestr(p + 1, word)) {
        bool left = p == text || !isalnum((unsigned char)p[-1]);
        bool right = !isalnum((unsigned char)p[n]);
        if (left && right)
            return true;
    }
    return false;
}

bool bw_intel_kev_is_ai(const json_t *record)
{
    const json_t *kd = json_object_get(record, "kev_details");
    const char *vendor = json_string_value(json_object_get(kd, "vendor"));
    const char *product = json_string_value(json_object_get(kd, "product"));
    for (size_t i = 0; bw_intel_kev_keywords[i]; i++)
        if ((vendor && word_in(vendor, bw_intel_kev_keywords[i])) ||
            (product && word_in(product, bw_intel_kev_keywords[i])))
            return true;
    return false;
}

/* URLs named in KEV's free-text notes ("... see: https://a ; https://b") */
static void note_refs(json_t *rec, const char *notes)
{
    char url[1024];
    for (const char *p = notes ? strstr(notes, "http") : NULL; p; p = strstr(p + 1, "http")) {
        if (strncmp(p, "https://", 8) != 0 && strncmp(p, "http://", 7) != 0)
            continue;
        size_t n = strcspn(p, " ;\t\r\n\"");
        if (n >= sizeof url)
            continue;
        memcpy(url, p, n);
        url[n] = '\0';
        const char *kind = strstr(url, "nvd.nist.gov") ? "nvd"
                           : strstr(url, "/advisories/") || strstr(url, "/security/advisories") ? "advisory"
                                                                                                 : "web";
        bw_rec_add_ref(rec, url, kind);
        p += n - 1;
    }
}

static int entry(struct bw_src *s, const json_t *list, size_t idx, json_t **out)
{
    char where[48];
    if (bw_src_item(s, list, idx, "vulnerabilities", where, sizeof where) != 0)
        return -1;
    const json_t *v = json_array_get(list, idx);
    const char *cve, *vendor, *product, *name, *desc, *action, *ransom = NULL, *notes = NULL;
    char added[21], due[21];
    json_t *cwes = NULL;
    if (bw_src_str(s, v, "cveID", true, where, &cve) || bw_src_str(s, v, "vendorProject", true, where, &vendor) ||
        bw_src_str(s, v, "product", true, where, &product) ||
        bw_src_str(s, v, "vulnerabilityName", true, where, &name) ||
        bw_src_date(s, v, "dateAdded", true, where, added) ||
        bw_src_str(s, v, "shortDescription", true, where, &desc) ||
        bw_src_str(s, v, "requiredAction", true, where, &action) || bw_src_date(s, v, "dueDate", false, where, due) ||
        bw_src_str(s, v, "knownRansomwareCampaignUse", false, where, &ransom) ||
        bw_src_str(s, v, "notes", false, where, &notes) || bw_src_arr(s, v, "cwes", false, where, &cwes))
        return -1;
    if (!bw_cve_shape(cve, BW_INTEL_CVE_SEQ_IMPORT))
        return bw_src_fail(s, json_object_get(v, "cveID"), v, "%s: 'cveID' is not a CVE id (CVE-YYYY-NNNN)", where);
    char text[4096];
    snprintf(text, sizeof text, "%s. %s", name, desc);
    const char *type = bw_model_artifact(text, product) ? "model_advisory" : "ai_cve";
    json_t *r = bw_rec_new(cve, type, "kev");
    if (!r)
        return bw_src_fail(s, v, NULL, "out of memory");
    size_t i;
    json_t *c;
    json_array_foreach(cwes, i, c) {
        const char *w = json_string_value(c);
        if (bw_cwe_parse(w, BW_INTEL_CWE_DIGITS_IMPORT) < 0) {
            json_decref(r);
            return bw_src_fail(s, c, cwes, "%s: cwes[%zu] is not a CWE id (CWE-N)", where, i);
        }
        bw_rec_add(r, "cwe", w);
    }
    bw_rec_str(r, "title", name);
    bw_rec_add(r, "cve", cve);
    json_object_set_new(r, "kev", json_true());
    json_object_set_new(r, "exploit_available", json_true());
    json_object_set_new(r, "kev_details",
                        json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "date_added", added, "due_date", due, "required_action",
                                  action, "ransomware_use", ransom ? ransom : "Unknown", "vendor", vendor, "product",
                                  product));
    bw_rec_str(r, "published", added);
    bw_rec_str(r, "updated", added);
    bw_rec_add_affected(r, vendor, product, "", "", "", "");
    const char *sev;
    struct bw_text_class cls = bw_classify(r, text, &sev);
    /* exploited in the wild against reachable services */
    if (bw_text_has(text, "remote") || bw_text_has(text, "unauthenticated") || bw_text_has(text, "http")) {
        bw_rec_add(r, "attack_techniques", "T1190");
        bw_rec_add(r, "atlas_techniques", "AML.T0049");
    }
    if (bw_llm_framework(product) || bw_llm_framework(vendor))
        bw_rec_impact(r, "agentic");
    if (strcmp(type, "model_advisory") == 0)
        bw_rec_impact(r, "model_supply_chain");
    bw_rec_normalise(r);
    bool exec = false;
    json_array_foreach(json_object_get(r, "ai_impact"), i, c)
        exec |= strcmp(json_string_value(c), "tool_execution") == 0;
    bw_rec_str(r, "severity", exec ? "CRITICAL" : bw_sev_max(sev, "HIGH"));
    char nvd[96], summary[1024], label[64];
    snprintf(nvd, sizeof nvd, "https://nvd.nist.gov/vuln/detail/%s", cve);
    bw_rec_add_ref(r, nvd, "nvd");
    bw_rec_add_ref(r, "https://www.cisa.gov/known-exploited-vulnerabilities-catalog", "kev");
    note_refs(r, notes);
    snprintf(label, sizeof label, "%s", cls.label);
    label[0] = (char)toupper((unsigned char)label[0]);
    char product_name[600];
    if (strcasecmp(vendor, product) == 0 || strncasecmp(product, vendor, strlen(vendor)) == 0)
        snprintf(product_name, sizeof product_name, "%s", product);
    else
        snprintf(product_name, sizeof product_name, "%s %s", vendor, product);
    snprintf(summary, sizeof summary,
             "%s in %s, exploited in the wild: listed in CISA KEV since %.10s%s%.10s%s. %s", label, product_name,
             added, due[0] ? ", remediation due " : "", due,
             ransom && strcmp(ransom, "Known") == 0 ? ", known to be used in ransomware campaigns" : "", cls.sentence);
    bw_rec_str(r, "summary", summary);
    bw_rec_normalise(r);
    *out = r;
    return 0;
}

int bw_intel_kev(const struct bw_tree *t, json_t **out, struct bw_intel_reject *rej)
{
    struct bw_src s = {t, rej};
    *out = NULL;
    if (!json_is_object(t->root))
        return bw_src_fail(&s, t->root, NULL, "a KEV catalog must be a JSON object");
    json_t *vulns;
    if (bw_src_arr(&s, t->root, "vulnerabilities", true, "catalog", &vulns) != 0)
        return -1;
    json_t *all = json_array();
    if (!all)
        return bw_src_fail(&s, NULL, NULL, "out of memory");
    size_t i;
    json_t *v;
    json_array_foreach(vulns, i, v) {
        json_t *r = NULL;
        if (entry(&s, vulns, i, &r) != 0) {
            json_decref(all);
            return -1;
        }
        json_array_append_new(all, r);
    }
    *out = all;
    return 0;
}
