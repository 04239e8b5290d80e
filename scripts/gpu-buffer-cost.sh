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
  echo "| build | kernel and decisions | decisions | GPU-s median | GPU-s p90 | wall s per decision | verdicts |"
  echo "|---|---|---|---|---|---|---|"
} >"$out/summary.md"
# One row of the summary from a file of measurement JSON lines: GPU-s per decision (median, p90),
# wall time per decision over the call(s), verdicts.
summarise() {  # FILE LABEL WHAT WALL_SECONDS
  python3 - "$@" >>"$out/summary.md" <<'PY'
import json, statistics, sys
path, label, what, wall = sys.argv[1:5]
rows = [json.loads(l) for l in open(path) if l.strip().startswith("{")]
gpu = sorted(r["gpu_seconds"] for r in rows)
verdicts = {}
for r in rows: verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
p90 = gpu[min(len(gpu) - 1, int(0.9 * len(gpu)))] if gpu else float("nan")
median = statistics.median(gpu) if gpu else float("nan")
print(f"| {label} | {what} | {len(rows)} | {median:.3f} | {p90:.3f} | {float(wall) / max(len(rows), 1):.2f} | {verdicts} |")
PY
}
for pair in "$@"; do
  label=${pair%%=*} kf=$(realpath "${pair#*=}")
  for kernel in stream_64mb stream_1gb; do
    for kind in aa planted; do
      [[ $kind == planted && ${PLANTED:-0} == 0 ]] && continue
      candidate=$kernel; [[ $kind == planted ]] && candidate=${kernel}_slower
      count=$runs; [[ $kind == planted ]] && count=$PLANTED
      start=$(date +%s.%N)
      "$kf" bench "$file:$candidate" --vs "$file:$kernel" --in-process --format json --repeat "$count" \
        >"$out/$label-$kernel-$kind.jsonl" 2>"$out/$label-$kernel-$kind.err"
      summarise "$out/$label-$kernel-$kind.jsonl" "$label" "$kernel $kind, one process" \
        "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')"
    done
    [[ ${PLANTED:-0} == 0 ]] && continue
    # The default path: a child process per measurement, a regression confirmed in a fresh one.
    : >"$out/$label-$kernel-full.jsonl"
    start=$(date +%s.%N)
    for ((r = 0; r < PLANTED; ++r)); do
      "$kf" bench "$file:${kernel}_slower" --vs "$file:$kernel" --format json >>"$out/$label-$kernel-full.jsonl" \
        2>>"$out/$label-$kernel-full.err"
    done
    summarise "$out/$label-$kernel-full.jsonl" "$label" "$kernel planted, confirmed (child processes)" \
      "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')"
  done
done
cat "$out/summary.md"
