# shellcheck shell=bash disable=SC2154 # conns, wthreads, here and tmp are the caller's
# Shared by the bench scripts (sourced, not run). The caller sets conns and wthreads (wrk's -c
# and -t) and tmp (a scratch directory it removes).

# bench_require BUILD_DIR BIN...: the tools every bench uses and the binaries it needs, or exit.
bench_require() {
  local build=$1 tool bin
  shift
  for tool in wrk curl jq; do
    command -v "$tool" >/dev/null || { echo "bench: $tool not found (scripts/deps.sh bench)" >&2; exit 1; }
  done
  for bin in "$@"; do
    [ -x "$build/$bin" ] || { echo "bench: $build/$bin not built" >&2; exit 1; }
  done
}

# bench_start_bare BUILD_DIR: starts bench/bare.c's server on a free port; sets bare_pid (the
# caller stops it) and bare_port, or exits. Not in a subshell: bare_pid must reach the caller.
bench_start_bare() {
  # stdout goes to a file (not a pipe) so the server never blocks on a reader that went away
  "$1/bench_bare" 0 >"$tmp/bare.out" 2>"$tmp/bare.err" &
  bare_pid=$!
  bare_port=""
  for _ in $(seq 100); do
    bare_port=$(sed -n 's/^port=\([0-9]*\)$/\1/p' "$tmp/bare.out")
    [ -n "$bare_port" ] && break
    kill -0 "$bare_pid" 2>/dev/null || break
    sleep 0.05
  done
  [ -n "$bare_port" ] || { echo "bench: bench_bare did not start:" >&2; cat "$tmp/bare.err" >&2; exit 1; }
}

# bench_wait_port LOG PID: the port a starting `bulwark serve` logs as listening, or exit with
# the end of its log.
bench_wait_port() {
  local log=$1 pid=$2 port=""
  for _ in $(seq 200); do
    port=$(grep -F '"msg":"listening"' "$log" 2>/dev/null | head -n1 | jq -r '.port // empty' 2>/dev/null || true)
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if [ -z "$port" ]; then
    echo "bench: bulwark serve did not start (a missing embedded catalog shows here):" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
  echo "$port"
}

# bench_wrk URL HEADER DURATION: one wrk run through bench/latency.lua, its BENCH line on stdout
# (BENCH_* variables in the environment shape the requests, see latency.lua).
bench_wrk() {
  local args=(-t"$wthreads" -c"$conns" -d"$3" --latency -s "$here/latency.lua")
  [ -n "$2" ] && args+=(-H "$2")
  wrk "${args[@]}" "$1" | grep '^BENCH '
}

# field NAME LINE: a value of latency.lua's BENCH line.
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }

# ratio A B: A / B with four decimals (0 when B is 0).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }'; }

# ms MICROSECONDS: milliseconds.
ms() { awk -v u="$1" 'BEGIN { print u / 1000 }'; }

# median: of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
