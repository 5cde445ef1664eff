#!/usr/bin/env bash
# The GitHub Action's scan step (action.yml), also usable in any CI: runs bulwark scan with the
# action's inputs (BW_* variables), writes SARIF to BW_SARIF and records exit-code and
# sarif-file in GITHUB_OUTPUT. It exits 0 when the scan ran (findings or not), so the upload step
# runs; the action's last step exits with the scan's code. Exit 2 (a usage or I/O error, e.g. a
# shallow clone with changed-since) fails here and then.
set -uo pipefail
bin=${BULWARK:-bulwark}
sarif=${BW_SARIF:-bulwark.sarif}
args=(scan --format sarif --output "$sarif" --fail-on "${BW_FAIL_ON:-high}")
[ -n "${BW_CHANGED_SINCE:-}" ] && args+=(--changed-since "$BW_CHANGED_SINCE")
[ -n "${BW_BASELINE:-}" ] && args+=(--baseline "$BW_BASELINE")
# shellcheck disable=SC2206 # the extra options and paths are words, as on a command line
extra=(${BW_ARGS:-})
# shellcheck disable=SC2206
paths=(${BW_PATH:-.})
"$bin" "${args[@]}" "${extra[@]}" -- "${paths[@]}"
rc=$?
out=${GITHUB_OUTPUT:-/dev/null}
echo "exit-code=$rc" >> "$out"
if [ "$rc" -eq 2 ]; then
  echo "::error::bulwark scan failed (exit 2): see the message above" >&2
  exit 2
fi
echo "sarif-file=$sarif" >> "$out"
# a summary on the run's page when GitHub provides one
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && command -v jq >/dev/null; then
  jq -r '"### bulwark scan\n\n\(.runs[0].results | length) finding(s); exit \(.runs[0].invocations[0].exitCode)"' "$sarif" \
    >> "$GITHUB_STEP_SUMMARY"
fi
exit 0
