#!/usr/bin/env bash
# `bulwark scan` end to end on a large git work tree (part of `make bench`; alone:
# bench/scan_repo.sh BUILD): a generated repository of ~20,000 source files in 400 folders, each
# folder with a .gitignore of its own (a negation included), a build/ and dist/ that the root's
# .gitignore excludes, and a node_modules. Rows: the scan honouring .gitignore (the default), the
# same with --no-ignore-vcs (every file read), and --changed-since on a branch touching 20 files.
# Files per second and MB/s; no bar (a benchmark is not a test), the goal being that .gitignore
# handling costs less than the files it spares.
set -euo pipefail
build=${1:-build-bench}
bin=$(realpath "$build/bulwark" 2>/dev/null || echo "$build/bulwark")
[ -x "$bin" ] || { echo "scan_repo: $bin not built" >&2; exit 1; }
work=$(mktemp -d)
trap '[ -n "${BENCH_KEEP:-}" ] || rm -rf "$work"' EXIT
repo=$work/repo
python3 - "$repo" <<'PY'
import os, sys
root = sys.argv[1]
body_py = "import os\n\ndef handler(request, n):\n    total = 0\n    for i in range(n):\n        total += i * 2\n    return {'total': total, 'path': os.path.join('/srv', str(n))}\n" * 6
body_js = "export function sum(xs) {\n  let t = 0;\n  for (const x of xs) t += x;\n  return t;\n}\n" * 8
def w(rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)
w(".gitignore", "build/\ndist/\n*.gen.py\n__snapshots__/\n")
for d in range(400):
    base = f"src/pkg{d // 20}/mod{d}"
    w(f"{base}/.gitignore", "local_*.py\n!keep.gen.py\n")
    for i in range(40):
        w(f"{base}/f{i}.py", body_py)
        w(f"{base}/w{i}.js", body_js)
    w(f"{base}/keep.gen.py", body_py)
for i in range(4000):  # ignored output: what --no-ignore-vcs reads in vain
    w(f"build/lib/gen{i // 100}/out{i}.py", body_py)
    w(f"dist/bundle{i // 100}/b{i}.js", body_js)
PY
git -C "$repo" init -q -b main
git -C "$repo" add -A >/dev/null
git -C "$repo" -c user.name=b -c user.email=b@example.com commit -qm base
git -C "$repo" checkout -qb feature
for i in $(seq 0 19); do echo "x$i = eval(input())" >> "$repo/src/pkg$((i % 20))/mod$((i * 20 % 400))/f$i.py"; done
git -C "$repo" -c user.name=b -c user.email=b@example.com commit -qam feature

now() { date +%s.%N; }
timeit() { # seconds, best of BENCH_RUNS (default 3)
  local best=
  for _ in $(seq "${BENCH_RUNS:-3}"); do
    local t0; t0=$(now); "$@" >/dev/null 2>&1 || [ $? -eq 1 ]; local t; t=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
    best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
  done
  echo "$best"
}
files_of() { "$bin" scan --fail-on none --format json "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["files_scanned"], d["bytes_scanned"])'; }
cd "$repo"
read -r f_ig b_ig < <(files_of .)
read -r f_all b_all < <(files_of --no-ignore-vcs .)
t_ig=$(timeit "$bin" scan --fail-on none --format json --output /dev/null .)
t_all=$(timeit "$bin" scan --fail-on none --format json --output /dev/null --no-ignore-vcs .)
read -r f_ch b_ch < <(files_of --changed-since main .)
t_ch=$(timeit "$bin" scan --fail-on none --format json --output /dev/null --changed-since main .)
row() { printf '  %-40s %7s s %8s files/s %7s MB/s  (%s files)\n' "$1" "$2" \
  "$(awk -v f="$3" -v t="$2" 'BEGIN { printf "%.0f", f / t }')" "$(awk -v b="$4" -v t="$2" 'BEGIN { printf "%.1f", b / 1e6 / t }')" "$3"; }
echo "bulwark scan on a git work tree ($(nproc) cores; 400 .gitignore files, build/ and dist/ ignored)"
row "honouring .gitignore (default)" "$t_ig" "$f_ig" "$b_ig"
row "--no-ignore-vcs" "$t_all" "$f_all" "$b_all"
row "--changed-since main (20 files changed)" "$t_ch" "$f_ch" "$b_ch"
