#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `pr`, `check --bench` and `bench --against` on the same kernel pairs, on a GPU machine: each must
# measure the build the project ships (nvcc with the compile database's flags) and agree with the
# others. Pairs from fixtures/gpu: sgemm v5_tile2d -> v7_tile2d_k16 (a regression under any build),
# and wave_intrinsic -> wave_precise, whose verdict depends on the build (as shipped with
# --use_fast_math the head is about 1.02x faster; built without the flags, 3.6x slower). Also runs
# the one-build GPU test program where it was carried. CARRY: kforecast (and lib/); writes
# OUT/one-path.md and each command's JSON. Reads the GPU's state only.
set -uo pipefail
carry=$(realpath "${CARRY:-.carry/one-path}")
out=$(realpath -m "${OUT:-./one-path-out}")
fixtures=$(realpath fixtures/gpu)
mkdir -p "$out"
kf="$carry/kforecast"
if ldd "$kf" | grep -q "not found"; then export LD_LIBRARY_PATH="$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi

# A repository whose src/KERNEL.cu goes from BASE to HEAD, built with -std=c++17 --use_fast_math.
make_repo() {
  local name=$1 base=$2 head=$3 repo=$out/repo-$1
  rm -rf "$repo" && mkdir -p "$repo/src" "$repo/build" && cd "$repo" || exit 1
  git init -q && git config user.email kf@example.com && git config user.name kf
  cp "$base" "src/$name.cu"
  printf '[{"directory": "%s", "file": "src/%s.cu", "arguments": ["nvcc", "-std=c++17", "--use_fast_math", "-c", "src/%s.cu"]}]\n' \
    "$repo" "$name" "$name" >build/compile_commands.json
  git add src && git commit -qm base
  cp "$head" "src/$name.cu"
  git commit -qam head
}

{
  echo "# date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  "$kf" --version
  echo
  echo "| pair | command | exit | speedup [interval] | verdict | reference built by | candidate built by |"
  echo "|---|---|---|---|---|---|---|"
} >"$out/one-path.md"
for pair in "sgemm:$fixtures/sgemm/v5_tile2d.cu:$fixtures/sgemm/v7_tile2d_k16.cu" \
            "wave:$fixtures/wave/wave_intrinsic.cu:$fixtures/wave/wave_precise.cu"; do
  IFS=: read -r name base head <<<"$pair"
  make_repo "$name" "$base" "$head"
  "$kf" pr --base HEAD~1 --format json >"$out/$name.pr.json" 2>"$out/$name.pr.err"; echo "$?" >"$out/$name.pr.exit"
  "$kf" check "src/$name.cu:$name" --against HEAD~1 --bench --format json >"$out/$name.check.json" 2>"$out/$name.check.err"
  echo "$?" >"$out/$name.check.exit"
  "$kf" bench "src/$name.cu:$name" --against HEAD~1 --format json >"$out/$name.bench.json" 2>"$out/$name.bench.err"
  echo "$?" >"$out/$name.bench.exit"
  python3 - "$out" "$name" >>"$out/one-path.md" <<'PY'
import json, sys
out, name = sys.argv[1], sys.argv[2]
def built(notes, role):
    for n in notes:
        n = n.removeprefix("measurement: ")
        if n.startswith(f"the {role} was built by "): return n[len(f"the {role} was built by "):]
    return "?"
for command in ("pr", "check", "bench"):
    code = open(f"{out}/{name}.{command}.exit").read().strip()
    try:
        doc = json.load(open(f"{out}/{name}.{command}.json"))
    except Exception as e:
        print(f"| {name} | {command} | {code} | (no JSON: {e}) | | | |"); continue
    if command == "bench":
        m, notes = doc, doc.get("notes", [])
    else:
        k = doc["kernels"][0]; m = k.get("measurement") or {}; notes = k.get("notes", []) + m.get("notes", [])
    s, lo, hi = m.get("speedup"), m.get("ci_low"), m.get("ci_high")
    figure = f"{s:.4f} [{lo:.4f}, {hi:.4f}]" if isinstance(s, (int, float)) else "-"
    print(f"| {name} | {command} | {code} | {figure} | {m.get('verdict', '-')} | {built(notes, 'reference')} | {built(notes, 'candidate')} |")
PY
done
if [ -x "$carry/kf_e2e_one_build_gpu_tests" ]; then
  KF_TEST_BINARY="$kf" "$carry/kf_e2e_one_build_gpu_tests" --reporter compact >"$out/one-build-test.txt" 2>&1
  echo "one-build test exit: $?" >>"$out/one-build-test.txt"
fi
cat "$out/one-path.md"
