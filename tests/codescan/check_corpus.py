#!/usr/bin/env python3
"""Keeps the labelled code-scanner corpus (tests/data/codescan) from rotting; ctest unit.codescan_corpus.

usage: check_corpus.py [--doc DOC.md [--write-counts]] CORPUS_DIR FAMILIES_JSON [BULWARK_BIN]

Checks that labels.jsonl is well formed (every label names an existing corpus file of the vuln/
kind, a line inside it whose text starts with the label's `code`, a CWE whose family in
bench/cwe_families.json is the label's `family`, a known class, the file's language and a
severity), that every vuln/ file carries a label and no safe/ or near/ file does, and that every
file has an extension the scanner reads. With BULWARK_BIN it also runs `bulwark scan --format
json` over the corpus and checks that it exits 0 or 1, that every corpus file was scanned and
that every finding points into the corpus. It judges no finding: recall and noise are measured
by bench/codescan_quality.sh, not tested.

With --doc it also checks that the counts table of DOC.md (between the `<!-- counts:begin -->` and
`<!-- counts:end -->` lines) is the one the corpus gives, so the documentation cannot drift from
the labels; --write-counts rewrites that table instead (after adding cases)."""
import json
import os
import subprocess
import sys

KINDS = ("vuln", "safe", "near")
LANGS = {"py": "py", "js": "js", "ts": "ts", "java": "java", "go": "go", "php": "php", "rb": "rb", "cs": "cs",
         "rs": "rs"}
EXT = {"py": "py", "pyw": "py", "js": "js", "mjs": "js", "cjs": "js", "jsx": "js", "ts": "ts", "tsx": "ts",
       "mts": "ts", "cts": "ts", "go": "go", "java": "java", "php": "php", "rb": "rb", "rake": "rb", "cs": "cs",
       "rs": "rs"}
CLASSES = {"ssrf", "path_traversal", "xxe", "xpath", "ldap", "timing", "csrf", "cors_origin", "open_redirect",
           "cookie", "jwt", "weak_prng", "deserialization", "command", "sql", "nosql", "code", "template", "secrets",
           "ai_llm", "xss", "tls", "crypto"}
SEVERITIES = {"LOW", "MEDIUM", "HIGH", "CRITICAL"}
FIELDS = {"file", "line", "cwe", "family", "class", "lang", "min_severity", "code", "note"}


COUNT_LANGS = ("py", "js", "ts", "tsx", "java", "go", "php", "rb", "cs", "rs")
BEGIN, END = "<!-- counts:begin -->", "<!-- counts:end -->"


def counts_table(corpus, labels, files):
    """The documentation's counts: labels per class and language, files per kind, severities, lines."""
    by = {}
    for lab in labels:
        by[(lab["class"], lab["lang"])] = by.get((lab["class"], lab["lang"]), 0) + 1

    def row(name, cells):
        total = sum(cells)
        return f"| {name} | " + " | ".join(str(c) if c else "·" for c in cells) + f" | {total} |"

    out = ["| class | " + " | ".join(COUNT_LANGS) + " | all |", "|---|" + "---:|" * (len(COUNT_LANGS) + 1)]
    for cls in sorted({lab["class"] for lab in labels}):
        out.append(row(cls, [by.get((cls, g), 0) for g in COUNT_LANGS]))
    out.append(row("**labels**", [sum(1 for lab in labels if lab["lang"] == g) for g in COUNT_LANGS]))
    lines = {k: 0 for k in KINDS}
    for kind in KINDS:
        cells = []
        for g in COUNT_LANGS:
            cells.append(sum(1 for f, (k, lang) in files.items()
                             if k == kind and ("tsx" if f.endswith(".tsx") else lang) == g))
        out.append(row(f"{kind}/ files", cells))
    for f, (kind, _lang) in files.items():
        with open(os.path.join(corpus, f), encoding="utf-8") as fh:
            lines[kind] += fh.read().count("\n")
    sev = {s: sum(1 for lab in labels if lab["min_severity"] == s) for s in ("CRITICAL", "HIGH", "MEDIUM", "LOW")}
    out.append("")
    out.append(", ".join(f"{n} labels ask for {s}" for s, n in sev.items() if n) +
               f"; {lines['vuln']:,} lines of vulnerable code, {lines['safe']:,} of safe code and "
               f"{lines['near']:,} of near-miss code.")
    return "\n".join(out)


def doc_counts(doc, table, write):
    """Checks (or rewrites) the table between the markers; returns an error or None."""
    with open(doc, encoding="utf-8") as fh:
        text = fh.read()
    if BEGIN not in text or END not in text:
        return f"{doc}: no {BEGIN} ... {END} block"
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    if old.strip() == table.strip():
        return None
    if write:
        with open(doc, "w", encoding="utf-8") as fh:
            fh.write(f"{head}{BEGIN}\n{table}\n{END}{tail}")
        print(f"codescan corpus: {doc}: counts rewritten")
        return None
    return (f"{doc}: the counts table is not the corpus's (run tests/codescan/check_corpus.py --doc {doc} "
            f"--write-counts ...)")


def main():
    args = sys.argv[1:]
    doc_path, write = None, False
    while args and args[0].startswith("--"):
        if args[0] == "--doc" and len(args) > 1:
            doc_path, args = args[1], args[2:]
        elif args[0] == "--write-counts":
            write, args = True, args[1:]
        else:
            sys.exit(__doc__)
    if len(args) not in (2, 3) or (write and not doc_path):
        sys.exit(__doc__)
    corpus, families_path = args[0], args[1]
    binary = args[2] if len(args) == 3 else None
    errors = []
    fam_of = {}
    for fam, d in json.load(open(families_path, encoding="utf-8"))["families"].items():
        for cwe in d["cwes"]:
            if cwe in fam_of:
                errors.append(f"{families_path}: {cwe} is in two families ({fam_of[cwe]}, {fam})")
            fam_of[cwe] = fam

    files = {}  # corpus-relative path -> (kind, lang)
    for lang in sorted(os.listdir(corpus)):
        if not os.path.isdir(os.path.join(corpus, lang)):
            continue
        if lang not in LANGS:
            errors.append(f"{lang}/: not a language folder ({', '.join(LANGS)})")
            continue
        for root, _dirs, names in os.walk(os.path.join(corpus, lang)):
            for name in names:
                if name == "README.md":
                    continue
                rel = os.path.relpath(os.path.join(root, name), corpus)
                parts = rel.split(os.sep)
                ext = name.rsplit(".", 1)[-1] if "." in name else ""
                if len(parts) != 3 or parts[1] not in KINDS:
                    errors.append(f"{rel}: corpus files are LANG/(vuln|safe|near)/NAME")
                elif EXT.get(ext) != lang:
                    errors.append(f"{rel}: extension .{ext} is not scanned as {lang}")
                else:
                    files[rel] = (parts[1], lang)

    labelled = set()
    good = []
    labels_path = os.path.join(corpus, "labels.jsonl")
    with open(labels_path, encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            where = f"labels.jsonl:{n}"
            try:
                lab = json.loads(raw)
            except ValueError as e:
                errors.append(f"{where}: not JSON ({e})")
                continue
            if set(lab) != FIELDS:
                errors.append(f"{where}: fields must be {sorted(FIELDS)}, not {sorted(lab)}")
                continue
            f = lab["file"]
            if f not in files:
                errors.append(f"{where}: {f}: no such corpus file")
                continue
            kind, lang = files[f]
            if kind != "vuln":
                errors.append(f"{where}: {f}: labels belong to vuln/ files only")
            want_lang = "tsx" if f.endswith(".tsx") else lang
            if lab["lang"] != want_lang:
                errors.append(f"{where}: lang {lab['lang']} but the file is {want_lang}")
            if fam_of.get(lab["cwe"]) != lab["family"]:
                errors.append(f"{where}: {lab['cwe']} is in family {fam_of.get(lab['cwe'])}, not {lab['family']}")
            if lab["class"] not in CLASSES:
                errors.append(f"{where}: unknown class {lab['class']}")
            if lab["min_severity"] not in SEVERITIES:
                errors.append(f"{where}: min_severity {lab['min_severity']}")
            with open(os.path.join(corpus, f), encoding="utf-8") as src:
                lines = src.read().split("\n")
            line = lab["line"]
            if not isinstance(line, int) or not 1 <= line <= len(lines):
                errors.append(f"{where}: {f} has no line {line}")
            elif not lab["code"] or not lines[line - 1].strip().startswith(lab["code"]):
                errors.append(f"{where}: {f}:{line} reads {lines[line - 1].strip()[:60]!r}, not {lab['code']!r}")
            labelled.add(f)
            good.append(lab)
    for f, (kind, _lang) in sorted(files.items()):
        if kind == "vuln" and f not in labelled:
            errors.append(f"{f}: a vuln/ file without a label")

    if binary:
        p = subprocess.run([binary, "scan", "--format", "json", "--fail-on", "none", "--jobs", "2", corpus],
                           capture_output=True, text=True, check=False)
        if p.returncode != 0:
            errors.append(f"bulwark scan exited {p.returncode}: {p.stderr.strip()[:300]}")
        else:
            doc = json.loads(p.stdout)
            if doc["files_scanned"] != len(files):
                errors.append(f"bulwark scan read {doc['files_scanned']} files, the corpus has {len(files)}")
            for x in doc["findings"]:
                rel = os.path.relpath(x["path"], corpus)
                if rel not in files:
                    errors.append(f"finding outside the corpus: {x['path']}")

    if doc_path:
        problem = doc_counts(doc_path, counts_table(corpus, good, files), write)
        if problem:
            errors.append(problem)

    for e in errors:
        print("codescan corpus:", e)
    nlab = sum(1 for _ in open(labels_path, encoding="utf-8"))
    print(f"codescan corpus: {len(files)} files, {nlab} labels, {len(errors)} problems")
    print(f"{1 if not errors else 0} passed, {1 if errors else 0} failed")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
