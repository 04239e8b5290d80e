#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarises scripts/gpu-bench.sh noise runs (TSV: label, exit status, measurement JSON): per
kernel size and planted slowdown, the verdict counts, the spread of the speedup, the kernel time
and the GPU seconds per decision."""
import collections, json, re, statistics as st, sys

if sys.argv[1] == "--sizes":
    # Each size of the measurements whose label contains sys.argv[3].
    for line in open(sys.argv[2]):
        label, status, text = line.rstrip("\n").split("\t", 2)
        if sys.argv[3] not in label:
            continue
        for s in json.loads(text).get("sizes", []):
            print(f"  {label[:34]:34s} {s['size']:12s} {s['verdict']:12s} S={s['speedup']:.4f} "
                  f"[{s['ci_low']:.4f}, {s['ci_high']:.4f}] base={s['t_base_us']:.2f}us head={s['t_head_us']:.2f}us "
                  f"rounds={len(s['round_log_speedups'])} batch={s['batch']}")
    sys.exit()

groups = collections.OrderedDict()
for line in open(sys.argv[1]):
    label, status, text = line.rstrip("\n").split("\t", 2)
    key = re.sub(r" run \d+$", "", label)
    try:
        groups.setdefault(key, []).append(json.loads(text))
    except json.JSONDecodeError:
        groups.setdefault(key, []).append({"verdict": "no-json"})

print(f"{'measurement':26s} {'runs':>4s} {'same':>4s} {'regr':>4s} {'fast':>4s} {'inc':>4s} {'fail':>4s} "
      f"{'median S':>9s} {'sd(S) %':>8s} {'t_base us':>10s} {'GPU s/decision (median)':>24s}")
for key, rows in groups.items():
    count = collections.Counter(r["verdict"] for r in rows)
    speedups = [r["speedup"] for r in rows if r.get("speedup")]
    bases = [r["t_base_us"] for r in rows if r.get("t_base_us")]
    seconds = [r["gpu_seconds"] for r in rows if r.get("gpu_seconds") is not None]
    sd = 100 * st.stdev(speedups) / st.mean(speedups) if len(speedups) > 1 else float("nan")
    print(f"{key:26s} {len(rows):4d} {count['same']:4d} {count['regression']:4d} {count['faster']:4d} "
          f"{count['inconclusive']:4d} {count['failed'] + count['no-json']:4d} "
          f"{st.median(speedups) if speedups else float('nan'):9.4f} {sd:8.3f} "
          f"{st.median(bases) if bases else float('nan'):10.2f} {st.median(seconds) if seconds else float('nan'):24.2f}")
