#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Acceptance check on a GPU machine: measuring real kernels without a launch spec.
# On fixtures/capture-project (a CMake project of ours: a kernel library, a test program, a
# benchmark program; none of its kernels has a spec), in a fresh git repository:
#   1. builds the base with the machine's nvcc and runs `kforecast capture -- build/kernel_test`;
#   2. `kforecast pr` on a head that slows poly_kernel by 5% (2100 dependent steps instead of
#      2000): measured by replaying the capture, the gate must fail (exit 1); on a head that speeds
#      it up (1500 steps): the gate must pass (exit 0);
#   3. A/A: the base against itself, replayed, AA times (`bench --repeat`): false regressions;
#   4. a planted 3% slowdown (2060 steps), PLANTED times: how many are caught;
#   5. the same two heads through the harness path: a [[harness]] table in the base's config that
#      builds the project and runs its benchmark program (`kernel_bench {filter} --simple`);
#   6. the same two heads with no capture anywhere and capture.command in the base's config: pr
#      builds the base in its cache, runs build/kernel_test under the capture library itself
#      (confined), and replays what it recorded (`--only-command` runs this case alone);
#   7. the same two heads through a [[harness]] with build, run and list and no [[harness.map]]: pr
#      learns the map by capture at the base (`kernel_bench --list` names axpy<float>, sum, matmul
#      and poly; each runs once under the capture library), measures poly_kernel with the `poly`
#      benchmark alone, and the second run reads the learned map from the cache (`--only-learned`
#      runs this case alone).
# Reads the GPU's state only; never changes clocks or modes.
#
#   CARRY=.carry/shipped OUT=$OUT scripts/gpu-capture-replay.sh [--aa N] [--planted N]
#                                     [--only-command] [--only-learned]
#
# CARRY holds kforecast, libkforecast_capture.so and lib/ (shared libraries a bare machine lacks).
# Writes to OUT: capture.txt, pr-*.json/.txt, aa.jsonl, planted.jsonl, harness-*.json,
# learned-map.tsv, learned-runs.txt, summary.md.
set -uo pipefail
aa=50 planted=60 only_command=0 only_learned=0
while (($#)); do
  case $1 in
    --only-command) only_command=1; shift ;;
    --only-learned) only_learned=1; shift ;;
    --aa|--planted)
      [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "gpu-capture-replay.sh: $1 takes a count, not '${2:-}'" >&2; exit 2; }
      if [[ $1 == --aa ]]; then aa=$2; else planted=$2; fi
      shift 2 ;;
    *) echo "gpu-capture-replay.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
carry=$(realpath -m "${CARRY:-.carry/shipped}")
kf=$carry/kforecast
[[ -x $kf ]] || { echo "gpu-capture-replay.sh: no kforecast at $kf" >&2; exit 2; }
export LD_LIBRARY_PATH="$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=$(realpath -m "${OUT:-./gpu-capture-out}")
mkdir -p "$out"
nvidia-smi -L >"$out/gpu.txt" 2>&1 || { echo "gpu-capture-replay.sh: no GPU" >&2; exit 3; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv >>"$out/gpu.txt" 2>&1
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
export PATH="/usr/local/cuda/bin:$PATH"

work=$(mktemp -d)
repo=$work/project
cp -r fixtures/capture-project "$repo"
cd "$repo" || exit 2
git init -q -b main .
git config user.email gpu@kforecast.invalid && git config user.name gpu
printf '.kforecast/\nbuild/\n' >.gitignore
# Forecasts are not trusted here: every changed kernel goes to the GPU, so the measurement is what
# is checked (a project may set its policy so).
printf '[policy]\nmax_p_regression = 0.0\n' >.kforecast.toml
git add -A && git commit -qm base
steps() { sed -i "s/constexpr int kPolySteps = [0-9]*;/constexpr int kPolySteps = $1;/" src/polynomial.cu; }
branch() {  # NAME STEPS [FROM]
  git checkout -q -b "$1" "${3:-main}" && steps "$2" && git commit -qam "$1: $2 steps" && git checkout -q main
}
branch slower5 2100
branch faster 1500
branch planted3 2060

status() { echo "$1: exit $2 (want $3)" | tee -a "$out/summary.md"; }
{
  echo "# capture and replay on $(head -1 "$out/gpu.txt")"
  echo
} >"$out/summary.md"

# 6. pr runs capture.command itself: the base's config names the build and the program, and
# capture.dir names a folder nothing was recorded in, so no capture exists before pr runs.
command_case() {
  git checkout -q -b command-base main
  {
    echo
    echo '[capture]'
    echo 'dir = ".kforecast/none-recorded"'
    echo "build = \"cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=$arch -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc >/dev/null && cmake --build build -j 8 --target kernel_test >/dev/null\""
    echo 'command = "./build/kernel_test"'
    echo 'timeout_seconds = 900'
  } >>.kforecast.toml
  git commit -qam "capture.command" && git checkout -q main
  branch command-slower5 2100 command-base
  branch command-faster 1500 command-base
  for head in command-slower5 command-faster; do
    XDG_CACHE_HOME=$work/cache "$kf" pr --base command-base --head "$head" --format json \
      --output "$out/pr-$head.json" 2>"$out/pr-$head.err"
    status "pr --base command-base --head $head (capture.command)" $? "$([[ $head == command-slower5 ]] && echo 1 || echo 0)"
    if grep -q 'captures from capture.command at the base revision' "$out/pr-$head.json"; then
      echo "$head: replayed what capture.command recorded" | tee -a "$out/summary.md"
    else
      echo "$head: NOT replayed from capture.command: $(grep -o '"[^"]*capture.command[^"]*"' "$out/pr-$head.json" | head -3 | tr '\n' ' ')" | tee -a "$out/summary.md"
    fi
  done
  # The second run on the same base reuses the recording.
  XDG_CACHE_HOME=$work/cache "$kf" pr --base command-base --head command-faster --format json \
    --output "$out/pr-command-again.json" 2>/dev/null
  grep -q 'recorded by an earlier run' "$out/pr-command-again.json" && echo "second run: reused the recording" | tee -a "$out/summary.md"
  ls -R "$work/cache/kforecast/captures" >"$out/command-captures.txt" 2>&1
  git checkout -q main
}
# 7. A [[harness]] with no [[harness.map]]: pr learns which benchmark launches which kernel by
# running each listed benchmark once under the capture library at the base. The run command logs
# each filter it ran into the worktree (kf-runs.log; "learning " where the capture library is
# loaded), so which benchmarks pr ran is seen, not inferred.
learned_case() {
  local cache=$work/learned-cache
  git checkout -q -b learned-base main
  cat >>.kforecast.toml <<TOML

[[harness]]
name = "learned"
build = "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=$arch -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc >/dev/null && cmake --build build -j 8 --target kernel_bench >/dev/null"
run = "./build/kernel_bench '{filter}' --simple && echo \"\${CUDA_INJECTION64_PATH:+learning }{filter}\" >>kf-runs.log"
list = "./build/kernel_bench --list"
format = "simple"
timeout_seconds = 900
TOML
  git commit -qam "harness without a map" && git checkout -q main
  branch learned-slower5 2100 learned-base
  branch learned-faster 1500 learned-base
  local head map
  for head in learned-slower5 learned-faster; do
    XDG_CACHE_HOME=$cache "$kf" pr --base learned-base --head "$head" --format json \
      --output "$out/pr-$head.json" 2>"$out/pr-$head.err"
    status "pr --base learned-base --head $head (learned map)" $? "$([[ $head == learned-slower5 ]] && echo 1 || echo 0)"
    # The first run on the base learns the map; the second reads it from the cache.
    if [[ $head == learned-slower5 ]]; then
      if grep -q "harness 'learned': map learned by capture at the base revision (" "$out/pr-$head.json"; then
        echo "$head: map learned by capture: $(grep -o 'map learned by capture at the base revision ([0-9]* benchmark-kernel pairs)' "$out/pr-$head.json" | head -1)" | tee -a "$out/summary.md"
      else
        echo "$head: map NOT learned: $(grep -o "\"harness 'learned'[^\"]*\"" "$out/pr-$head.json" | head -3 | tr '\n' ' ')" | tee -a "$out/summary.md"
      fi
    elif grep -q "harness 'learned': map learned by capture at the base revision, read from the cache (" "$out/pr-$head.json"; then
      echo "$head: learned map read from the cache" | tee -a "$out/summary.md"
    else
      echo "$head: learned map NOT read from the cache: $(grep -o "\"harness 'learned'[^\"]*\"" "$out/pr-$head.json" | head -3 | tr '\n' ' ')" | tee -a "$out/summary.md"
    fi
    # The measurement's source names the filter: the benchmarks that launched poly_kernel.
    if grep -q "\"gpu\": \"harness 'learned' (simple): poly\"" "$out/pr-$head.json"; then
      echo "$head: measured through the learned map with the filter 'poly'" | tee -a "$out/summary.md"
    else
      echo "$head: NOT measured through the learned map: $(grep -o '"gpu": "[^"]*"' "$out/pr-$head.json" | head -3 | tr '\n' ' ')" | tee -a "$out/summary.md"
    fi
  done
  map=$(find "$cache/kforecast/learned" -name '*.tsv' 2>/dev/null | head -1)
  if [[ -n $map ]]; then
    cp "$map" "$out/learned-map.tsv"
    echo "learned map: $(grep -vc '^#' "$map") pairs, $(grep -v '^#' "$map" | cut -f1 | sort -u | wc -l) benchmarks; poly_kernel launched by: $(grep -v '^#' "$map" | awk -F'\t' '$2 ~ /poly_kernel/ {print $1}' | sort -u | tr '\n' ' ')" | tee -a "$out/summary.md"
  else
    echo "learned map: NO file under $cache/kforecast/learned" | tee -a "$out/summary.md"
  fi
  find "$cache/kforecast/harness" -name kf-runs.log -exec cat {} + 2>/dev/null >"$out/learned-runs.txt"
  echo "learning ran: $(grep '^learning ' "$out/learned-runs.txt" | cut -d' ' -f2- | sort | uniq -c | tr -s ' \n' ' ')" | tee -a "$out/summary.md"
  echo "measuring ran: $(grep -v '^learning ' "$out/learned-runs.txt" | sort | uniq -c | tr -s ' \n' ' ')" | tee -a "$out/summary.md"
  git checkout -q main
}
if ((only_command || only_learned)); then
  ((only_command)) && command_case
  ((only_learned)) && learned_case
  echo "done" >>"$out/summary.md"
  exit 0
fi

cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES="$arch" -DCMAKE_BUILD_TYPE=Release >"$out/build.txt" 2>&1 &&
  cmake --build build -j 8 >>"$out/build.txt" 2>&1 || { echo "build failed" | tee -a "$out/summary.md"; tail -20 "$out/build.txt"; exit 1; }
./build/kernel_test >"$out/kernel_test.txt" 2>&1
status "kernel_test (base)" $? 0
"$kf" capture --dir .kforecast/captures -- ./build/kernel_test >"$out/capture.txt" 2>&1
status "kforecast capture -- build/kernel_test" $? 0
find .kforecast/captures -name '*.json' | sort >"$out/capture-files.txt"
echo "capture files: $(wc -l <"$out/capture-files.txt")" >>"$out/summary.md"

for head in slower5 faster; do
  git checkout -q "$head"
  "$kf" pr --base main --head "$head" --format json --output "$out/pr-$head.json" 2>"$out/pr-$head.err"
  rc=$?
  "$kf" pr --base main --head "$head" --format text >"$out/pr-$head.txt" 2>&1 || true
  status "pr --base main --head $head (replay)" $rc "$([[ $head == slower5 ]] && echo 1 || echo 0)"
  git checkout -q main
done

git checkout -q main
"$kf" bench src/polynomial.cu:poly_kernel --against main --in-process --format json --repeat "$aa" >"$out/aa.jsonl" 2>"$out/aa.err"
echo "A/A: $(grep -c '"verdict": "regression"' "$out/aa.jsonl") regressions of $(grep -c '"verdict"' "$out/aa.jsonl") runs; verdicts: $(grep -o '"verdict": "[a-z]*"' "$out/aa.jsonl" | sort | uniq -c | tr '\n' ' ')" | tee -a "$out/summary.md"
git checkout -q planted3
"$kf" bench src/polynomial.cu:poly_kernel --against main --in-process --format json --repeat "$planted" >"$out/planted.jsonl" 2>"$out/planted.err"
echo "planted 3%: $(grep -c '"verdict": "regression"' "$out/planted.jsonl") caught of $(grep -c '"verdict"' "$out/planted.jsonl") runs; verdicts: $(grep -o '"verdict": "[a-z]*"' "$out/planted.jsonl" | sort | uniq -c | tr '\n' ' ')" | tee -a "$out/summary.md"
git checkout -q main

command_case
learned_case

# The harness path: the base's config names the project's build and benchmark program.
cat >>.kforecast.toml <<'TOML'

[[harness]]
name = "kernel_bench"
build = "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc >/dev/null && cmake --build build -j 8 >/dev/null"
run = "./build/kernel_bench {filter} --simple"
format = "simple"
[[harness.map]]
kernels = ["src/polynomial.cu"]
benchmarks = "poly"
TOML
git commit -qam "harness"
git branch -q harness-base
for pair in "harness-slower5 2100" "harness-faster 1500"; do
  set -- $pair
  branch "$1" "$2" harness-base
done
for head in harness-slower5 harness-faster; do
  "$kf" pr --base harness-base --head "$head" --format json --output "$out/pr-$head.json" 2>"$out/pr-$head.err"
  status "pr --base harness-base --head $head (harness)" $? "$([[ $head == harness-slower5 ]] && echo 1 || echo 0)"
done
echo "done" >>"$out/summary.md"
