#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks on a GPU machine that kforecast measures what ships: the kernel
# families of fixtures/gpu (SGEMM steps; GELU, softmax and layer norm; a sum of sines whose verdict
# the project's --use_fast_math decides), ten pairs, measured by
# `kforecast bench` with the project's nvcc build (--project-build, as `pr` hands it to its
# measuring child; the project's flags are -std=c++17 --use_fast_math, as llm.c builds) and with
# NVRTC's (kforecast's own build, no project flags), against an independent timer
# of our own (scripts/gpu-shipped-timer.cu: the CUDA runtime, nvcc's build linked in, NVRTC's
# loaded at run time). Also counts each build's SASS instructions and says whether the two
# compilers' SASS differs (cuobjdump). Reads the GPU's state only.
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
dir=fixtures/gpu
variants=(sgemm/v1_naive sgemm/v2_coalesced sgemm/v3_shared sgemm/v4_tile1d sgemm/v5_tile2d sgemm/v6_vectorized
          sgemm/v7_tile2d_k16 activation/gelu_scalar activation/gelu_vec4 activation/softmax_thread
          activation/softmax_warp activation/layernorm_block activation/layernorm_warp wave/wave_intrinsic
          wave/wave_precise)
pairs=(sgemm/v1_naive:v2_coalesced:sgemm sgemm/v2_coalesced:v3_shared:sgemm sgemm/v3_shared:v4_tile1d:sgemm
       sgemm/v4_tile1d:v5_tile2d:sgemm sgemm/v5_tile2d:v6_vectorized:sgemm sgemm/v5_tile2d:v7_tile2d_k16:sgemm
       activation/gelu_scalar:gelu_vec4:gelu activation/softmax_thread:softmax_warp:softmax
       activation/layernorm_block:layernorm_warp:layernorm wave/wave_intrinsic:wave_precise:wave)
flags=(-std=c++17 --use_fast_math)

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >"$out/gpu.txt" 2>&1
"$kf" doctor >>"$out/gpu.txt" 2>&1

# The independent timer, and each variant's SASS from both compilers.
nvcc -O3 "${flags[@]}" -arch=sm_90 -o "$out/cubins/timer" scripts/gpu-shipped-timer.cu -lnvrtc -lcuda || exit 1
"$out/cubins/timer" "$dir" "$out/cubins" >"$out/timer.txt" || exit 1
: >"$out/sass.txt"
# The instructions of a cubin's kernel, without addresses and encodings.
sass() { cuobjdump -sass "$1" | grep -E '^\s+/\*[0-9a-f]{4,}\*/' | sed -E 's#/\*[0-9a-f]+\*/##; s#/\*.*\*/##; s/[[:space:]]+/ /g'; }
for v in "${variants[@]}"; do
  name=${v#*/}
  nvcc -cubin -arch=sm_90 "${flags[@]}" -o "$out/cubins/$name.nvcc.cubin" "$dir/$v.cu"
  sass "$out/cubins/$name.nvcc.cubin" >"$out/cubins/$name.nvcc.sass"
  sass "$out/cubins/$name.nvrtc.cubin" >"$out/cubins/$name.nvrtc.sass"
  same=differs; cmp -s "$out/cubins/$name.nvcc.sass" "$out/cubins/$name.nvrtc.sass" && same=same
  printf '%s %s %s %s\n' "$name" "$(wc -l <"$out/cubins/$name.nvcc.sass")" "$(wc -l <"$out/cubins/$name.nvrtc.sass")" "$same" >>"$out/sass.txt"
done

# kforecast bench, both builds, each pair.
build="$out/cubins/project-build.json"
printf '{"reference_tree": "%s", "candidate_tree": "%s", "reference_arguments": ["-std=c++17", "--use_fast_math"], "candidate_arguments": ["-std=c++17", "--use_fast_math"]}\n' \
  "$dir" "$dir" >"$build"
: >"$out/bench.jsonl"
for pair in "${pairs[@]}"; do
  IFS=: read -r base_path head kernel <<<"$pair"
  family=${base_path%%/*}; base=${base_path#*/}
  for compiler in nvcc nvrtc; do
    extra=(); [ "$compiler" = nvcc ] && extra=(--project-build "$build")
    json=$("$kf" bench "$dir/$family/$head.cu:$kernel" --vs "$dir/$family/$base.cu:$kernel" "${extra[@]}" --format json 2>>"$out/cubins/stderr.txt")
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
lines = ["| pair (base -> head) | SASS instructions nvcc / NVRTC (base; head) | timer speedup nvcc | kforecast nvcc build | agreement | timer speedup NVRTC | kforecast NVRTC build | agreement |",
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
    code = lambda v: f"{sass[v][0]}/{sass[v][1]} {'(same)' if sass[v][2] == 'same' else '(differs)'}"
    lines.append(f"| {base} -> {head} | {code(base)}; {code(head)} | " + " | ".join(cells) + " |")
notes = {n for r in rows if r["measurement"] for n in r["measurement"].get("notes", []) if "built by" in n}
lines += ["", f"worst disagreement, kforecast's nvcc build against the timer's: {100 * worst:.2f}%", "", "build notes:"]
lines += [f"- {n}" for n in sorted(notes)]
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
