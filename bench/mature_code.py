#!/usr/bin/env python3
"""Fetches the mature code of bench/mature/sources.json into a cache and lays out one folder per
language for bench/codescan_quality.py (HIGH+ findings per 1,000 lines, MB/s, peak memory).

usage: mature_code.py [--cache DIR] prepare   fetch what is missing, (re)build DIR/tree, print its path
       mature_code.py [--cache DIR] path      print DIR/tree

Debian packages: `apt-get download` into DIR/debs and `dpkg-deb -x` into DIR/root (no root
needed, nothing installed); npm: bench/mature/package.json and its lockfile copied to DIR/npm and
`npm ci --ignore-scripts`. DIR/tree/<lang>/<source>/... holds hard links (copies across file
systems) of the code files of each language, tests left out; DIR/tree/manifest.json names the
packages, versions, files and lines. DIR defaults to $BULWARK_BENCH_CACHE, else
~/.cache/bulwark-bench, then /mature. Nothing from here enters the repository.

A benchmark must not fail for want of a network: what the cache already holds is used, and a
language whose packages cannot be fetched is left out of the tree and named in the manifest's
"skipped" member with the reason ("no network", ...); `prepare` still prints the tree and exits 0."""
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXT = {"py": {"py"}, "js": {"js", "mjs", "cjs", "jsx"}, "ts": {"ts", "tsx", "mts", "cts"}, "go": {"go"},
       "java": {"java"}, "php": {"php"}, "rb": {"rb", "rake"}, "cs": {"cs"}, "rs": {"rs"}}


def log(*a):
    print("mature_code:", *a, file=sys.stderr, flush=True)


def cache_dir(arg):
    if arg:
        return os.path.abspath(arg)
    base = os.environ.get("BULWARK_BENCH_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "bulwark-bench")
    return os.path.join(base, "mature")


# Fetching gives up rather than hang: one attempt, short timeouts (an unreachable mirror or
# registry is the usual case on an offline machine, and the bench reports it as skipped).
APT_OPTS = ["-o", "Acquire::Retries=0", "-o", "Acquire::http::Timeout=20", "-o", "Acquire::https::Timeout=20"]
NPM_OPTS = ["--fetch-retries=0", "--fetch-timeout=20000"]
FETCH_TIMEOUT_S = 900
NETWORK_WORDS = ("could not resolve", "temporary failure resolving", "failed to fetch", "unable to connect",
                 "connection failed", "connection timed out", "network is unreachable", "enotfound", "eai_again",
                 "econnrefused", "etimedout", "enetunreach", "socket timeout")


def run_fetch(cmd, cwd, what):
    """Runs a fetching command; returns None, or why it failed ("no network" when it says so)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=FETCH_TIMEOUT_S, check=False)
    except FileNotFoundError:
        return f"{cmd[0]} not installed"
    except subprocess.TimeoutExpired:
        return f"no network ({what} still running after {FETCH_TIMEOUT_S} s)"
    if p.returncode == 0:
        return None
    err = (p.stderr or p.stdout).strip()
    if err:  # its first lines once; the reason returned is their gist
        lines = err.splitlines()
        more = f"\n  ... ({len(lines) - 3} more lines)" if len(lines) > 3 else ""
        log(f"{what}: " + "\n  ".join(x[:200] for x in lines[:3]) + more)
    last = err.splitlines()[-1][:160] if err else f"exit {p.returncode}"
    if "404" in err and "failed to fetch" in err.lower():
        return f"{what}: the package lists are out of date (run apt-get update)"
    if any(w in err.lower() for w in NETWORK_WORDS):
        return f"no network ({what} reached no server)"
    return f"{what} failed: {last}"


def fetch_debs(cache, packages):
    """Returns ({package: version} of those in the cache, why the others are missing or None)."""
    debs, root = os.path.join(cache, "debs"), os.path.join(cache, "root")
    os.makedirs(debs, exist_ok=True)
    os.makedirs(root, exist_ok=True)

    def have():
        return {f.split("_")[0]: f for f in os.listdir(debs) if f.endswith(".deb")}

    missing = [p for p in packages if p not in have()]
    why = None
    if missing:
        log("apt-get download", " ".join(missing))
        why = run_fetch(["apt-get", "download", "-qq"] + APT_OPTS + missing, debs, "apt-get download")
        if why:
            log(why)
    debs_now = have()
    versions = {}
    for p in packages:
        if p not in debs_now:
            continue
        deb = os.path.join(debs, debs_now[p])
        stamp = os.path.join(root, ".x-" + debs_now[p])
        if not os.path.exists(stamp):
            subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
            open(stamp, "w").close()
        versions[p] = debs_now[p].split("_")[1].replace("%3a", ":")
    return versions, why


def fetch_npm(cache):
    """Returns ({package: version} installed, or None; why not, or None)."""
    npm = os.path.join(cache, "npm")
    os.makedirs(npm, exist_ok=True)
    lock = os.path.join(HERE, "mature", "package-lock.json")
    stamp = os.path.join(npm, ".installed-lock")
    want = open(lock, encoding="utf-8").read()
    if not (os.path.exists(stamp) and open(stamp, encoding="utf-8").read() == want):
        for f in ("package.json", "package-lock.json"):
            shutil.copy(os.path.join(HERE, "mature", f), npm)
        log("npm ci (bench/mature/package-lock.json)")
        why = run_fetch(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"] + NPM_OPTS,
                        npm, "npm ci")
        if why:
            log(why)
            return None, why
        with open(stamp, "w", encoding="utf-8") as fh:
            fh.write(want)
    pkgs = json.load(open(os.path.join(npm, "package-lock.json"), encoding="utf-8"))["packages"]
    return {k[len("node_modules/"):]: v["version"] for k, v in pkgs.items() if k.count("node_modules/") == 1}, None


def excluded(rel_parts, name, cfg):
    dirs = {d.lower() for d in cfg["exclude_dirs"]}
    if any(p.lower() in dirs for p in rel_parts[:-1]):
        return True
    return any(fnmatch.fnmatch(name, pat) for pat in cfg["exclude_files"])


def link(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def code_file(name, lang):
    if name.endswith(".min.js") or name.endswith(".d.ts"):
        return False
    return "." in name and name.rsplit(".", 1)[1].lower() in EXT[lang]


def build_tree(cache, cfg, versions, npm_versions, skipped):
    tree = os.path.join(cache, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    root = os.path.join(cache, "root")
    manifest = {}
    for lang, spec in cfg["languages"].items():
        if lang in skipped:
            log(f"{lang}: skipped: {skipped[lang]}")
            continue
        files = lines = 0
        base = os.path.join(cache, "npm") if spec.get("npm") else root
        if "zip" in spec:
            with zipfile.ZipFile(os.path.join(root, spec["zip"])) as z:
                for info in z.infolist():
                    parts = info.filename.split("/")
                    if info.is_dir() or parts[0] not in spec["zip_modules"] or not code_file(parts[-1], lang):
                        continue
                    if excluded(parts, parts[-1], cfg):
                        continue
                    dst = os.path.join(tree, lang, "openjdk17", info.filename)
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    data = z.read(info)
                    with open(dst, "wb") as fh:
                        fh.write(data)
                    files += 1
                    lines += data.count(b"\n")
        for label, sub in spec.get("roots", {}).items():
            top = os.path.join(base, sub)
            if not os.path.isdir(top):
                log(f"{lang}: {top} missing")
                continue
            for d, dirnames, names in os.walk(top):
                rel_dir = os.path.relpath(d, top)
                parts = [] if rel_dir == "." else rel_dir.split(os.sep)
                if spec.get("skip_packages") and parts == []:
                    dirnames[:] = [x for x in dirnames if x not in spec["skip_packages"]]
                if spec.get("skip_packages") and parts and parts[0].startswith("@") and len(parts) == 1:
                    dirnames[:] = [x for x in dirnames if f"{parts[0]}/{x}" not in spec["skip_packages"]]
                for n in names:
                    src = os.path.join(d, n)
                    if not code_file(n, lang) or os.path.islink(src) or not os.path.isfile(src):
                        continue
                    if excluded(parts + [n], n, cfg):
                        continue
                    link(src, os.path.join(tree, lang, label, *parts, n))
                    files += 1
                    with open(src, "rb") as fh:
                        lines += fh.read().count(b"\n")
        sources = [f"{p} {versions[p]}" for p in spec.get("debian", [])]
        if spec.get("npm"):
            names = ["express", "lodash", "axios", "ws", "jsonwebtoken"] if lang == "js" else ["rxjs", "zod"]
            sources += [f"{n}@{npm_versions.get(n, '?')} (npm)" for n in names]
        manifest[lang] = {"what": spec["what"], "sources": sources, "files": files, "lines": lines}
        log(f"{lang}: {files} files, {lines} lines")
    if skipped:
        manifest["skipped"] = skipped
    with open(os.path.join(tree, "manifest.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=2)
    return tree


def main():
    args = sys.argv[1:]
    cache = None
    if len(args) >= 2 and args[0] == "--cache":
        cache, args = args[1], args[2:]
    if args not in (["prepare"], ["path"]):
        sys.exit(__doc__)
    cache = cache_dir(cache)
    if args == ["path"]:
        print(os.path.join(cache, "tree"))
        return
    cfg = json.load(open(os.path.join(HERE, "mature", "sources.json"), encoding="utf-8"))
    os.makedirs(cache, exist_ok=True)
    debian = [p for spec in cfg["languages"].values() for p in spec.get("debian", [])]
    versions, deb_why = fetch_debs(cache, debian)
    npm_versions, npm_why = fetch_npm(cache)
    skipped = {}
    for lang, spec in cfg["languages"].items():
        if spec.get("npm") and npm_versions is None:
            skipped[lang] = npm_why
        elif any(p not in versions for p in spec.get("debian", [])):
            skipped[lang] = deb_why or "a package is missing from the cache"
    print(build_tree(cache, cfg, versions, npm_versions or {}, skipped))


if __name__ == "__main__":
    main()
