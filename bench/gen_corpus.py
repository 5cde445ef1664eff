#!/usr/bin/env python3
"""Writes a deterministic mixed-language source corpus for the scanner benchmark.

usage: gen_corpus.py OUT_DIR [TOTAL_MB]

Ordinary code (functions, classes, loops, comments, strings, imports) in the nine languages, in
files of 4-40 KiB, with a vulnerable line from the rule catalog's own positive examples about
once every 400 lines, so the benchmark pays for confirmation and location too, not only for the
prefilter. Same seed, same bytes."""
import json
import os
import random
import sys

LANGS = ["js", "ts", "py", "go", "java", "php", "rb", "cs", "rs"]
EXT = {"js": "js", "ts": "ts", "py": "py", "go": "go", "java": "java", "php": "php", "rb": "rb", "cs": "cs", "rs": "rs"}
WORDS = ("user account order invoice payment item cart session token record value total count index "
         "buffer result request response config handler service client server cache queue event").split()


def ident(rnd):
    a, b = rnd.choice(WORDS), rnd.choice(WORDS)
    return a + b.capitalize()


def block(lang, rnd):
    n, m, k = ident(rnd), ident(rnd), ident(rnd)
    s = rnd.choice(WORDS) + " " + rnd.choice(WORDS)
    num = rnd.randint(0, 9999)
    if lang == "py":
        return (f"def {n}({m}, {k}=None):\n    \"\"\"Return the {s} for {m}.\"\"\"\n"
                f"    # compute the {s}\n    total = 0\n    for item in {m}:\n"
                f"        if item.{k} > {num}:\n            total += item.{k}\n"
                f"    return {{'name': '{s}', 'total': total}}\n\n")
    if lang in ("js", "ts"):
        t = ": number" if lang == "ts" else ""
        return (f"// compute the {s}\nexport function {n}({m}{t}, {k}{t}) {{\n  let total = 0;\n"
                f"  for (const item of list) {{\n    if (item.{k} > {num}) total += item.{k};\n  }}\n"
                f"  return {{ name: '{s}', total, label: `{s} ${{total}}` }};\n}}\n\n")
    if lang == "go":
        return (f"// {n} computes the {s}.\nfunc {n}({m} []Item, {k} int) (int, error) {{\n\ttotal := 0\n"
                f"\tfor _, it := range {m} {{\n\t\tif it.Value > {num} {{\n\t\t\ttotal += it.Value\n\t\t}}\n\t}}\n"
                f"\treturn total, fmt.Errorf(\"{s}: %d\", {k})\n}}\n\n")
    if lang in ("java", "cs"):
        pub = "public" if lang == "java" else "public static"
        return (f"    /** Computes the {s}. */\n    {pub} int {n}(List<Item> {m}, int {k}) {{\n"
                f"        int total = 0;\n        for (Item it : {m}) {{\n            if (it.value > {num}) {{\n"
                f"                total += it.value;\n            }}\n        }}\n"
                f"        String label = \"{s}\" + total;\n        return total;\n    }}\n\n")
    if lang == "php":
        return (f"// compute the {s}\nfunction {n}(array ${m}, int ${k}): array {{\n    $total = 0;\n"
                f"    foreach (${m} as $item) {{\n        if ($item['{k}'] > {num}) {{ $total += $item['{k}']; }}\n"
                f"    }}\n    return ['name' => '{s}', 'total' => $total];\n}}\n\n")
    if lang == "rb":
        return (f"# compute the {s}\ndef {n.lower()}({m.lower()}, {k.lower()} = nil)\n  total = 0\n"
                f"  {m.lower()}.each do |item|\n    total += item.value if item.value > {num}\n  end\n"
                f"  {{ name: \"{s}\", total: total }}\nend\n\n")
    return (f"/// Computes the {s}.\npub fn {n.lower()}({m.lower()}: &[Item], {k.lower()}: u32) -> Result<u32, String> {{\n"
            f"    let mut total = 0;\n    for it in {m.lower()} {{\n        if it.value > {num} {{\n"
            f"            total += it.value;\n        }}\n    }}\n    Ok(total)\n}}\n\n")


def header(lang):
    return {
        "py": "import os\nimport json\nfrom typing import Any\n\n",
        "js": "'use strict';\nconst path = require('path');\n\n",
        "ts": "import * as path from 'path';\n\n",
        "go": "package main\n\nimport (\n\t\"fmt\"\n)\n\n",
        "java": "package com.example;\n\nimport java.util.List;\n\npublic class Service {\n",
        "php": "<?php\ndeclare(strict_types=1);\n\n",
        "rb": "require 'json'\n\n",
        "cs": "using System;\nusing System.Collections.Generic;\n\npublic class Service {\n",
        "rs": "use std::collections::HashMap;\n\n",
    }[lang]


def footer(lang):
    return "}\n" if lang in ("java", "cs") else ""


def main():
    out = sys.argv[1]
    total = int(float(sys.argv[2]) * 1024 * 1024) if len(sys.argv) > 2 else 64 * 1024 * 1024
    rules_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "rules")
    vulns = {l: [] for l in LANGS}
    for f in sorted(os.listdir(rules_dir)):
        if f.endswith(".json"):
            for r in json.load(open(os.path.join(rules_dir, f)))["rules"]:
                for ex in r["examples"]["positive"]:
                    vulns[ex["lang"]].append(ex["code"])
    rnd = random.Random(20261123)
    written, i = 0, 0
    while written < total:
        lang = LANGS[i % len(LANGS)]
        d = os.path.join(out, lang, f"pkg{i // 200}")
        os.makedirs(d, exist_ok=True)
        size = rnd.randint(4 * 1024, 40 * 1024)
        parts, n, lines = [header(lang)], 0, 0
        while n < size:
            b = block(lang, rnd)
            parts.append(b)
            n += len(b)
            lines += b.count("\n")
            if vulns[lang] and rnd.random() < 10 / 400:
                parts.append(rnd.choice(vulns[lang]) + "\n\n")
        parts.append(footer(lang))
        data = "".join(parts).encode()
        with open(os.path.join(d, f"file{i}.{EXT[lang]}"), "wb") as fh:
            fh.write(data)
        written += len(data)
        i += 1
    print(f"{i} files, {written / 1048576:.1f} MiB in {out}")


if __name__ == "__main__":
    main()
