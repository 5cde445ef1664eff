#!/usr/bin/env bash
# The quality of two posture judgments, as precision and recall on labelled sets written from
# the domain (not from the engines' output):
#   agent scan      tests/data/agents/prompts.jsonl (94 configurations) and holdout.jsonl (15,
#                   written later and kept out of tuning until its first run, whose numbers are in
#                   tests/data/agents/README.md): per issue label kind (TYPE, TYPE@prompt,
#                   TYPE@tool), whether the issues the scanner reports are the ones a practitioner
#                   expects present and absent.
#   red team        tests/data/redteam/replies.jsonl (440 replies): every reply through every
#                   detector, precision and recall per detector (test_rt_labels); and holdout.jsonl
#                   (101, written later and never tuned on), measured the same way, without a bar.
#                   Each twice: packages against the embedded lists only, and with an imported
#                   index of existing names (tests/data/redteam/package-index).
#   governance      tests/data/governance/golden.jsonl (38 assessments over the four frameworks)
#                   and holdout.jsonl (15): applicability (controls that must be top gaps, and
#                   controls that must not be gaps), the use-case classification (categories and
#                   traits) and the EU AI Act risk tier.
# The numbers are printed by the unit tests that assert them (test_agent_prompts,
# test_governance_golden); this script runs them and keeps the lines that report.
#   bench/posture.sh BUILD_DIR          (make bench calls this)
set -euo pipefail

build=${1:?usage: bench/posture.sh BUILD_DIR}
for t in test_agent_prompts test_governance_golden test_rt_labels; do
  [ -x "$build/$t" ] || { echo "bench: $build/$t not built (cmocka missing?)" >&2; exit 1; }
done
echo "== posture judgments: precision and recall on labelled sets"
for t in test_agent_prompts test_governance_golden test_rt_labels; do
  # the report lines only; the test's own pass/fail lines are cmocka's
  if ! CMOCKA_MESSAGE_OUTPUT=stdout "$build/$t" >"${TMPDIR:-/tmp}/bulwark-posture.$$" 2>&1; then
    echo "bench: $t failed:" >&2
    cat "${TMPDIR:-/tmp}/bulwark-posture.$$" >&2
    rm -f "${TMPDIR:-/tmp}/bulwark-posture.$$"
    exit 1
  fi
  grep -v '^\[' "${TMPDIR:-/tmp}/bulwark-posture.$$" || true
  rm -f "${TMPDIR:-/tmp}/bulwark-posture.$$"
done
