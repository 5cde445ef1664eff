#!/usr/bin/env python3
"""Code scanner quality: recall, precision and noise on the labelled corpus, noise and speed on
mature code, and the end-to-end CLI against bandit. A benchmark, not a test: it reports and exits 0.

usage: codescan_quality.py --bin build/bulwark [--corpus tests/data/codescan]
                           [--families bench/cwe_families.json] [--mature TREE] [--bandit auto|none|PATH]
                           [--json OUT.json]

Measures (issue 17, "Measured"):
- recall: a label counts as found when a finding in the same file has a CWE of the label's
  family (bench/cwe_families.json) and starts within 2 lines of the labelled line; per class,
  per language and overall, and again counting only findings at or above the label's
  min_severity;
- precision on the labelled (vuln/) files: findings that match a label over all findings there,
  for every severity and for HIGH+;
- HIGH+ findings per 1,000 lines of the safe/ set (safe code in the same shapes) and of the
  near/ set (code that looks dangerous and is not);
- on mature code (TREE from bench/mature_code.py, one folder per language): HIGH+ findings per
  1,000 lines, MB/s on one core (bulwark scan --jobs 1, end to end, and per CPU second), peak
  resident memory of the scan, and the share of files parsed when the report says so (a
  top-level `files_parsed` count, or `parsed` in `summary`; "n/a" otherwise);
- bulwark scan against Debian's bandit on the same Python files (the mature Python tree), as a
  ratio of wall times, and how many of the corpus's Python files bandit cannot parse.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SEV = {"LOW": 1, "MEDIUM": 2, "HIGH": 3, "CRITICAL": 4}
GOALS = {"recall_overall": 0.6, "recall_lang": 0.4, "recall_langs": ("py", "js", "java", "php", "cs", "rs"),
         "mature_noise": 0.2, "near_noise": 1.0, "bandit_ratio": 100.0}
LANG_ORDER = ("py", "js", "ts", "tsx", "java", "go", "php", "rb", "cs", "rs")
SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "vendor", "third_party", "bower_components", ".venv", "venv",
             "__pycache__", ".tox", "site-packages", ".mypy_cache", ".next", ".cargo"}  # as bulwark scan walks
EXT = {"py": "py", "pyw": "py", "js": "js", "mjs": "js", "cjs": "js", "jsx": "js", "ts": "ts", "tsx": "ts",
       "mts": "ts", "cts": "ts", "go": "go", "java": "java", "php": "php", "rb": "rb", "rake": "rb", "cs": "cs",
       "rs": "rs"}


def lang_of(path):
    base = os.path.basename(path)
    if base.endswith(".min.js") or base.endswith(".d.ts") or "." not in base[1:]:
        return None
    return EXT.get(base.rsplit(".", 1)[1].lower())


def count_lines(path):
    with open(path, "rb") as fh:
        data = fh.read()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0), len(data)


def walk_code(root):
    """(path, lang) of the files bulwark scan reads under root."""
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
        for n in names:
            p = os.path.join(d, n)
            lang = lang_of(p)
            if lang and os.path.isfile(p) and not os.path.islink(p):
                yield p, lang


def run_scan(binary, paths, jobs=None):
    """Runs bulwark scan --format json; returns (report, wall seconds, cpu seconds, max RSS KiB)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = tmp.name
    cmd = [binary, "scan", "--format", "json", "--fail-on", "none", "--output", out]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd + list(paths), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    try:
        with open(out, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        sys.exit(f"codescan_quality: bulwark scan failed (exit {p.returncode}): {err[:500]}")
    finally:
        os.unlink(out)
    return doc, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def parsed_share(doc):
    n = doc.get("files_parsed")
    if n is None and isinstance(doc.get("summary"), dict):
        n = doc["summary"].get("parsed")
    if n is None or not doc.get("files_scanned"):
        return None
    return n / doc["files_scanned"]


def pct(a, b):
    return f"{a / b:6.1%}" if b else "   n/a"


def rate(x, digits=2):
    return f"{x:.{digits}f}" if x is not None else "n/a"


def verdict(ok):
    return "meets goal" if ok else "below goal"


def load_families(path):
    fam = {}
    for name, d in json.load(open(path, encoding="utf-8"))["families"].items():
        for c in d["cwes"]:
            fam[c] = name
    return fam


def corpus_quality(args, fam_of, out):
    labels = [json.loads(x) for x in open(os.path.join(args.corpus, "labels.jsonl"), encoding="utf-8")]
    doc, wall, _cpu, rss = run_scan(args.bin, [args.corpus])
    corpus_abs = os.path.abspath(args.corpus)
    by_file = collections.defaultdict(list)
    for f in doc["findings"]:
        rel = os.path.relpath(os.path.abspath(f["path"]), corpus_abs)
        f["family"] = fam_of.get(f["cwe"], f["cwe"])
        by_file[rel].append(f)

    def matches(lab, f):
        return f["family"] == lab["family"] and abs(f["line"] - lab["line"]) <= 2

    hit, hit_sev = {}, {}
    for i, lab in enumerate(labels):
        cands = [f for f in by_file.get(lab["file"], []) if matches(lab, f)]
        hit[i] = bool(cands)
        hit_sev[i] = any(SEV[f["severity"]] >= SEV[lab["min_severity"]] for f in cands)

    def table(key, order=None):
        groups = collections.defaultdict(list)
        for i, lab in enumerate(labels):
            groups[lab[key]].append(i)
        keys = order if order else sorted(groups)
        rows = []
        for k in keys:
            if k not in groups:
                continue
            ids = groups[k]
            rows.append((k, len(ids), sum(hit[i] for i in ids), sum(hit_sev[i] for i in ids)))
        return rows

    res = {"labels": len(labels), "found": sum(hit.values()), "found_at_severity": sum(hit_sev.values())}
    res["recall"] = res["found"] / len(labels)
    res["recall_at_severity"] = res["found_at_severity"] / len(labels)
    out.append(f"labelled corpus: {len(labels)} labels in {len({l['file'] for l in labels})} vulnerable files "
               f"({args.corpus}); scanned in {wall:.2f} s, peak RSS {rss / 1024:.1f} MiB")
    out.append("  recall = a finding of the label's CWE family within 2 lines; '@sev' = and at or above the "
               "label's min_severity")
    res["by_class"], res["by_lang"] = {}, {}
    for key, order, title in (("class", None, "class"), ("lang", LANG_ORDER, "language")):
        out.append(f"  {title:<18} {'labels':>6} {'found':>6} {'recall':>7} {'@sev':>7}")
        for k, n, h, hs in table(key, order):
            goal = ""
            if key == "lang" and k in GOALS["recall_langs"]:
                goal = f"   goal >= {GOALS['recall_lang']}: {verdict(h / n >= GOALS['recall_lang'])}"
            out.append(f"  {k:<18} {n:6d} {h:6d} {pct(h, n)} {pct(hs, n)}{goal}")
            res["by_" + key][k] = {"labels": n, "found": h, "found_at_severity": hs}
    out.append(f"  {'overall':<18} {len(labels):6d} {res['found']:6d} {pct(res['found'], len(labels))} "
               f"{pct(res['found_at_severity'], len(labels))}   goal >= {GOALS['recall_overall']}: "
               f"{verdict(res['recall'] >= GOALS['recall_overall'])}")

    # precision on the labelled files; noise on safe/ and near/
    tp = fp = tp_h = fp_h = 0
    lines = collections.Counter()
    high = collections.Counter()
    kind_of = {}
    for path, lang in walk_code(args.corpus):
        rel = os.path.relpath(path, args.corpus)
        kind = rel.split(os.sep)[1]
        kind_of[rel] = kind
        lines[kind] += count_lines(path)[0]
    for rel, fs in by_file.items():
        kind = kind_of.get(rel)
        file_labels = [l for l in labels if l["file"] == rel]
        for f in fs:
            is_high = SEV[f["severity"]] >= SEV["HIGH"]
            if kind == "vuln":
                ok = any(matches(l, f) for l in file_labels)
                tp += ok
                fp += not ok
                tp_h += ok and is_high
                fp_h += (not ok) and is_high
            elif is_high:
                high[kind] += 1
    # per finding family: a finding is right when it matches a label of its file; every finding on
    # the safe/ and near/ files is wrong (so a rule's noise shows next to its family's recall)
    fam_ok, fam_bad = collections.Counter(), collections.Counter()
    for rel, fs in by_file.items():
        file_labels = [l for l in labels if l["file"] == rel] if kind_of.get(rel) == "vuln" else []
        for f in fs:
            if any(matches(l, f) for l in file_labels):
                fam_ok[f["family"]] += 1
            elif kind_of.get(rel) in ("vuln", "safe", "near"):
                fam_bad[f["family"]] += 1
    res["precision_by_family"] = {}
    out.append(f"  {'finding family':<18} {'right':>6} {'wrong':>6} {'precision':>9}   (safe/ and near/ findings count as wrong)")
    for fam in sorted(set(fam_ok) | set(fam_bad)):
        ok, bad = fam_ok[fam], fam_bad[fam]
        res["precision_by_family"][fam] = {"right": ok, "wrong": bad}
        out.append(f"  {fam:<18} {ok:6d} {bad:6d} {rate(ok / (ok + bad), 3):>9}")
    all_fp = fp + sum(len(fs) for rel, fs in by_file.items() if kind_of.get(rel) in ("safe", "near"))
    res["precision"] = tp / (tp + fp) if tp + fp else None
    res["precision_high"] = tp_h / (tp_h + fp_h) if tp_h + fp_h else None
    res["precision_all_files"] = tp / (tp + all_fp) if tp + all_fp else None
    out.append(f"  precision on the labelled files: {rate(res['precision'], 3)} ({tp} of {tp + fp} findings match "
               f"a label); HIGH+ only: {rate(res['precision_high'], 3)} ({tp_h} of {tp_h + fp_h})")
    out.append(f"  precision counting the safe/ and near/ files too: {rate(res['precision_all_files'], 3)}")
    for kind, title, goal in (("safe", "safe code in the same shapes", None),
                              ("near", "near-miss code", GOALS["near_noise"])):
        dens = high[kind] * 1000 / lines[kind] if lines[kind] else 0.0
        res[f"noise_{kind}"] = dens
        g = f"   goal <= {goal}: {verdict(dens <= goal)}" if goal is not None else ""
        out.append(f"  HIGH+ per 1,000 lines, {title}: {dens:.2f} ({high[kind]} in {lines[kind]} lines){g}")
    share = parsed_share(doc)
    res["parsed_share"] = share
    out.append(f"  files parsed: {pct(share, 1) if share is not None else 'n/a (the report has no files_parsed field)'}")
    res["missed"] = [{k: labels[i][k] for k in ("file", "line", "cwe", "class")} for i in hit if not hit[i]]
    return res


def mature_quality(args, fam_of, out):
    res = {}
    manifest = os.path.join(args.mature, "manifest.json")
    info = json.load(open(manifest, encoding="utf-8")) if os.path.exists(manifest) else {}
    langs = [d for d in LANG_ORDER if os.path.isdir(os.path.join(args.mature, d))]
    skipped = info.get("skipped", {})
    files = list(walk_code(args.mature))
    if not files:
        out.append("mature code: skipped: " + ("; ".join(sorted(set(skipped.values()))) or "the tree is empty"))
        res["skipped"] = skipped
        return res
    lines = collections.Counter()
    nbytes = 0
    for p, _lang in files:
        n, b = count_lines(p)
        lines[os.path.relpath(p, args.mature).split(os.sep)[0]] += n
        nbytes += b
    doc, wall1, cpu1, rss1 = run_scan(args.bin, [args.mature], jobs=1)
    _doc, walln, _cpun, rssn = run_scan(args.bin, [args.mature])
    high = collections.Counter()
    for f in doc["findings"]:
        if SEV[f["severity"]] >= SEV["HIGH"]:
            high[os.path.relpath(os.path.abspath(f["path"]), os.path.abspath(args.mature)).split(os.sep)[0]] += 1
    total_lines = sum(lines.values())
    total_high = sum(high.values())
    mb = doc["bytes_scanned"] / 1e6
    res.update({"files": doc["files_scanned"], "lines": total_lines, "bytes": doc["bytes_scanned"],
                "high": total_high, "noise": total_high * 1000 / total_lines if total_lines else None,
                "mbps_1_job": mb / wall1, "mbps_per_cpu_second": mb / cpu1 if cpu1 else None,
                "mbps_all_jobs": mb / walln, "peak_rss_mib_1_job": rss1 / 1024, "peak_rss_mib_all_jobs": rssn / 1024,
                "parsed_share": parsed_share(doc), "by_lang": {}})
    out.append(f"mature code: {doc['files_scanned']} files, {total_lines:,} lines, {mb:.1f} MB ({args.mature})")
    for lang in langs:
        src = info.get(lang, {}).get("what", "?")
        d = high[lang] * 1000 / lines[lang] if lines[lang] else 0.0
        res["by_lang"][lang] = {"lines": lines[lang], "high": high[lang], "noise": d,
                                "sources": info.get(lang, {}).get("sources", [])}
        out.append(f"  {lang:<5} {lines[lang]:>9,} lines  HIGH+ {high[lang]:4d}  {d:6.3f} per 1,000   {src}")
    for lang, why in sorted(skipped.items()):
        out.append(f"  {lang:<5} skipped: {why}")
    res["skipped"] = skipped
    out.append(f"  {'all':<5} {total_lines:>9,} lines  HIGH+ {total_high:4d}  {res['noise']:6.3f} per 1,000   "
               f"goal <= {GOALS['mature_noise']}: {verdict(res['noise'] <= GOALS['mature_noise'])}")
    out.append(f"  speed: {res['mbps_1_job']:.1f} MB/s with --jobs 1 (end to end, one core), "
               f"{rate(res['mbps_per_cpu_second'], 1)} MB per CPU second, {res['mbps_all_jobs']:.1f} MB/s with "
               f"{os.cpu_count()} jobs")
    out.append(f"  peak resident memory: {res['peak_rss_mib_1_job']:.1f} MiB (--jobs 1), "
               f"{res['peak_rss_mib_all_jobs']:.1f} MiB ({os.cpu_count()} jobs)")
    share = res["parsed_share"]
    out.append(f"  files parsed: {pct(share, 1) if share is not None else 'n/a (the report has no files_parsed field)'}")
    return res


def bandit_compare(args, out):
    bandit = shutil.which("bandit") if args.bandit == "auto" else (None if args.bandit == "none" else args.bandit)
    if not bandit:
        out.append("bandit: not installed (scripts/deps.sh bench installs Debian's bandit): no comparison")
        return {}
    res = {}
    # fragments bandit cannot parse (it reports them in "errors")
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        rep = tmp.name
    pyfiles = [p for p, lang in walk_code(args.corpus) if lang == "py"]
    subprocess.run([bandit, "-q", "-f", "json", "-o", rep] + pyfiles, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    try:
        errs = json.load(open(rep, encoding="utf-8")).get("errors", [])
        res["corpus_py_files"], res["corpus_py_unparsed"] = len(pyfiles), len(errs)
        out.append(f"bandit: {len(errs)} of the corpus's {len(pyfiles)} Python files do not parse for it")
    except (OSError, ValueError):
        out.append("bandit: no report on the corpus")
    pytree = os.path.join(args.mature, "py") if args.mature else None
    if pytree and os.path.isdir(pytree):
        _doc, tb, _c, _r = run_scan(args.bin, [pytree], jobs=1)
        t0 = time.perf_counter()
        subprocess.run([bandit, "-q", "-r", "-f", "json", "-o", rep, pytree], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        tband = time.perf_counter() - t0
        res.update({"bulwark_s": tb, "bandit_s": tband, "ratio": tband / tb})
        out.append(f"  same Python files ({pytree}): bulwark scan --jobs 1 {tb:.2f} s, bandit {tband:.1f} s: "
                   f"{tband / tb:.0f}x   goal >= {GOALS['bandit_ratio']:.0f}x: "
                   f"{verdict(tband / tb >= GOALS['bandit_ratio'])}")
    else:
        out.append("  speed ratio: skipped (no mature Python tree to time both on)")
    os.unlink(rep)
    return res


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", default=os.path.join(here, "..", "tests", "data", "codescan"))
    ap.add_argument("--families", default=os.path.join(here, "cwe_families.json"))
    ap.add_argument("--mature", help="tree written by bench/mature_code.py prepare")
    ap.add_argument("--bandit", default="auto")
    ap.add_argument("--json", help="also write the numbers here")
    ap.add_argument("--missed", action="store_true", help="list the labels not found")
    args = ap.parse_args()
    args.corpus = os.path.normpath(args.corpus)
    fam_of = load_families(args.families)
    out = []
    res = {"corpus": corpus_quality(args, fam_of, out)}
    print("\n".join(out), flush=True)
    out.clear()
    if args.mature and os.path.isdir(args.mature):
        res["mature"] = mature_quality(args, fam_of, out)
    else:
        out.append("mature code: skipped (no tree: BENCH_NO_MATURE set, or bench/mature_code.py prepare failed): "
                   "no noise, speed or memory on it")
    print("\n".join(out), flush=True)
    out.clear()
    res["bandit"] = bandit_compare(args, out)
    print("\n".join(out))
    if args.missed:
        for m in res["corpus"]["missed"]:
            print(f"  missed {m['file']}:{m['line']} {m['cwe']} ({m['class']})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(res, fh, indent=2)


if __name__ == "__main__":
    main()
