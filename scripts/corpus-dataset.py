#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Builds the labelled dataset (`kforecast eval`, `kforecast train`) from the corpus measurements.

    scripts/corpus-dataset.py fixtures/corpus/measurements.jsonl > fixtures/corpus/dataset.jsonl

Every ordered pair of variants within a family becomes one row. A pair measured directly (A B B A
on one GPU, in one process) is labelled with its measured speedup, and the reverse pair with the
inverse. A pair that was not measured directly is labelled through the family's first variant
(the star every variant was measured against): speedup(a -> b) = s(b) / s(a), where s(v) is v's
measured speedup over the first variant. The row's `label` says which. A variant whose
measurement failed (it does not compile, faults, or disagrees with the first variant) makes no
rows; the script names it on standard error, so nothing is dropped silently.

Launch geometry comes from each variant's [[kernel]] spec, evaluated for the spec's first size.
"""

import hashlib
import json
import math
import re
import sys
import tomllib
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"


def evaluate(expression, sizes):
    """The spec's expression language: integers, + - * / %, parentheses, ceil_div, min, max."""
    text = str(expression)
    if not re.fullmatch(r"[\w\s+\-*/%(),]*", text):
        raise ValueError(f"unexpected characters in expression {text!r}")
    text = re.sub(r"(?<![/])/(?![/])", "//", text)
    names = {"ceil_div": lambda a, b: -(-a // b), "min": min, "max": max, "__builtins__": {}}
    names.update(sizes)
    return int(eval(text, names))  # noqa: S307 - the text is checked above and comes from the repository


def geometry(spec):
    sizes = spec["sizes"][0]
    dims = lambda values: ([evaluate(v, sizes) for v in values] + [1, 1, 1])[:3]
    return {
        "grid": dims(spec["grid"]),
        "block": dims(spec["block"]),
        "shared_bytes": evaluate(spec.get("shared_bytes", "0"), sizes),
    }


def main():
    measurements = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    by_family = {}
    for row in measurements:
        by_family.setdefault(row["family"], []).append(row)

    rows = []
    for family, family_rows in sorted(by_family.items()):
        specs = tomllib.loads((CORPUS / family / "kforecast.toml").read_text())["kernel"]
        variants = [spec["name"] for spec in specs]
        spec_of = {spec["name"]: spec for spec in specs}
        first = variants[0]

        def usable(row):
            m = row.get("measurement")
            return row["exit"] in (0, 1) and m and m.get("verdict") != "failed" and m.get("speedup", 0) > 0

        direct = {}
        for row in family_rows:
            if usable(row):
                direct[(row["reference"], row["candidate"])] = row["measurement"]["speedup"]
            else:
                reason = (row.get("measurement") or {}).get("reason", f"exit {row['exit']}")
                print(f"corpus-dataset: {family}: {row['reference']} -> {row['candidate']} not usable: {reason}",
                      file=sys.stderr)
        star = {first: 1.0}
        for variant in variants[1:]:
            if (first, variant) in direct:
                star[variant] = direct[(first, variant)]
            else:
                print(f"corpus-dataset: {family}: {variant} has no measurement against {first}; it makes no rows",
                      file=sys.stderr)

        for a in variants:
            for b in variants:
                if a == b or a not in star or b not in star:
                    continue
                if (a, b) in direct:
                    speedup, label = direct[(a, b)], "measured"
                elif (b, a) in direct:
                    speedup, label = 1.0 / direct[(b, a)], "measured (inverse)"
                else:
                    speedup, label = star[b] / star[a], f"through {first}"

                def side(name):
                    spec = spec_of[name]
                    return {
                        "source": (CORPUS / family / spec["file"]).read_text(),
                        "kernel": name,
                        "launch": geometry(spec),
                    }

                rows.append({
                    "id": f"{family}/{a}->{b}",
                    "family": family,
                    "hardware": "H100",
                    "reference": side(a),
                    "candidate": side(b),
                    "speedup": round(speedup, 6),
                    "label": label,
                })
    gpus = {(r.get("measurement") or {}).get("gpu") for r in measurements} - {None}
    for row in rows:
        row["hardware"] = "H100" if all("H100" in g for g in gpus) else ("H200" if all("H200" in g for g in gpus) else "mixed")
    for row in rows:
        print(json.dumps(row, separators=(",", ":")))
    print(f"corpus-dataset: {len(rows)} rows from {len(measurements)} measurements ({', '.join(sorted(gpus))})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
