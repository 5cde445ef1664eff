#!/usr/bin/env bash
# The threat feed with a million records: bench_feedload fills a fresh SQLite database (and a
# fresh PostgreSQL database when one is available) with BENCH_RECORDS synthetic records, then
# wrk measures feed requests through the real server: the first page, a filtered page, pages of
# 100 and page 501 (offset 10,000). The numbers to look at are req/s and p99 against the same
# server's other benches; they should not move with the record count (every page is read from an
# index, the total from the counters). An offset is walked, though: a page costs its offset in
# index entries, so page 50,000 of a million records is seconds, not milliseconds.
#   bench/feed.sh BUILD_DIR           (make bench calls this; never part of make test)
#   BENCH_RECORDS=1000000 BENCH_SECONDS=5 BENCH_CONNS=64 BENCH_THREADS=2  tune the runs
#   BULWARK_TEST_PG_HOST/PORT: a PostgreSQL cluster to use; otherwise scripts/pg.sh starts one
#   when PostgreSQL is installed, and the PostgreSQL half is skipped when it is not.
set -euo pipefail

build=${1:?usage: bench/feed.sh BUILD_DIR}
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
records=${BENCH_RECORDS:-1000000}
secs=${BENCH_SECONDS:-5}
conns=${BENCH_CONNS:-64}
wthreads=${BENCH_THREADS:-2}

# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_require "$build" bulwark bench_feedload

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bulwark-feed.XXXXXX")
srv_pid=""
own_pg=""
cleanup() {
  [ -n "$srv_pid" ] && { kill -TERM "$srv_pid" 2>/dev/null || true; wait "$srv_pid" 2>/dev/null || true; }
  [ -n "$own_pg" ] && "$root/scripts/pg.sh" stop "$own_pg" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# the access log stays on (info) as in production; it goes to a file
export BULWARK_LISTEN=127.0.0.1:0 BULWARK_LOG_LEVEL=info
export BULWARK_RATE_ANON=1000000000 BULWARK_RATE_FREE=1000000000
unset BULWARK_TRUSTED_PROXIES

run_wrk() { # url -> BENCH line
  wrk -t"$wthreads" -c"$conns" -d"$secs" --latency -s "$here/latency.lua" "$1" | grep '^BENCH '
}

bench_backend() { # name
  local name=$1 log="$tmp/$1.log" port
  "$build/bench_feedload" "$records"
  "$build/bulwark" serve >>"$log" 2>&1 &
  srv_pid=$!
  port=$(bench_wait_port "$log" "$srv_pid")
  local base="http://127.0.0.1:$port/api/ai-security/threat-feed"
  local total
  total=$(curl -fsS "$base?limit=1" | jq -r .total)
  [ "$total" = "$records" ] || { echo "bench: the feed reports $total records, expected $records" >&2; exit 1; }
  printf '%-10s %-44s %10s %9s %9s\n' backend request "req/s" "p50 ms" "p99 ms"
  local q
  for q in "" "?type=ai_cves&severity=HIGH" "?limit=100" "?type=agent_threats&limit=100" "?offset=10000"; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$base$q")" = 200 ] || { echo "bench: $q did not answer 200" >&2; exit 1; }
    run_wrk "$base$q" >/dev/null 2>&1 || true # warm-up
    local line
    line=$(run_wrk "$base$q")
    [ "$(field non2xx "$line")" = 0 ] || echo "bench: $q: $(field non2xx "$line") non-2xx answers" >&2
    printf '%-10s %-44s %10.0f %9.2f %9.2f\n' "$name" "feed${q:-}" "$(field rps "$line")" \
      "$(awk -v u="$(field p50_us "$line")" 'BEGIN { print u / 1000 }')" \
      "$(awk -v u="$(field p99_us "$line")" 'BEGIN { print u / 1000 }')"
  done
  kill -TERM "$srv_pid"
  wait "$srv_pid" || true
  srv_pid=""
}

echo "bench: the threat feed over $records records; $(nproc) cores, wrk -t$wthreads -c$conns -d${secs}s"

# ---- SQLite -------------------------------------------------------------------------------------
export BULWARK_DATA_DIR="$tmp/sqlite"
unset BULWARK_DATABASE_URL
mkdir -p "$BULWARK_DATA_DIR"
bench_backend sqlite

# ---- PostgreSQL ---------------------------------------------------------------------------------
host=${BULWARK_TEST_PG_HOST:-}
pgport=${BULWARK_TEST_PG_PORT:-}
if [ -z "$host" ] || [ -z "$pgport" ]; then
  if "$root/scripts/pg.sh" start "$tmp/pg" >/dev/null 2>&1; then
    own_pg="$tmp/pg"
    # shellcheck disable=SC1091
    . "$tmp/pg/env"
    host=$BULWARK_TEST_PG_HOST
    pgport=$BULWARK_TEST_PG_PORT
  else
    echo "bench: no PostgreSQL (set BULWARK_TEST_PG_HOST/PORT or install postgresql); skipped"
    exit 0
  fi
fi
dbname="bw_feed_$$"
psql -q -h "$host" -p "$pgport" -U postgres -d postgres -c "CREATE DATABASE $dbname" >/dev/null
export BULWARK_DATABASE_URL="postgres://postgres@$host:$pgport/$dbname"
bench_backend postgres
psql -q -h "$host" -p "$pgport" -U postgres -d postgres -c "DROP DATABASE $dbname" >/dev/null || true
