#!/usr/bin/env bash
# The GitHub Action's build step (action.yml): installs the Debian/Ubuntu packages bulwark needs
# and builds the binary from the action's own checkout into BULWARK_BUILD_DIR (default
# $RUNNER_TEMP/bulwark-build), then puts it on PATH for the next steps. A binary already built
# there is reused (cmake rebuilds only what changed).
set -euo pipefail
src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
build=${BULWARK_BUILD_DIR:-${RUNNER_TEMP:-/tmp}/bulwark-build}
"$src/scripts/deps.sh" build # uses sudo itself when a package is missing and we are not root
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" --target bulwark >/dev/null
if [ -n "${GITHUB_PATH:-}" ]; then echo "$build" >> "$GITHUB_PATH"; fi
echo "bulwark built in $build"
