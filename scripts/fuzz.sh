#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD_DIR for SECONDS each, starting from its seed corpus in
# tests/fuzz/corpus/NAME (new inputs go to a temporary copy, not into the repo), with the
# dictionary tests/fuzz/NAME.dict or its family's (fuzz_api_auth: tests/fuzz/fuzz_api.dict) when there is one.
set -euo pipefail
build=${1:?usage: fuzz.sh BUILD_DIR SECONDS}
secs=${2:-15}
cd "$(dirname "$0")/.."
found=0
for bin in "$build"/fuzz_*; do
  [ -x "$bin" ] || continue
  found=1
  name=$(basename "$bin")
  work=$(mktemp -d)
  [ -d "tests/fuzz/corpus/$name" ] && cp -r "tests/fuzz/corpus/$name/." "$work/"
  # a dictionary of its own (tests/fuzz/NAME.dict) or of its family (fuzz_api_auth: fuzz_api.dict)
  dict=()
  for d in "tests/fuzz/$name.dict" "tests/fuzz/${name%_*}.dict"; do
    [ -f "$d" ] && { dict=(-dict="$d"); break; }
  done
  echo "-- $name"
  # the whole output is kept so that a failure shows its report and the input that caused it
  log=$(mktemp)
  rc=0
  "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$work/" -print_final_stats=1 ${dict[@]+"${dict[@]}"} "$work" >"$log" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    echo "$name failed (exit $rc); its report:" >&2
    grep -v -E '^#[0-9]+\s' "$log" | tail -n 80 >&2
    for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
      [ -f "$a" ] && echo "input $(basename "$a") (base64): $(head -c 4096 "$a" | base64 -w0)" >&2
    done
    rm -rf "$work" "$log"
    exit "$rc"
  fi
  tail -n 4 "$log"
  rm -rf "$work" "$log"
done
[ "$found" = 1 ] || { echo "no fuzz targets in $build" >&2; exit 1; }
