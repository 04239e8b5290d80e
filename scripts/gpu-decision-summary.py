#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summary of scripts/gpu-decision-time.sh's output: per kernel, GPU seconds per decision, false
regressions, detection of the planted 3% slowdown, and the targets (TARGETS below) met or missed.

    scripts/gpu-decision-summary.py OUT KERNEL...

A decision of the gate is a measurement plus, for a regression, its confirmation in a fresh
process (measure/bench_child.cpp): skipped when the whole interval lies more than 2.5% beyond the
tolerance, else a second measurement that must say regression too. The --repeat runs are single
measurements; a decision is modelled from them as run i, confirmed by run i+1 (an independent
measurement of the same pair) where the gate would confirm. The KERNEL-full.jsonl runs went
through the real path, child processes and confirmation included, as a check of the model.
"""
import json
import statistics
import sys

PROCESS_BIAS = 0.025  # bench::process_bias_bound
TARGETS = {"20us": 0.25, "100us": 0.25, "1ms": 0.25, "5ms": 1.0}  # median GPU-s per decision


def read(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip().startswith("{")]
    except FileNotFoundError:
        return []


def p90(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] if ordered else float("nan")


def median(values):
    return statistics.median(values) if values else float("nan")


def decisions(runs):
    """(verdict, GPU seconds) of each gate decision modelled from single measurements."""
    result = []
    for i, first in enumerate(runs):
        if first["verdict"] != "regression":
            result.append((first["verdict"], first["gpu_seconds"]))
            continue
        tolerance = first.get("tolerance", 0.02)
        if first["ci_high"] < 1 / ((1 + tolerance) * (1 + PROCESS_BIAS)):
            result.append(("regression", first["gpu_seconds"]))
            continue
        second = runs[(i + 1) % len(runs)]
        verdict = "regression" if second["verdict"] == "regression" else "inconclusive"
        result.append((verdict, first["gpu_seconds"] + second["gpu_seconds"]))
    return result


def main(out, kernels):
    with open(f"{out}/gpu.txt") as f:
        machine = f.read().strip().splitlines()
    lines = [f"machine: {machine[1] if len(machine) > 1 else 'unknown'}", ""]
    lines += ["| kernel | base time (us) | planted measured | A/A decisions | false regressions | A/A GPU-s median / p90 | "
              "A/A rounds (median) | planted decisions | caught (1 process) | caught (with confirmation) | "
              "planted GPU-s median / p90 (with confirmation) | full path: runs, regression, GPU-s median | "
              "target (median GPU-s) |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    verdict_lines = []
    for kernel in kernels:
        aa = read(f"{out}/{kernel}-aa.jsonl")
        planted = read(f"{out}/{kernel}-planted.jsonl")
        full = read(f"{out}/{kernel}-full.jsonl")
        if not aa or not planted:
            lines.append(f"| {kernel} | not measured (skipped or failed: see calls.tsv, stderr.txt) |" + " |" * 11)
            verdict_lines.append(f"{kernel}: not measured")
            continue
        aa_decisions = decisions(aa)
        planted_decisions = decisions(planted)
        aa_gpu = [g for _, g in aa_decisions]
        planted_gpu = [g for _, g in planted_decisions]
        false_single = sum(m["verdict"] == "regression" for m in aa)
        false_gate = sum(v == "regression" for v, _ in aa_decisions)
        caught_single = sum(m["verdict"] == "regression" for m in planted)
        caught_gate = sum(v == "regression" for v, _ in planted_decisions)
        slowdown = median([1 / m["speedup"] - 1 for m in planted if m.get("speedup")])
        base = median([m["t_base_us"] for m in aa if m.get("t_base_us")])
        full_regressions = sum(m["verdict"] == "regression" for m in full)
        full_gpu = median([m["gpu_seconds"] for m in full])
        limit = TARGETS.get(kernel, 0.25)
        aa_median, planted_median = median(aa_gpu), median(planted_gpu)
        lines.append(
            f"| {kernel} | {base:.1f} | {100 * slowdown:.2f}% slower | {len(aa)} | {false_single} ({false_gate} after "
            f"confirmation) | {aa_median:.3f} / {p90(aa_gpu):.3f} | {median([m.get('rounds', 0) for m in aa]):.0f} | "
            f"{len(planted)} | {caught_single} ({100 * caught_single / len(planted):.0f}%) | {caught_gate} "
            f"({100 * caught_gate / len(planted):.0f}%) | {planted_median:.3f} / {p90(planted_gpu):.3f} | "
            f"{len(full)}, {full_regressions}, {full_gpu:.3f} | <= {limit:g} |")
        met = (aa_median <= limit and planted_median <= limit and false_single == 0
               and caught_gate >= 0.95 * len(planted) and len(aa) >= 100 and len(planted) >= 100)
        reasons = []
        if len(aa) < 100 or len(planted) < 100: reasons.append(f"fewer than 100 runs ({len(aa)}, {len(planted)})")
        if aa_median > limit: reasons.append(f"A/A median {aa_median:.3f} s")
        if planted_median > limit: reasons.append(f"planted median {planted_median:.3f} s")
        if false_single: reasons.append(f"{false_single} false regressions")
        if caught_gate < 0.95 * len(planted): reasons.append(f"caught {caught_gate} of {len(planted)}")
        verdict_lines.append(f"{kernel}: {'met' if met else 'missed: ' + ', '.join(reasons)}")
    lines += ["", "targets (median GPU-s per decision <= 0.25 for 20 us-1 ms and <= 1 for 5 ms; 0 false regressions "
              "in >= 100 A/A; >= 95% of planted 3% caught):"]
    lines += [f"- {line}" for line in verdict_lines]
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: gpu-decision-summary.py OUT KERNEL...")
    main(sys.argv[1], sys.argv[2:])
