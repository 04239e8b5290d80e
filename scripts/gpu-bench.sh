#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Validates `kforecast bench` on a GPU machine with a binary built elsewhere (CARRY, default
# .carry/bench: kforecast, lib/ with shared libraries the machine may lack, fixtures/bench).
# Writes logs and a summary to OUT. Reads the GPU's state only; never changes clocks or modes.
#
#   scripts/gpu-bench.sh checks        # A/A, faster/slower pair, fault, hang, wrong result
#   scripts/gpu-bench.sh noise RUNS    # RUNS A/A and planted 3%/10% runs per kernel size
#                                      (SIZES="5us 50us 500us" and EXTRAS="0 30 100" choose)
set -uo pipefail
carry=$(realpath "${CARRY:-.carry/bench}")
out=$(realpath -m "${OUT:-./gpu-bench-out}")
mode=${1:-checks}
runs=${2:-20}
mkdir -p "$out"
kf="$carry/kforecast"
fx="$carry/fixtures/bench"
if ldd "$kf" | grep -q "not found"; then export LD_LIBRARY_PATH="$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi

# One line per measurement: label, exit status, verdict, speedup, interval, times, GPU seconds, reason.
measure() {
  local label=$1; shift
  local json status
  json=$("$kf" bench "$@" --format json 2>"$out/stderr.txt")
  status=$?
  printf '%s\t%s\t%s\n' "$label" "$status" "$json" >>"$out/$mode.tsv"
  python3 - "$label" "$status" "$json" "$(tail -c 300 "$out/stderr.txt")" <<'PY'
import json, sys
label, status, text, err = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
try:
    m = json.loads(text)
except Exception:
    print(f"{label:34s} exit {status} NO-JSON {err.strip()[:200]}"); sys.exit()
f = lambda v, d=4: "-" if v is None else f"{v:.{d}f}"
print(f"{label:34s} exit {status} {m['verdict']:12s} S={f(m['speedup'])} [{f(m['ci_low'])}, {f(m['ci_high'])}] "
      f"base={f(m['t_base_us'],2)}us head={f(m['t_head_us'],2)}us gpu={m['gpu_seconds']:.2f}s "
      f"rounds={m.get('rounds')} clk={m.get('sm_clock_median_mhz')} {m.get('reason','')[:160]}")
PY
}

{
  echo "# $(date -u +%FT%TZ) mode=$mode"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,persistence_mode,temperature.gpu --format=csv,noheader
  "$kf" --version
} | tee "$out/$mode-summary.txt"

if [[ $mode == checks ]]; then
  {
    measure "copy vs copy (A/A)" "$fx/copy.cu:copy" --vs "$fx/copy.cu:copy"
    measure "coalesced vs strided (faster)" "$fx/copy.cu:copy" --vs "$fx/copy.cu:copy_strided"
    measure "strided vs coalesced (regression)" "$fx/copy.cu:copy_strided" --vs "$fx/copy.cu:copy"
    measure "out-of-bounds candidate (failed)" "$fx/copy.cu:copy_out_of_bounds" --vs "$fx/copy.cu:copy"
    measure "copy after the fault" "$fx/copy.cu:copy" --vs "$fx/copy.cu:copy"
    measure "hanging candidate (failed)" "$fx/copy.cu:copy_hangs" --vs "$fx/copy.cu:copy" --config "$fx/short-timeout.toml"
    measure "copy after the hang" "$fx/copy.cu:copy" --vs "$fx/copy.cu:copy"
    measure "wrong-result candidate (failed)" "$fx/copy.cu:copy_wrong" --vs "$fx/copy.cu:copy"
    measure "copy after the wrong result" "$fx/copy.cu:copy" --vs "$fx/copy.cu:copy"
    # --against: the head renames the strided copy to `copy` in a fresh git repository.
    repo=$(mktemp -d)
    git init -q "$repo" && cp "$fx/copy.cu" "$repo/k.cu" && git -C "$repo" add -A &&
      git -C "$repo" -c user.name=kf -c user.email=kf@kforecast.invalid commit -qm base
    sed -i 's/__global__ void copy(/__global__ void copy_old(/; s/__global__ void copy_strided(/__global__ void copy(/' "$repo/k.cu"
    measure "copy now strided --against HEAD" "$repo/k.cu:copy" --against HEAD
    measure "90 GiB of buffers (failed, memory)" "$fx/huge.cu:huge" --vs "$fx/huge.cu:huge"
    measure "axpy vs itself (in place, 2 sizes)" "$fx/axpy.cu:axpy" --vs "$fx/axpy.cu:axpy"
    measure "axpy, 1/4 of the threads, vs axpy" "$fx/axpy.cu:axpy_fewer_threads" --vs "$fx/axpy.cu:axpy"
    for size in 5us 50us 500us; do
      measure "chain $size A/A" "$fx/chain.cu:chain<0>" --vs "$fx/chain.cu:chain<0>" --config "$fx/chain-$size.toml"
      measure "chain $size +3%" "$fx/chain.cu:chain<30>" --vs "$fx/chain.cu:chain<0>" --config "$fx/chain-$size.toml"
      measure "chain $size +10%" "$fx/chain.cu:chain<100>" --vs "$fx/chain.cu:chain<0>" --config "$fx/chain-$size.toml"
    done
  } 2>&1 | tee -a "$out/$mode-summary.txt"
  # Each size of the two-size pairs.
  python3 "$(dirname "$0")/gpu-bench-summary.py" --sizes "$out/$mode.tsv" axpy | tee -a "$out/$mode-summary.txt"
elif [[ $mode == noise ]]; then
  # Single in-process measurements (no fresh-process confirmation): the raw rates of the method.
  for size in ${SIZES:-5us 50us 500us}; do
    for extra in ${EXTRAS:-0 30 100}; do
      for ((r = 1; r <= runs; r++)); do
        measure "chain $size extra=$extra run $r" "$fx/chain.cu:chain<$extra>" --vs "$fx/chain.cu:chain<0>" \
          --config "$fx/chain-$size.toml" --in-process
      done
    done
  done 2>&1 | tee -a "$out/$mode-runs.txt" | tail -n 3
  python3 "$(dirname "$0")/gpu-bench-summary.py" "$out/$mode.tsv" | tee -a "$out/$mode-summary.txt"
fi
