#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `kforecast pr` on a GPU machine measuring what ships, end to end: a repository whose kernel
# goes from fixtures/gpu/sgemm's v5_tile2d to v7_tile2d_k16 (a regression), with a
# compile_commands.json giving -std=c++17 --use_fast_math; the report must say the kernel was
# built by nvcc with those flags and measured so. CARRY as in gpu-shipped-build.sh; writes OUT/pr.json.
set -uo pipefail
carry=$(realpath "${CARRY:-.carry/shipped}")
out=$(realpath -m "${OUT:-./gpu-shipped-out}")
src=$(realpath fixtures/gpu/sgemm)
mkdir -p "$out"
kf="$carry/kforecast"
if ldd "$kf" | grep -q "not found"; then export LD_LIBRARY_PATH="$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
repo=$(mktemp -d)
cd "$repo" && git init -q && git config user.email kf@example.com && git config user.name kf
mkdir -p src build
cp "$src/v5_tile2d.cu" src/sgemm.cu
printf '[{"directory": "%s", "file": "src/sgemm.cu", "arguments": ["nvcc", "-std=c++17", "--use_fast_math", "-c", "src/sgemm.cu"]}]\n' "$repo" >build/compile_commands.json
git add src && git commit -qm base
cp "$src/v7_tile2d_k16.cu" src/sgemm.cu
git commit -qam "head: K slices of 16"
"$kf" pr --base HEAD~1 --format json >"$out/pr.json" 2>"$out/pr.err"
echo "exit $?"
python3 - "$out/pr.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k in r["kernels"]:
    m = k.get("measurement") or {}
    print(k["name"], k["decision"], k["verdict"], "build:", k.get("build"), "speedup:", m.get("speedup"), m.get("verdict"))
    for n in k["notes"] + m.get("notes", []): print("  -", n)
PY
