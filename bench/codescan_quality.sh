#!/usr/bin/env bash
# Code scanner quality (part of `make bench`, and runnable alone: bench/codescan_quality.sh BUILD):
#  1. recall by class and language on the labelled corpus tests/data/codescan (a finding of the
#     label's CWE family within 2 lines), precision on its labelled files, HIGH+ findings per
#     1,000 lines of its safe and near-miss files;
#  2. HIGH+ per 1,000 lines of mature code in the nine languages (Debian and npm packages fetched
#     into a cache by bench/mature_code.py, nothing installed or copied into the repository),
#     MB/s on one core, peak resident memory, the share of files parsed when the report says so;
#     a language whose packages cannot be fetched (no network) is reported as skipped;
#  3. bulwark scan against Debian's bandit on the same Python files, as a ratio.
# Goals (issue 17): recall >= 0.6 overall and >= 0.4 in py, js, java, php, cs, rs; HIGH+ noise
# <= 0.2 per 1,000 lines of mature code and <= 1.0 on the near-miss set; >= 100x bandit.
# A benchmark is not a test: misses are reported, the exit status is 0.
# BENCH_NO_MATURE=1 skips fetching and scanning mature code; CODESCAN_JSON=FILE keeps the numbers.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bin=$build/bulwark
[ -x "$bin" ] || { echo "codescan_quality: $bin not built" >&2; exit 1; }

args=(--bin "$bin" --corpus "$here/../tests/data/codescan" --families "$here/cwe_families.json")
if [ -z "${BENCH_NO_MATURE:-}" ]; then
  if tree=$(python3 "$here/mature_code.py" prepare); then
    args+=(--mature "$tree")
  else
    echo "codescan_quality: mature code: skipped: bench/mature_code.py failed (see above): measuring the corpus only" >&2
  fi
fi
[ -n "${CODESCAN_JSON:-}" ] && args+=(--json "$CODESCAN_JSON")
echo "code scanner quality (issue 17 goals beside each number)"
python3 "$here/codescan_quality.py" "${args[@]}" || echo "codescan_quality: the measurement failed" >&2
exit 0
