#!/usr/bin/env bash
# Everything CI runs (make test):
#  1. a warnings-as-errors build; cmocka unit tests; API tests against SQLite and PostgreSQL;
#     a short soak (ctest label `soak`, run alone: 45 s on SQLite, 25 s on PostgreSQL)
#  2. the same suite built with AddressSanitizer + UndefinedBehaviorSanitizer (its soak: 20 s on
#     SQLite, memory reported but not judged; LeakSanitizer checks the exit)
#  3. each libFuzzer target for a short time (FUZZ_SECONDS, default 15) under ASan+UBSan
# A throwaway PostgreSQL cluster is started for the run and stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=$(nproc)
# each configuration in a folder of its own (make run uses build/, make bench build-bench/)
TEST_BUILD=${TEST_BUILD:-build-test}
ASAN_BUILD=${ASAN_BUILD:-build-asan}
FUZZ_SECONDS=${FUZZ_SECONDS:-15}
pgdir=$(mktemp -d /tmp/bulwark-pg.XXXXXX)
cleanup() { scripts/pg.sh stop "$pgdir" >/dev/null 2>&1 || true; rm -rf "$pgdir"; }
trap cleanup EXIT

scripts/pg.sh start "$pgdir" >/dev/null
# shellcheck disable=SC1091
. "$pgdir/env"
export BULWARK_TEST_PG_HOST BULWARK_TEST_PG_PORT

echo "== test tooling (npm: JSON schema validators)"
(cd tests && npm ci --no-audit --no-fund --loglevel=error)

echo "== build (warnings are errors)"
cmake -S . -B "$TEST_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBULWARK_WERROR=ON \
  -DBULWARK_REQUIRE_TESTS=ON >/dev/null
cmake --build "$TEST_BUILD" -j "$JOBS"
echo "== tests: unit, API on SQLite and PostgreSQL"
ctest --test-dir "$TEST_BUILD" --output-on-failure -j 2

echo "== ASan+UBSan build and the same tests"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
CC=clang cmake -S . -B "$ASAN_BUILD" -DCMAKE_BUILD_TYPE=Debug -DBULWARK_WERROR=ON -DBULWARK_SANITIZE=ON \
  -DBULWARK_FUZZ=ON -DBULWARK_REQUIRE_TESTS=ON >/dev/null
cmake --build "$ASAN_BUILD" -j "$JOBS"
ctest --test-dir "$ASAN_BUILD" --output-on-failure -j 2

echo "== fuzzers, ${FUZZ_SECONDS}s each"
scripts/fuzz.sh "$ASAN_BUILD" "$FUZZ_SECONDS"
echo "== all green"
