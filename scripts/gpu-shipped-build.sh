#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks on a GPU machine that kforecast measures what ships (issue 16, step 6): the SGEMM family
# of fixtures/gpu/sgemm, six pairs, measured by `kforecast bench` with the project's nvcc build
# (--project-build, as `pr` hands it to its measuring child) and with NVRTC's, against an
# independent timer of our own (scripts/gpu-shipped-timer.cu: the CUDA runtime, nvcc's build
# linked in, NVRTC's loaded at run time). Also counts each build's SASS instructions (cuobjdump),
# to show where the two compilers' code differs. Reads the GPU's state only.
#
#   CARRY=.carry/shipped OUT=out scripts/gpu-shipped-build.sh
#
# CARRY holds kforecast and lib/ (shared libraries the machine may lack). Writes to OUT:
# timer.txt, sass.txt, bench.jsonl (one line per measurement) and summary.md.
set -uo pipefail
carry=$(realpath "${CARRY:-.carry/shipped}")
out=$(realpath -m "${OUT:-./gpu-shipped-out}")
mkdir -p "$out/cubins"
kf="$carry/kforecast"
if ldd "$kf" | grep -q "not found"; then export LD_LIBRARY_PATH="$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
dir=fixtures/gpu/sgemm
variants=(v1_naive v2_coalesced v3_shared v4_tile1d v5_tile2d v6_vectorized v7_tile2d_k16)
pairs=(v1_naive:v2_coalesced v2_coalesced:v3_shared v3_shared:v4_tile1d v4_tile1d:v5_tile2d
       v5_tile2d:v6_vectorized v5_tile2d:v7_tile2d_k16)
flags=(-std=c++17)

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >"$out/gpu.txt" 2>&1
"$kf" doctor >>"$out/gpu.txt" 2>&1

# The independent timer, and each variant's SASS from both compilers.
nvcc -O3 -std=c++17 -arch=sm_90 -o "$out/cubins/timer" scripts/gpu-shipped-timer.cu -lnvrtc -lcuda || exit 1
"$out/cubins/timer" "$dir" "$out/cubins" >"$out/timer.txt" || exit 1
: >"$out/sass.txt"
for v in "${variants[@]}"; do
  nvcc -cubin -arch=sm_90 "${flags[@]}" -o "$out/cubins/$v.nvcc.cubin" "$dir/$v.cu"
  count() { cuobjdump -sass "$1" | grep -cE '^\s+/\*[0-9a-f]{4,}\*/'; }
  printf '%s %s %s\n' "$v" "$(count "$out/cubins/$v.nvcc.cubin")" "$(count "$out/cubins/$v.nvrtc.cubin")" >>"$out/sass.txt"
done

# kforecast bench, both builds, each pair.
build="$out/cubins/project-build.json"
printf '{"reference_tree": "%s", "candidate_tree": "%s", "reference_arguments": ["-std=c++17"], "candidate_arguments": ["-std=c++17"]}\n' \
  "$dir" "$dir" >"$build"
: >"$out/bench.jsonl"
for pair in "${pairs[@]}"; do
  base=${pair%%:*}; head=${pair##*:}
  for compiler in nvcc nvrtc; do
    extra=(); [ "$compiler" = nvcc ] && extra=(--project-build "$build")
    json=$("$kf" bench "$dir/$head.cu:sgemm" --vs "$dir/$base.cu:sgemm" "${extra[@]}" --format json 2>>"$out/cubins/stderr.txt")
    status=$?
    printf '{"base": "%s", "head": "%s", "compiler": "%s", "exit": %s, "measurement": %s}\n' \
      "$base" "$head" "$compiler" "$status" "${json:-null}" >>"$out/bench.jsonl"
  done
done

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
timer = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(f"{out}/timer.txt") if l.strip()}
sass = {l.split()[0]: l.split()[1:] for l in open(f"{out}/sass.txt") if l.strip()}
rows = [json.loads(l) for l in open(f"{out}/bench.jsonl") if l.strip()]
lines = ["| pair (base -> head) | SASS nvcc / NVRTC (base; head) | timer speedup nvcc | kforecast nvcc build | agreement | timer speedup NVRTC | kforecast NVRTC build | agreement |",
         "|---|---|---|---|---|---|---|---|"]
worst = 0.0
for base, head in dict.fromkeys((r["base"], r["head"]) for r in rows):
    cells = []
    for compiler, column in (("nvcc", 0), ("nvrtc", 1)):
        r = next(r for r in rows if r["base"] == base and r["head"] == head and r["compiler"] == compiler)
        m = r["measurement"] or {}
        independent = timer[base][column] / timer[head][column]
        measured = m.get("speedup")
        verdict = m.get("verdict", f"exit {r['exit']}")
        agree = "-" if measured is None else f"{100 * (measured / independent - 1):+.2f}%"
        if measured is not None and compiler == "nvcc": worst = max(worst, abs(measured / independent - 1))
        cells += [f"{independent:.4f}", "-" if measured is None else f"{measured:.4f} ({verdict})", agree]
    lines.append(f"| {base} -> {head} | {'/'.join(sass[base])}; {'/'.join(sass[head])} | " + " | ".join(cells) + " |")
notes = {n for r in rows if r["measurement"] for n in r["measurement"].get("notes", []) if "built by" in n}
lines += ["", f"worst disagreement, kforecast's nvcc build against the timer's: {100 * worst:.2f}%", "", "build notes:"]
lines += [f"- {n}" for n in sorted(notes)]
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
