#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# GPU time per decision of `kforecast bench`, on a GPU machine with a binary
# built elsewhere. For compute-bound kernels of about 20 us, 100 us, 1 ms and 5 ms
# (fixtures/gpu/decision/work-*.cu: `work` and `work_slower`, 3% more dependent work), it runs
#   - RUNS A/A decisions (work vs itself) and RUNS planted-3% decisions (work_slower vs work),
#     in-process with --repeat: one compile, then each decision from its own module load and
#     buffers, the GPU idle 50 ms between them (the raw rates of the method, no confirmation);
#   - CONFIRMED planted decisions through the default path, a child process per measurement and
#     the fresh-process confirmation of a regression, as `pr` decides (what a confirmation costs);
# and prints per kernel: GPU seconds per decision (median, p90; the runner's own count, from the
# first module load to the result, compiles excluded), false regressions, detection, the slowdown
# the planted kernel measured (to check it is about 3%), and the targets met or missed. Reads the
# GPU's state only; never changes clocks or modes. Without a GPU it checks its arguments, the
# binary and the fixtures' specs (each pair prepared up to the GPU step) and exits 3.
#
#   scripts/gpu-decision-time.sh --prepare          # here: build kforecast, carry it into CARRY
#   CARRY=.carry/shipped OUT=$OUT scripts/gpu-decision-time.sh [--runs N] [--confirmed N]
#       [--kernels "20us 100us 1ms 5ms"] [--budget SECONDS]
#
# Defaults: 100 runs of each kind per kernel, 5 confirmed, all four kernels, a 450 s budget of
# wall time (a kernel not started within it is skipped, and the summary says so). Estimated on an
# H100: about 5 minutes for the defaults. Writes to OUT: gpu.txt, KERNEL-aa.jsonl,
# KERNEL-planted.jsonl, KERNEL-full.jsonl (one measurement JSON per line), calls.tsv (wall time
# per call), summary.md.
set -uo pipefail
runs=100 confirmed=5 kernels="20us 100us 1ms 5ms" budget=450 prepare=0
usage() { sed -n '/^#   scripts/,/^#       \[--kernels/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
count() { [[ $2 =~ ^[0-9]+$ ]] || { echo "gpu-decision-time.sh: $1 wants a whole number, got '$2'" >&2; exit 2; }; }
while (($#)); do
  case $1 in
    --runs) count "$1" "${2-}"; runs=$2; shift 2 ;;
    --confirmed) count "$1" "${2-}"; confirmed=$2; shift 2 ;;
    --budget) count "$1" "${2-}"; budget=$2; shift 2 ;;
    --kernels) kernels=${2-}; shift 2 ;;
    --prepare) prepare=1; shift ;;
    -h | --help) usage ;;
    *) echo "gpu-decision-time.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
fx=fixtures/gpu/decision
for k in $kernels; do
  [[ -f $fx/work-$k.cu ]] || { echo "gpu-decision-time.sh: no fixture $fx/work-$k.cu (kernels: 20us 100us 1ms 5ms)" >&2; exit 2; }
done
((runs >= 2)) || { echo "gpu-decision-time.sh: --runs must be at least 2 (a confirmation pairs run i with run i+1)" >&2; exit 2; }
carry=$(realpath -m "${CARRY:-.carry/shipped}")

(( prepare )) && exec "$(dirname "$0")/carry-kforecast.sh" "$carry"

kf="$carry/kforecast"
[[ -x $kf ]] || { echo "gpu-decision-time.sh: no kforecast binary at $kf (run --prepare here first)" >&2; exit 2; }
if ldd "$kf" | grep -q "not found"; then export LD_LIBRARY_PATH="$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
"$kf" --version >/dev/null || { echo "gpu-decision-time.sh: $kf does not run here" >&2; exit 2; }
"$kf" help bench | grep -q -- --repeat || { echo "gpu-decision-time.sh: $kf has no 'bench --repeat': carry a newer build (--prepare)" >&2; exit 2; }
out=$(realpath -m "${OUT:-./gpu-decision-out}")
mkdir -p "$out"

if ! nvidia-smi -L >/dev/null 2>&1; then
  # No GPU: every pair must still be prepared (kernels found, specs bound); 3 is "no GPU".
  for k in $kernels; do
    for head in work work_slower; do
      "$kf" bench "$fx/work-$k.cu:$head" --vs "$fx/work-$k.cu:work" --format json >/dev/null 2>"$out/prepare.txt"
      status=$?
      if ((status != 3)); then
        echo "gpu-decision-time.sh: $k $head: exit $status: $(cat "$out/prepare.txt")" >&2
        exit 1
      fi
    done
  done
  echo "gpu-decision-time.sh: no GPU here: checked the arguments, $kf and the specs of: $kernels; nothing measured" >&2
  exit 3
fi

{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,persistence_mode,temperature.gpu --format=csv,noheader
  "$kf" --version
  echo "runs=$runs confirmed=$confirmed kernels=$kernels budget=${budget}s"
} | tee "$out/gpu.txt"

start=$SECONDS
printf 'kernel\tkind\tcall\texit\twall_s\n' >"$out/calls.tsv"
# One call, timed; its JSON lines go to FILE.
call() {
  local k=$1 kind=$2 file=$3; shift 3
  local t0=$EPOCHREALTIME status
  "$@" >>"$file" 2>>"$out/stderr.txt"
  status=$?
  printf '%s\t%s\t%s\t%s\t%.2f\n' "$k" "$kind" "${*:2}" "$status" "$(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN { print a - b }')" >>"$out/calls.tsv"
}
for k in $kernels; do
  if ((SECONDS - start > budget)); then
    echo "budget of ${budget}s spent: kernel $k skipped" | tee -a "$out/gpu.txt"
    continue
  fi
  src="$fx/work-$k.cu"
  : >"$out/$k-aa.jsonl"; : >"$out/$k-planted.jsonl"; : >"$out/$k-full.jsonl"
  call "$k" aa "$out/$k-aa.jsonl" "$kf" bench "$src:work" --vs "$src:work" --in-process --format json --repeat "$runs"
  call "$k" planted "$out/$k-planted.jsonl" "$kf" bench "$src:work_slower" --vs "$src:work" --in-process --format json --repeat "$runs"
  for ((c = 1; c <= confirmed; c++)); do
    call "$k" full "$out/$k-full.jsonl" "$kf" bench "$src:work_slower" --vs "$src:work" --format json
  done
  echo "$k done at $((SECONDS - start)) s"
done
python3 "$(dirname "$0")/gpu-decision-summary.py" "$out" $kernels | tee "$out/summary.md"
