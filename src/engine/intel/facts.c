/* One reading of a record's facts for the generators (facts.h). */
#include "engine/intel/facts.h"
#include "common/jsonx.h"

#include "common/limits.h"
#include "engine/intel/intel.h"

#include <string.h>

_Static_assert(BW_FACTS_OTHER == BW_INTEL_NTYPES, "one bw_facts_type per record type, then OTHER");

const char *const bw_facts_impact_names[BW_FACTS_NIMPACTS] = {
    "agentic", "tool_execution", "model_supply_chain", "data_exposure", "prompt_injection", "model_theft",
    "availability",
};

static const json_t *array(const json_t *o, const char *k)
{
    const json_t *a = json_object_get(o, k);
    return json_is_array(a) ? a : NULL;
}

/* ASCII case-insensitive equality, locale-free (strcasecmp follows the locale). */
static bool ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

static int severity_index(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (ieq(s, bw_intel_severities[i]))
            return i;
    return -1;
}

void bw_facts_read(struct bw_facts *f, const json_t *rec)
{
    memset(f, 0, sizeof *f);
    f->id = bw_json_str(rec, "id");
    f->title = bw_json_str(rec, "title");
    f->summary = bw_json_str(rec, "summary");
    f->published = bw_json_str(rec, "published");
    f->updated = bw_json_str(rec, "updated");
    const char *type = bw_json_str(rec, "type");
    f->type = BW_FACTS_OTHER;
    for (int i = 0; i < BW_INTEL_NTYPES; i++)
        if (strcmp(type, bw_intel_types[i]) == 0)
            f->type = (enum bw_facts_type)i;
    f->severity = severity_index(bw_json_str(rec, "severity"));
    f->risk_tier = severity_index(bw_json_str(rec, "risk_tier"));

    size_t i;
    const json_t *v;
    json_array_foreach(array(rec, "ai_impact"), i, v) {
        const char *s = json_string_value(v);
        if (i >= BW_INTEL_FACTS_MAX_IMPACTS)
            break;
        for (unsigned k = 0; s && k < BW_FACTS_NIMPACTS; k++)
            if (strcmp(s, bw_facts_impact_names[k]) == 0)
                f->impacts |= 1u << k;
    }

    f->kev = json_is_true(json_object_get(rec, "kev"));
    f->exploit = f->kev || json_is_true(json_object_get(rec, "exploit_available"));
    const json_t *kd = json_object_get(rec, "kev_details");
    f->kev_details = json_is_object(kd) ? kd : NULL;
    f->kev_vendor = bw_json_str(f->kev_details, "vendor");
    f->kev_product = bw_json_str(f->kev_details, "product");
    f->kev_added = bw_json_str(f->kev_details, "date_added");
    f->kev_due = bw_json_str(f->kev_details, "due_date");
    f->kev_action = bw_json_str(f->kev_details, "required_action");
    f->kev_ransomware = bw_json_str(f->kev_details, "ransomware_use");

    f->cve = array(rec, "cve");
    f->cwe = array(rec, "cwe");
    f->attack = array(rec, "attack_techniques");
    f->atlas = array(rec, "atlas_techniques");
    f->affected = array(rec, "affected");
    f->references = array(rec, "references");
    f->aliases = array(rec, "aliases");
}

size_t bw_facts_ids(const json_t *list, bool (*valid)(const char *), size_t scan, size_t max, const char **out)
{
    size_t n = 0, i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        if (i >= scan || n >= max)
            break;
        const char *s = json_string_value(v);
        bool dup = false;
        for (size_t k = 0; s && k < n && !dup; k++)
            dup = strcmp(out[k], s) == 0;
        if (s && !dup && valid(s))
            out[n++] = s;
    }
    return n;
}
