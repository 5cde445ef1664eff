#!/usr/bin/env python3
"""Writes docs/rules/CATEGORY.md, one page per category of the rule catalog (data/rules/*.json),
which the SARIF helpUri of each rule points at (docs/rules/CATEGORY.md#rule-id), plus BW-SH-001,
the piped-download check of src/cli/scan_files.c. Usage: tools/gen_rule_docs.py [--check]
(--check: exit 1, naming the page, when a page differs from what the catalog gives)."""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHELL_RULE = {  # keep in step with SHELL_RULE in src/cli/scan_files.c
    "id": "BW-SH-001", "title": "Downloaded script piped straight into a shell or interpreter",
    "severity": "MEDIUM", "cwe": "CWE-494", "languages": ["shell scripts", "Dockerfiles"],
    "description": "A script is fetched with curl or wget and piped into sh, bash or an interpreter: whatever the "
                   "server (or anyone between it and the build) sends at that moment runs with the build's rights, "
                   "with no pinned version and no integrity check.",
    "remediation": "Download to a file, check it against a pinned SHA-256 (sha256sum -c) or a signature, then run "
                   "it; better, install a pinned package.",
}


def page(category, rules):
    out = [f"# {category} rules", "",
           f"Generated from `data/rules/{category}.json` by `tools/gen_rule_docs.py`; do not edit by hand.",
           "Each heading is the page `bulwark scan --format sarif` links as the rule's `helpUri`.", ""]
    for r in rules:
        langs = ", ".join(r.get("languages", []))
        out += [f"## {r['id']}", "", f"**{r['title']}**", "",
                f"- Severity: {r['severity']}", f"- Weakness: [{r['cwe']}](https://cwe.mitre.org/data/definitions/{r['cwe'][4:]}.html)",
                f"- Languages: {langs}"]
        if r.get("owasp_llm"):
            out.append(f"- OWASP Top 10 for LLM applications: {r['owasp_llm']}")
        out += ["", r["description"], "", f"**Fix:** {r['remediation']}", "",
                f"Silence one finding with a `bulwark-ignore:{r['id']}` comment on its line, or accept the",
                "existing ones with `--baseline`; switch the rule off in `.bulwark.yml` (`rules: {disable: [...]}`).", ""]
    return "\n".join(out)


def pages():
    cats = {}
    for f in sorted((ROOT / "data" / "rules").glob("*.json")):
        doc = json.loads(f.read_text())
        cats[doc["category"]] = doc["rules"]
    cats.setdefault("supply_chain", []).append(SHELL_RULE)
    return {f"{c}.md": page(c, rs) for c, rs in cats.items()}


def main():
    check = "--check" in sys.argv
    out = ROOT / "docs" / "rules"
    out.mkdir(parents=True, exist_ok=True)
    want = pages()
    bad = [n for n, t in want.items() if not (out / n).exists() or (out / n).read_text() != t]
    bad += [p.name for p in out.glob("*.md") if p.name not in want and p.name != "README.md"]
    if check:
        for n in bad:
            print(f"docs/rules/{n}: differs from the catalog (run tools/gen_rule_docs.py)", file=sys.stderr)
        return 1 if bad else 0
    for n, t in want.items():
        (out / n).write_text(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
