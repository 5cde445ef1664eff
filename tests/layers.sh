#!/bin/sh
# The layering of docs/architecture.md as a test (ctest unit.layers): every #include "..." in
# src/ is checked against the folder rules below, and the folders' include graph must have no
# cycle. Each offence is printed as file:line with the rule it breaks; exit 1 when there is any.
# Usage: tests/layers.sh [SRC_DIR] (default: the src/ next to this script's folder);
# tests/layers.sh --selftest checks the checker on tests/fixtures/layers (a tree breaking each
# rule once) against the report expected there.
set -eu
export LC_ALL=C
if [ "${1:-}" = --selftest ]; then
    fx=$(dirname "$0")/fixtures/layers
    out=$(sh "$0" "$fx/src" 2>&1) && { echo "layers.sh: the fixture tree passed the check"; exit 1; }
    printf '%s\n' "$out" | diff -u "$fx/expected.txt" -
    exit 0
fi
src=${1:-$(dirname "$0")/../src}
cd "$src"

# folder<TAB>file<TAB>line<TAB>included path, one line per project include; the folder rules
# read the top folder (engine/redteam/x.c is under engine/'s rules), the cycle check every folder
# (engine/ and engine/redteam/ must not reach each other either); src/main.c is main
find . -name '*.[ch]' | sed 's|^\./||' | sort | while read -r f; do
    case $f in
    */*) dir=${f%%/*} ;;
    *) dir=main ;;
    esac
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
        sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1	\2/' |
        while IFS='	' read -r line inc; do
            printf '%s\t%s\t%s\t%s\n' "$dir" "$f" "$line" "$inc"
        done
done | awk -F '\t' -v folders="$(ls -d */ | tr -d / | tr '\n' ' ')" '
BEGIN {
    nf = split(folders, fl, " ")
    for (i = 1; i <= nf; i++) known[fl[i]] = 1
    # allowed[x]: the only folders x may include (besides itself); absent: any, cycles permitting
    allowed["common"] = " common "
    allowed["net"] = " common net "
    allowed["engine"] = " common net engine "
    allowed["store"] = " common store "
    # forbidden[x]: folders x must not include
    forbidden["http"] = " api audit store app "
    forbidden["api"] = " app "
    forbidden["services"] = " jobs api app http "
    forbidden["jobs"] = " api app http "
    bad = 0
}
function offence(where, why) { print "src/" where ": " why; bad = 1 }
function names(list,    out) { out = list; gsub(/^ | $/, "", out); gsub(/ /, "/, ", out); return out "/" }
{
    dir = $1; where = $2 ":" $3; inc = $4
    to = inc; sub(/\/.*/, "", to)
    if (inc !~ /\// || !(to in known) || inc ~ /(^|\/)\.\.?\//) {
        offence(where, "include a project header by its folder under src/: \"" inc "\"")
        next
    }
    if ((dir in allowed) && to != dir && index(allowed[dir], " " to " ") == 0)
        offence(where, dir "/ may include only " names(allowed[dir]) ": \"" inc "\"")
    else if ((dir in forbidden) && to != dir && index(forbidden[dir], " " to " ") > 0)
        offence(where, dir "/ must not include " names(forbidden[dir]) ": \"" inc "\"")
    from = $2; sub(/\/[^\/]*$/, "", from); if (from == $2) from = "main"
    dest = inc; sub(/\/[^\/]*$/, "", dest)
    if (from == dest) next
    key = from SUBSEP dest
    if (!(key in edge)) { edge[key] = where; edgeinc[key] = inc; nodes[from] = 1; nodes[dest] = 1 }
}
END {
    for (a in nodes) for (b in nodes) reach[a, b] = ((a, b) in edge)
    for (k in nodes) for (a in nodes) if (reach[a, k]) for (b in nodes) if (reach[k, b]) reach[a, b] = 1
    # every include edge inside a cycle, by file, with the way back
    n = 0
    for (key in edge) {
        split(key, ab, SUBSEP)
        if (reach[ab[2], ab[1]])
            cyc[++n] = edge[key] SUBSEP ab[1] SUBSEP ab[2] SUBSEP edgeinc[key]
    }
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && cyc[j - 1] > cyc[j]; j--) { t = cyc[j]; cyc[j] = cyc[j - 1]; cyc[j - 1] = t }
    for (i = 1; i <= n; i++) {
        split(cyc[i], p, SUBSEP)
        offence(p[1], p[2] "/ -> " p[3] "/ is in a folder cycle (" p[3] "/ reaches " p[2] "/): \"" p[4] "\"")
    }
    exit bad
}'
