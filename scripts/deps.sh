#!/usr/bin/env bash
# Installs the Debian packages bulwark needs to build, run and test, but only those missing,
# so `make run` and `make test` work on a fresh Debian machine. Needs root (or sudo) only when
# something is missing.
#   scripts/deps.sh build   compiler, CMake, libraries
#   scripts/deps.sh test    + cmocka, node, PostgreSQL server, clang (fuzzers), wrk
set -euo pipefail
what=${1:-build}
pkgs=(build-essential cmake pkg-config libmicrohttpd-dev libjansson-dev libsodium-dev
      libsqlite3-dev libpq-dev zlib1g-dev curl jq)
if [ "$what" = test ] || [ "$what" = bench ]; then
  pkgs+=(libcmocka-dev nodejs postgresql clang curl wrk python3)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing missing Debian packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "run as root or install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
