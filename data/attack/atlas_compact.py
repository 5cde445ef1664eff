#!/usr/bin/env python3
"""Writes data/attack/atlas-compact.json from a MITRE ATLAS release (ATLAS.yaml).

Only ids, names, relations and links are kept (tactics with their ATT&CK tactic, techniques with
their tactics and ATT&CK reference, mitigations and which techniques they mitigate): the
playbook generator needs the structure, not the prose. Output is sorted so that the same release
always gives the same bytes.

usage: python3 data/attack/atlas_compact.py ATLAS.yaml SOURCE-LINE > data/attack/atlas-compact.json
"""
import json
import sys

import yaml


def main():
    doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
    source = sys.argv[2]
    matrix = doc["matrices"][0]
    tactics = []
    for t in matrix["tactics"]:  # matrix order, as ATLAS publishes it
        ref = t.get("ATT&CK-reference") or {}
        tactics.append({"id": t["id"], "name": t["name"], "attack_tactic": ref.get("id"),
                        "url": "https://atlas.mitre.org/tactics/" + t["id"]})
    techniques = []
    for t in matrix["techniques"]:
        ref = t.get("ATT&CK-reference") or {}
        techniques.append({"id": t["id"], "name": t["name"], "tactics": t.get("tactics", []),
                           "subtechnique_of": t.get("subtechnique-of"),
                           "attack_reference": ref.get("id"),
                           "url": "https://atlas.mitre.org/techniques/" + t["id"]})
    techniques.sort(key=lambda t: t["id"])
    mitigations, pairs = [], set()
    for m in matrix["mitigations"]:
        mitigations.append({"id": m["id"], "name": m["name"],
                            "url": "https://atlas.mitre.org/mitigations/" + m["id"]})
        for t in m.get("techniques", []):
            pairs.add((t["id"] if isinstance(t, dict) else t, m["id"]))
    mitigations.sort(key=lambda m: m["id"])
    out = {"source": source, "licence": "Apache-2.0 (data/attack/LICENSE-ATLAS)",
           "tactics": tactics, "techniques": techniques, "mitigations": mitigations,
           "technique_mitigations": [list(p) for p in sorted(pairs)]}
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
