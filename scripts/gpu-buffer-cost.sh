#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What one decision of `kforecast bench` costs as a pair's buffers grow, on a GPU machine: the
# kernels of fixtures/gpu/decision/stream-buffers.cu (64 MB and 1 GB of x and y together), each
# against itself RUNS times in one process (`bench --in-process --repeat`: one compile, then
# each decision from its own module load, buffers, correctness check and timing), with each
# binary given (the build before inputs were drawn and outputs compared on the GPU, and after).
# Prints GPU-s per decision (median, p90; the runner's own count) and the call's wall time per
# decision. Reads the GPU's state only; never changes clocks or modes.
#
#   OUT=$OUT scripts/gpu-buffer-cost.sh RUNS LABEL=KFORECAST...
set -uo pipefail
out=$(realpath -m "${OUT:-./buffer-cost-out}")
runs=${1:?runs}; shift
mkdir -p "$out"
file=$(realpath fixtures/gpu/decision/stream-buffers.cu)
{
  echo "# date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  echo
  echo "| build | kernel | decisions | GPU-s median | GPU-s p90 | wall s per decision | verdicts |"
  echo "|---|---|---|---|---|---|---|"
} >"$out/summary.md"
for pair in "$@"; do
  label=${pair%%=*} kf=$(realpath "${pair#*=}")
  for kernel in stream_64mb stream_1gb; do
    start=$(date +%s.%N)
    "$kf" bench "$file:$kernel" --vs "$file:$kernel" --in-process --format json --repeat "$runs" \
      >"$out/$label-$kernel.jsonl" 2>"$out/$label-$kernel.err"
    end=$(date +%s.%N)
    python3 - "$out/$label-$kernel.jsonl" "$label" "$kernel" "$start" "$end" "$runs" >>"$out/summary.md" <<'PY'
import json, statistics, sys
path, label, kernel, start, end, runs = sys.argv[1:7]
rows = [json.loads(l) for l in open(path) if l.strip().startswith("{")]
gpu = sorted(r["gpu_seconds"] for r in rows)
verdicts = {}
for r in rows: verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
p90 = gpu[min(len(gpu) - 1, int(0.9 * len(gpu)))] if gpu else float("nan")
wall = (float(end) - float(start)) / max(len(rows), 1)
print(f"| {label} | {kernel} | {len(rows)} | {statistics.median(gpu) if gpu else float('nan'):.3f} | {p90:.3f} | {wall:.2f} | {verdicts} |")
PY
  done
done
cat "$out/summary.md"
