#!/usr/bin/env bash
# Builds the tree-sitter grammars the code scanner links (grammars/package-lock.json: npm packages
# pinned with their integrity hashes) into one static library, OUT_DIR/libbw_grammars.a, once for
# every build folder: build, build-test, build-asan, build-bench and build-fuzz all link the same
# archive (default OUT_DIR: build-grammars/ beside them). ~80 MB of generated C is compiled with
# the system compiler at -O2, never sanitized or instrumented, warnings off (third-party code),
# -fPIC; nothing is vendored into the repository.
#   scripts/grammars.sh [OUT_DIR]
# A stamp (lockfile, this script, compiler version) makes a rerun a no-op; a lock serialises
# build folders configured at the same time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build-grammars}
cc=${BULWARK_GRAMMARS_CC:-cc}
mkdir -p "$out"
out=$(cd "$out" && pwd)
lib=$out/libbw_grammars.a
exec 9>"$out/.lock"
flock 9

stamp=$( { cat "$root/grammars/package-lock.json" "$0"; "$cc" --version | head -n 1; } | sha256sum | cut -d' ' -f1)
if [ -f "$lib" ] && [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
  touch "$lib" # newer than the lockfile for every build folder's make
  exit 0
fi
command -v npm >/dev/null || { echo "grammars: npm is needed to fetch the tree-sitter grammars (scripts/deps.sh build installs it)" >&2; exit 1; }

t0=$(date +%s)
# npm ci in a copy: node_modules stays out of the source tree. --ignore-scripts: the packages'
# install scripts build Node.js bindings, which bulwark does not use.
mkdir -p "$out/npm"
cp "$root/grammars/package.json" "$root/grammars/package-lock.json" "$out/npm/"
(cd "$out/npm" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
nm=$out/npm/node_modules

# grammar name -> its src/ folder (parser.c, scanner.c when it has one)
srcs=( # largest first (C#'s parser.c is 34 MB, Ruby's 15 MB) so the cores finish together
  "c_sharp:tree-sitter-c-sharp/src"
  "ruby:tree-sitter-ruby/src"
  "typescript:tree-sitter-typescript/typescript/src"
  "tsx:tree-sitter-typescript/tsx/src"
  "rust:tree-sitter-rust/src"
  "php:tree-sitter-php/php/src"
  "php_only:tree-sitter-php/php_only/src"
  "python:tree-sitter-python/src"
  "java:tree-sitter-java/src"
  "javascript:tree-sitter-javascript/src"
  "go:tree-sitter-go/src"
)
rm -rf "$out/obj"
mkdir -p "$out/obj"
jobs=()
for s in "${srcs[@]}"; do
  name=${s%%:*} dir=$nm/${s#*:}
  for f in parser.c scanner.c; do
    [ -f "$dir/$f" ] && jobs+=("$dir/$f" "$out/obj/${name}_${f%.c}.o")
  done
done
printf '%s\0%s\0' "${jobs[@]}" |
  xargs -0 -n 2 -P "$(nproc)" sh -c 'exec "$0" -O2 -fPIC -w -std=c11 -I"$(dirname "$1")" -c "$1" -o "$2"' "$cc"
rm -f "$lib.tmp"
ar rcs "$lib.tmp" "$out"/obj/*.o
mv "$lib.tmp" "$lib"
rm -rf "$out/obj"
echo "$stamp" >"$out/.stamp"
echo "grammars: $(ls "$nm" | grep -c '^tree-sitter-') packages, $((${#jobs[@]} / 2)) files compiled in $(($(date +%s) - t0)) s into $lib"
