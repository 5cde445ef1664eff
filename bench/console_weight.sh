#!/usr/bin/env bash
# The web console's first-load weight in bytes sent, against the 200 KB budget (issue 23): starts
# the real `bulwark serve`, fetches "/" with Accept-Encoding: gzip, and follows what the browser
# loads before the first page shows: the stylesheet, the icon and the module script index.html
# names, then every static `import ... from '...'` of each module, transitively (the console has
# no dynamic import: app.js imports every page up front). Each file must come back with
# Content-Encoding: gzip; the line sums the bytes on the wire (the response bodies as sent, not
# the headers). It also prints the sum over every embedded console file (an upper bound, for a
# file the graph missed). Exit 1 over the budget.
#   bench/console_weight.sh BUILD_DIR      (make bench calls this; never part of make test)
#   BENCH_CONSOLE_BUDGET=204800            the budget in bytes (200 KB = 200 x 1024)
set -euo pipefail

budget=${BENCH_CONSOLE_BUDGET:-204800}
build=$(cd "${1:?usage: bench/console_weight.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=${here%/bench}
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "bench: $tool not found (scripts/deps.sh bench)" >&2; exit 1; }
done
[ -x "$build/bulwark" ] || { echo "bench: $build/bulwark not built" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bulwark-console.XXXXXX")
srv_pid=""
cleanup() {
  if [ -n "$srv_pid" ]; then kill -TERM "$srv_pid" 2>/dev/null || true; wait "$srv_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=bench/lib.sh
. "$here/lib.sh"
export BULWARK_DATA_DIR="$tmp/data" BULWARK_LISTEN=127.0.0.1:0 BULWARK_LOG_LEVEL=warn
unset BULWARK_DATABASE_URL BULWARK_TRUSTED_PROXIES
mkdir -m 0700 "$BULWARK_DATA_DIR"
log="$tmp/bulwark.log"
BULWARK_LOG_LEVEL=info "$build/bulwark" serve >>"$log" 2>&1 &
srv_pid=$!
port=$(bench_wait_port "$log" "$srv_pid")
base="http://127.0.0.1:$port"

# fetch PATH: the gzip body into $tmp/body.gz, its size on stdout; fails unless gzip was sent
fetch() {
  local hdr="$tmp/hdr" size
  size=$(curl -fsS -o "$tmp/body.gz" -D "$hdr" -w '%{size_download}' -H 'Accept-Encoding: gzip' "$base$1")
  grep -qi '^content-encoding: *gzip' "$hdr" || { echo "bench: $1 was not sent with Content-Encoding: gzip" >&2; exit 1; }
  echo "$size"
}

declare -A seen=()
queue=("/")
total=0
files=0
while [ ${#queue[@]} -gt 0 ]; do
  path=${queue[0]}
  queue=("${queue[@]:1}")
  [ -n "${seen[$path]:-}" ] && continue
  seen[$path]=1
  size=$(fetch "$path")
  total=$((total + size))
  files=$((files + 1))
  dir=${path%/*}
  case "$path" in
    /)  # the stylesheet, icon and module script index.html names (absolute paths)
        mapfile -t refs < <(gzip -dc "$tmp/body.gz" | grep -oE '(href|src)="/[^"]+"' | sed -E 's/^(href|src)="(.*)"$/\2/') ;;
    *.js) # static imports, relative to the module
        mapfile -t refs < <(gzip -dc "$tmp/body.gz" | grep -oE "^import [^;]*from '\\./[^']+'|^import [^;]*from '\\.\\./[^']+'|^import '\\.{1,2}/[^']+'" |
                            sed -E "s/.*'([^']+)'$/\\1/" | while read -r rel; do
                              p="$dir/$rel"
                              while [[ $p == */./* ]]; do p=${p//\/.\//\/}; done
                              while [[ $p =~ /[^/.][^/]*/\.\./ ]]; do p=$(sed -E 's#/[^/.][^/]*/\.\./#/#' <<<"$p"); done
                              echo "$p"
                            done) ;;
    *) refs=() ;;
  esac
  queue+=("${refs[@]}")
done

# every embedded file: the console/ folder as embedded (same names), each fetched the same way
all=0
while read -r f; do
  all=$((all + $(fetch "/${f#"$root"/console/}")))
done < <(find "$root/console" -type f | sort)

kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }
verdict=ok
[ "$total" -le "$budget" ] || verdict=OVER
printf 'console first load: %s KB gzip sent over %d files (index.html, the stylesheet, the icon and every module the import graph from app.js reaches) of a %s KB budget: %s; every embedded console file: %s KB\n' \
  "$(kb "$total")" "$files" "$(kb "$budget")" "$verdict" "$(kb "$all")"
[ "$verdict" = ok ]
