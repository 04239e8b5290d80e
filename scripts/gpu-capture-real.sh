#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Real code measured end to end through capture.command, with no launch spec anywhere: merged
# commits of a public SGEMM tutorial repository (siboehm/SGEMM_CUDA) whose kernels are templates
# defined in headers and instantiated by the program's runner. For each COMMIT:N given (N: the
# program's kernel number), a repository whose base is COMMIT~1 plus a .kforecast.toml with
#   capture.build   = CMake, Release, the program alone
#   capture.command = ./build/sgemm N
# and whose head is COMMIT cherry-picked onto it; `kforecast pr` finds the changed kernel, builds
# the base and records its launches, and measures both sides by replaying them. The independent
# check is the program's own timer (CUDA events around 50 launches, its "Average elapsed time"
# at the largest size, 4096), run at both revisions A B B A twice, built separately.
# Reads the GPU's state only; never changes clocks or modes.
#
#   CARRY=.carry/capture-real OUT=$OUT scripts/gpu-capture-real.sh BUNDLE COMMIT:N...
#
# CARRY holds kforecast and libkforecast_capture.so (and lib/ with any shared library the machine
# lacks). Writes OUT/summary.md, OUT/<commit>/pr.json, pr.err, timer.txt.
set -uo pipefail
carry=$(realpath "${CARRY:-.carry/capture-real}")
out=$(realpath -m "${OUT:-./capture-real-out}")
bundle=$(realpath "$1"); shift
kf="$carry/kforecast"
if ldd "$kf" | grep -q "not found"; then export LD_LIBRARY_PATH="$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
mkdir -p "$out"
work=$(mktemp -d)
build_cmd='cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 && cmake --build build --target sgemm -j 8 >/dev/null 2>&1'

# The program built at `revision` in $work/builds/<revision>, for the timer (in the background).
build_at() {
  local revision=$1 tree=$work/builds/$1
  git clone -q "$bundle" "$tree" && git -C "$tree" checkout -q "$revision" &&
    (cd "$tree" && eval "$build_cmd") && echo built >"$tree/.built"
}
# The program's own time at size 4096, in ms.
time_4096() {
  (cd "$work/builds/$1" && ./build/sgemm "$2" 2>/dev/null) |
    sed -n 's/^Average elapsed time: (\s*\([0-9.]*\)) s.*size: (4096).*/\1/p' | awk '{ printf "%.4f", $1 * 1000 }'
}

{
  echo "# date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  "$kf" --version
} >"$out/summary.md"
pids=()
for pair in "$@"; do
  commit=${pair%%:*}
  for revision in "$commit~1" "$commit"; do
    [ -d "$work/builds/$revision" ] || { build_at "$revision" & pids+=($!); }
  done
done

printf '\n| commit | kernel | pr exit | pr decision | kforecast speedup [interval] | verdict | wall s | GPU-s | program base -> head (ms, 4096) | program speedup |\n|---|---|---|---|---|---|---|---|---|---|\n' >>"$out/summary.md"
for pair in "$@"; do
  commit=${pair%%:*} kernel=${pair#*:}
  dir=$out/$commit && mkdir -p "$dir"
  repo=$work/repo-$commit
  git clone -q "$bundle" "$repo" && cd "$repo" || continue
  git config user.email kf@example.com && git config user.name kf
  git checkout -q -b base "$commit~1"
  printf '[capture]\nbuild = "%s"\ncommand = "./build/sgemm %s"\ntimeout_seconds = 300\n' \
    "${build_cmd//\"/\\\"}" "$kernel" >.kforecast.toml
  git add .kforecast.toml && git commit -qm "kforecast config"
  git checkout -q -b head && git cherry-pick -x "$commit" >/dev/null 2>&1 || { echo "cherry-pick of $commit failed" >"$dir/pr.err"; continue; }
  start=$(date +%s.%N)
  "$kf" pr --base base --head head --format json >"$dir/pr.json" 2>"$dir/pr.err"
  echo "$? $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')" >"$dir/pr.exit"
  cd "$out" || exit 1
done

wait "${pids[@]}" 2>/dev/null
for pair in "$@"; do
  commit=${pair%%:*} kernel=${pair#*:}
  dir=$out/$commit
  : >"$dir/timer.txt"
  for round in 1 2; do
    for side in "$commit~1" "$commit" "$commit" "$commit~1"; do
      [ -f "$work/builds/$side/.built" ] || { echo "$side not built" >>"$dir/timer.txt"; continue; }
      echo "$side $(time_4096 "$side" "$kernel")" >>"$dir/timer.txt"
    done
  done
  python3 - "$dir" "$commit" "$kernel" >>"$out/summary.md" <<'PY'
import json, statistics, sys
d, commit, kernel = sys.argv[1:4]
base, head = [], []
for line in open(f"{d}/timer.txt"):
    parts = line.split()
    if len(parts) == 2 and parts[1]:
        (head if not parts[0].endswith("~1") else base).append(float(parts[1]))
timer = f"{statistics.median(base):.3f} -> {statistics.median(head):.3f}" if base and head else "-"
ratio = f"{statistics.median(base) / statistics.median(head):.4f}" if base and head else "-"
code, wall = (open(f"{d}/pr.exit").read().split() + ["-", "-"])[:2]
try:
    report = json.load(open(f"{d}/pr.json"))
except Exception:
    print(f"| {commit} | {kernel} | {code} | (no report) | | | {wall} | | {timer} | {ratio} |"); sys.exit()
for k in report["kernels"]:
    m = k.get("measurement") or {}
    s = m.get("speedup")
    figure = f"{s:.4f} [{m['ci_low']:.4f}, {m['ci_high']:.4f}]" if isinstance(s, (int, float)) else "-"
    print(f"| {commit} | {k['name']} | {code} | {k['decision']} | {figure} | {m.get('verdict', '-')} | "
          f"{m.get('wall_seconds', '-')} | {m.get('gpu_seconds', '-')} | {timer} | {ratio} |")
PY
done
cat "$out/summary.md"
