#!/usr/bin/env bash
# Code scanner benchmark (part of `make bench`):
#  1. scanner throughput over a generated mixed-language corpus (>= 50 MiB; the nine languages,
#     vulnerable lines from the catalog's own examples sprinkled in): the engine on files already
#     in memory (bench_scanner: one thread, and all cores divided by their number = per core),
#     and the whole `bulwark scan` command (process start, database loading, file reading,
#     report) with one job and with every core;
#  2. Debian's bandit over the corpus's Python part, side by side, as a ratio;
#  3. false-alarm density on mature code: HIGH-or-worse findings per 1,000 lines of the Python
#     standard library;
#  4. bench/codescan_quality.sh: recall, precision and noise on the labelled corpus
#     tests/data/codescan, noise, speed and memory on mature code in the nine languages, bandit.
# Bars (issue 3): >= 200 MB/s per core; >= 20x bandit; <= 0.5 HIGH+ per 1,000 lines.
# A benchmark is not a test: misses are reported, the exit status is 0.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bin=$build/bulwark
mb=${BENCH_CORPUS_MB:-56}
corpus=${BENCH_CORPUS_DIR:-/tmp/bulwark-bench-corpus-$mb}
[ -x "$bin" ] || { echo "bench: $bin not built" >&2; exit 1; }

if [ ! -f "$corpus/.done" ]; then
  rm -rf "$corpus"
  python3 "$here/gen_corpus.py" "$corpus" "$mb" >/dev/null
  touch "$corpus/.done"
fi
bytes=$(find "$corpus" -type f ! -name .done -printf '%s\n' | awk '{ s += $1 } END { print s }')
pybytes=$(find "$corpus/py" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')

now() { date +%s.%N; }
rate() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%.1f", b / 1e6 / t }'; }
timeit() { # command... -> seconds on stdout (best of BENCH_RUNS, default 3)
  local best="" t0 t1 d
  for _ in $(seq "${BENCH_RUNS:-3}"); do
    t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
    d=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
    if [ -z "$best" ] || awk -v d="$d" -v b="$best" 'BEGIN { exit !(d < b) }'; then best=$d; fi
  done
  echo "$best"
}
verdict() { awk -v x="$1" -v bar="$2" -v dir="$3" 'BEGIN { ok = dir == "min" ? x >= bar : x <= bar; print ok ? "ok" : "below bar" }'; }

cat "$corpus"/*/pkg0/* >/dev/null # warm the page cache
eng=$("$build/bench_scanner" "$corpus" "$(nproc)" | tail -n 1)
e1=$(sed -n 's/.*engine_mbps_1=\([0-9.]*\).*/\1/p' <<<"$eng")
en=$(sed -n "s/.*engine_mbps_$(nproc)=\([0-9.]*\).*/\1/p" <<<"$eng")
epc=$(awk -v x="$en" -v n="$(nproc)" 'BEGIN { printf "%.1f", x / n }')
t1=$(timeit "$bin" scan --jobs 1 --fail-on none --format json --output /dev/null "$corpus")
tn=$(timeit "$bin" scan --fail-on none --format json --output /dev/null "$corpus")
tpy=$(timeit "$bin" scan --jobs 1 --fail-on none --format json --output /dev/null "$corpus/py")
per_core=$(rate "$bytes" "$t1")
echo "scanner: corpus $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB, 9 languages, $("$bin" rules list | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_rules"])') rules"
printf '  %-34s %8s MB/s   %s\n' "engine, $(nproc) threads, per core" "$epc" "$(verdict "$epc" 200 min) (bar 200)"
printf '  %-34s %8s MB/s\n' "engine, 1 thread" "$e1"
printf '  %-34s %8s MB/s\n' "bulwark scan, 1 job, end to end" "$per_core"
printf '  %-34s %8s MB/s\n' "bulwark scan, $(nproc) jobs, end to end" "$(rate "$bytes" "$tn")"
printf '  %-34s %8s MB/s\n' "bulwark, 1 job, Python part" "$(rate "$pybytes" "$tpy")"

if command -v bandit >/dev/null; then
  tb=$(BENCH_RUNS=1 timeit bandit -q -r -f json -o /dev/null "$corpus/py")
  ratio=$(awk -v a="$tb" -v b="$tpy" 'BEGIN { printf "%.1f", a / b }')
  printf '  %-34s %8s MB/s\n' "bandit, Python part" "$(rate "$pybytes" "$tb")"
  printf '  %-34s %8sx      %s\n' "bulwark vs bandit (same files)" "$ratio" "$(verdict "$ratio" 20 min) (bar 20x)"
else
  echo "  bandit not installed (scripts/deps.sh bench installs it): no comparison"
fi

stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
if [ -d "$stdlib" ]; then
  lines=$(find "$stdlib" -name '*.py' -not -path '*/site-packages/*' -not -path '*/test/*' -not -path '*/tests/*' -print0 | xargs -0 cat | wc -l)
  high=$("$bin" scan --fail-on none --format json "$stdlib" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(1 for f in d["findings"] if f["severity"] in ("HIGH", "CRITICAL")
          and "/site-packages/" not in f["path"] and "/test/" not in f["path"] and "/tests/" not in f["path"]))')
  dens=$(awk -v h="$high" -v l="$lines" 'BEGIN { printf "%.3f", h * 1000 / l }')
  printf '  %-34s %8s per 1,000 lines (%s in %s lines)   %s\n' "HIGH+ on the Python stdlib" "$dens" "$high" "$lines" "$(verdict "$dens" 0.5 max) (bar 0.5)"
fi

echo
"$here/codescan_quality.sh" "$build"
