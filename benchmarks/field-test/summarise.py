#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarises run.sh's output folders: per repository, the exit codes, crashes and time-outs, gate
failures (each a false failure on a merged upstream commit until read otherwise), the modified
kernels whose machine code was compared (compiled at both revisions), why the others were not,
and the time per commit, cold and warm.

    summarise.py OUT_FOLDER...
"""
import collections
import json
import re
import statistics
import sys

CRASH = re.compile(r"terminate called|Segmentation fault|AddressSanitizer|runtime error:|core dumped")


def compared(kernel):
    notes = " ".join(kernel.get("notes") or [])
    return kernel.get("decision") == "identical_code" or "machine code differs" in notes or "machine code is identical" in notes


def why_not(kernel):
    notes = " ".join(kernel.get("notes") or [])
    for pattern, label in ((r"fatal error: ([^:]+):", "missing {}"), (r"PyTorch's headers", "PyTorch's headers not found"),
                           (r"holds an instantiation", "no unit holds an instantiation"),
                           (r"compile budget|run's budget|budget_seconds", "budget spent"),
                           (r"max_units", "over compile.max_units"), (r"error: ([^\\\n]{0,70})", "error: {}")):
        match = re.search(pattern, notes)
        if match:
            return label.format(*match.groups())
    return "other: " + notes[-100:]


def summarise(out):
    rows = [line.rstrip("\n").split("\t") for line in open(f"{out}/runs.tsv")]
    cold = [r for r in rows if r[0] == "cold"]
    warm = [r for r in rows if r[0] == "warm"]
    codes = collections.Counter(r[2] for r in cold)
    crashes, failures, modified, done, reasons, lines = [], [], 0, 0, collections.Counter(), []
    for _, commit, rc, wall, cpu in cold:
        err = open(f"{out}/reports/{commit}.cold.err", errors="replace").read()
        if int(rc) >= 124 or CRASH.search(err):
            crashes.append(commit[:12])
        if rc == "1":
            failures.append(commit[:12])
        try:
            report = json.load(open(f"{out}/reports/{commit}.cold.json"))
        except (OSError, ValueError):
            lines.append(f"  {commit[:12]} rc={rc} no report: {err.strip()[:100]}")
            continue
        kernels = report.get("kernels", [])
        mods = [k for k in kernels if k.get("change") == "modified"]
        here = sum(1 for k in mods if compared(k))
        modified += len(mods)
        done += here
        for k in mods:
            if not compared(k):
                reasons[why_not(k)] += 1
        lines.append(f"  {commit[:12]} rc={rc} {float(wall):7.1f} s wall {float(cpu or 0):7.1f} s CPU  "
                     f"kernels {len(kernels):3d}, modified {len(mods):3d}, compared {here:3d}")
    cold_walls = [float(r[3]) for r in cold]
    warm_walls = [float(r[3]) for r in warm]
    print(f"== {out}: {len(cold)} commits, exit codes {dict(codes)}, crashes/time-outs {crashes or 0}, "
          f"gate failures {failures or 0}")
    print(f"   modified kernels {modified}, machine code compared at both revisions {done}"
          + (f" ({done / modified:.0%})" if modified else ""))
    if cold_walls:
        print(f"   cold s/commit median {statistics.median(cold_walls):.1f} (max {max(cold_walls):.1f}); "
              f"warm median {statistics.median(warm_walls):.2f}" if warm_walls else "")
    for reason, count in reasons.most_common(6):
        print(f"     {count:4d}  {reason}")
    print("\n".join(lines))


for folder in sys.argv[1:]:
    summarise(folder)
