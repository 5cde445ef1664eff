# Shared by the bench scripts (sourced, not run).

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

# field NAME LINE: a value of latency.lua's BENCH line.
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }
