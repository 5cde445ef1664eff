#!/usr/bin/env bash
# Installs the Debian packages bulwark needs, but only those missing, so `make run` and
# `make test` work on a fresh Debian machine. Needs root (or sudo) only when something is missing.
#   scripts/deps.sh build   compiler, CMake, libraries, npm for the tree-sitter grammars (make run)
#   scripts/deps.sh test    + cmocka, Node.js (API tests), PostgreSQL server, clang (sanitizers,
#                           fuzzers), openssl and nginx (TLS and reverse-proxy tests), chromium
#                           (the web console's browser test)
#   scripts/deps.sh bench   + wrk, bandit (the mature code bench/codescan_quality.sh reads is
#                           fetched into a cache by bench/mature_code.py: apt-get download and
#                           npm ci, nothing installed)
set -euo pipefail
what=${1:-build}
need=()
# package [command]: a package counts as present when dpkg has it or, if a command is named,
# when that command is on PATH (e.g. a Node.js that did not come from Debian)
want() {
  local pkg=$1 cmd=${2:-}
  if [ -n "$cmd" ] && command -v "$cmd" >/dev/null 2>&1; then return; fi
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
}
want build-essential gcc
want cmake cmake
want pkg-config pkg-config
want curl curl
want jq jq
for p in libmicrohttpd-dev libjansson-dev libsodium-dev libsqlite3-dev libpq-dev zlib1g-dev libzip-dev \
         libhyperscan-dev libpcre2-dev libcurl4-openssl-dev libyaml-dev libtree-sitter-dev \
         libgit2-dev libjemalloc-dev; do want "$p"; done
want npm npm             # fetches the tree-sitter grammars (scripts/grammars.sh)
if [ "$what" = test ] || [ "$what" = bench ]; then
  want libcmocka-dev
  want nodejs node
  want clang clang
  want libclang-rt-dev   # ASan/UBSan/libFuzzer runtimes for clang
  want postgresql
  want python3 python3
  want openssl openssl   # certificates for the local TLS test targets
  want libyara-dev       # the hunt-pack test compiles and runs the YARA rules it generates
  want yara yara
  want nginx nginx       # tests/api/nginx.test.mjs runs docs/deploy/nginx.conf (unprivileged)
  want chromium chromium # tests/browser: the web console, headless, driven by puppeteer-core
fi
if [ "$what" = bench ]; then
  want wrk wrk
  want bandit bandit
fi
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing missing Debian packages: ${need[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "run as root, or install: ${need[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
