#!/usr/bin/env bash
# The soak (tests/soak/soak.mjs; its header states the traffic and the pass criteria):
#   scripts/soak.sh BINARY [sqlite|postgres]
# SOAK_SECONDS (default 600 here), SOAK_CONCURRENCY and the bounds pass through. For postgres a
# throwaway cluster is started (scripts/pg.sh) unless BULWARK_TEST_PG_HOST names one already.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: soak.sh BINARY [sqlite|postgres]}
backend=${2:-sqlite}
case "$backend" in sqlite|postgres) ;; *) echo "soak.sh: backend is sqlite or postgres" >&2; exit 2 ;; esac
if [ "$backend" = postgres ] && [ -z "${BULWARK_TEST_PG_HOST:-}" ]; then
  pgdir=$(mktemp -d /tmp/bulwark-pg.XXXXXX)
  trap 'scripts/pg.sh stop "$pgdir" >/dev/null 2>&1 || true; rm -rf "$pgdir"' EXIT
  scripts/pg.sh start "$pgdir" >/dev/null
  # shellcheck disable=SC1091
  . "$pgdir/env"
  export BULWARK_TEST_PG_HOST BULWARK_TEST_PG_PORT
fi
BULWARK_BIN=$(realpath "$bin") BULWARK_TEST_BACKEND=$backend SOAK_SECONDS=${SOAK_SECONDS:-600} \
  node tests/soak/soak.mjs
