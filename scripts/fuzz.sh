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
  "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 ${dict[@]+"${dict[@]}"} "$work" 2>&1 | tail -n 4
  rm -rf "$work"
done
[ "$found" = 1 ] || { echo "no fuzz targets in $build" >&2; exit 1; }
