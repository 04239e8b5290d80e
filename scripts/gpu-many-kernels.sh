#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How the cost of `kforecast pr` grows with the number of modified kernels, on a GPU machine with
# a binary built elsewhere. A repository of N files, each a copy of the ~100 us kernel of
# fixtures/gpu/decision/work-100us.cu under its own name, is changed so every kernel's machine
# code differs and its time does not (a never-taken early return), and every kernel is sent to
# the GPU (policy.max_p_regression = 0). For each N of COUNTS, REPEATS runs of
#   kforecast pr --base HEAD~1 --head HEAD --format json
# give: pr's wall time, the measurements' GPU seconds and wall seconds (the report's gpu_time) and
# every kernel's verdict (all `same` expected: a `regression` is a false one). With BEFORE set to
# another kforecast binary, the same runs with it, for comparison.
#
#   scripts/gpu-many-kernels.sh --prepare       # here: build kforecast, carry it into CARRY
#   CARRY=.carry/batch OUT=$OUT [BEFORE=path/to/kforecast] scripts/gpu-many-kernels.sh
#       [--counts "1 10 50"] [--repeats 2]
#
# Writes to OUT: gpu.txt, runs.tsv (binary, N, run, exit, pr wall, GPU-s, measuring wall, verdicts),
# pr-BINARY-N-RUN.json (each report) and summary.md (medians, and the ratios to N = 1).
set -uo pipefail
counts="1 10 50" repeats=2 prepare=0
usage() { sed -n '/^#   scripts/,/^#       \[--counts/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
  case $1 in
    --counts) counts=${2-}; shift 2 ;;
    --repeats) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || { echo "gpu-many-kernels.sh: --repeats wants a count" >&2; exit 2; }; repeats=$2; shift 2 ;;
    --prepare) prepare=1; shift ;;
    -h | --help) usage ;;
    *) echo "gpu-many-kernels.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
for n in $counts; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "gpu-many-kernels.sh: --counts wants whole numbers, got '$n'" >&2; exit 2; }
done
source_dir=$(cd "$(dirname "$0")/.." && pwd)
template="$source_dir/fixtures/gpu/decision/work-100us.cu"
carry=$(realpath -m "${CARRY:-.carry/batch}")

(( prepare )) && exec "$(dirname "$0")/carry-kforecast.sh" "$carry"

kf="$carry/kforecast"
[[ -x $kf ]] || { echo "gpu-many-kernels.sh: no kforecast binary at $kf (run --prepare here first)" >&2; exit 2; }
binaries=("now:$kf")
[[ -n ${BEFORE-} ]] && binaries+=("before:$(realpath "$BEFORE")")
out=$(realpath -m "${OUT:-./gpu-many-kernels-out}")
mkdir -p "$out"
nvidia-smi -L >/dev/null 2>&1 || { echo "gpu-many-kernels.sh: no GPU here" >&2; exit 3; }
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
  for b in "${binaries[@]}"; do echo "${b%%:*}: $("${b#*:}" --version)"; done
  echo "counts=$counts repeats=$repeats cores=$(nproc)"
} | tee "$out/gpu.txt"

# The repository of N kernels: base, then the head that changes each one.
make_repository() {
  local n=$1 dir=$2 i
  rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
  git init -q && git config user.email bench@example.com && git config user.name bench
  printf '[policy]\nmax_p_regression = 0.0\n' >.kforecast.toml
  for ((i = 1; i <= n; i++)); do
    # The kernel `work` renamed, and the planted `work_slower` (from its comment on) left out.
    sed -e "s/__global__ void work(/__global__ void work_$i(/" -e '/^\/\/ No spec of its own/,$d' "$template" >"k$i.cu"
  done
  git add -A && git commit -qm base
  for ((i = 1; i <= n; i++)); do sed -i 's/if (i >= n) return;/if (i >= n || iters < 0) return;/' "k$i.cu"; done
  git commit -qam head
  cd - >/dev/null || exit 1
}

printf 'binary\tkernels\trun\texit\tpr_wall_s\tgpu_s\tmeasure_wall_s\tverdicts\n' >"$out/runs.tsv"
for n in $counts; do
  make_repository "$n" "$out/repo-$n"
  for b in "${binaries[@]}"; do
    name=${b%%:*} bin=${b#*:}
    for ((r = 1; r <= repeats; r++)); do
      report="$out/pr-$name-$n-$r.json"
      t0=$EPOCHREALTIME
      (cd "$out/repo-$n" && "$bin" pr --base HEAD~1 --head HEAD --format json --output "$report" 2>"$out/pr-$name-$n-$r.err")
      status=$?
      wall=$(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
      figures=$(python3 - "$report" <<'EOF'
import collections, json, sys
try:
    report = json.load(open(sys.argv[1]))
except Exception as error:
    print(f"-\t-\tno report ({error})"); sys.exit()
time = report.get("gpu_time") or {}
verdicts = collections.Counter((k.get("measurement") or {}).get("verdict", k.get("decision", "?")) for k in report.get("kernels", []))
print(f"{time.get('spent_seconds', 0):.3f}\t{time.get('wall_seconds', 0):.2f}\t" + " ".join(f"{v}={c}" for v, c in sorted(verdicts.items())))
EOF
)
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$n" "$r" "$status" "$wall" "$figures" | tee -a "$out/runs.tsv"
    done
  done
done

python3 - "$out/runs.tsv" >"$out/summary.md" <<'EOF'
import collections, statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])][1:]
by = collections.defaultdict(list)
for row in rows:
    if row[5] not in ("-", ""):
        by[(row[0], int(row[1]))].append(row)
print("| binary | kernels | runs | pr wall s (median) | GPU-s (median) | measuring wall s (median) | GPU-s / one | measuring wall / one | verdicts |")
print("|---|---|---|---|---|---|---|---|---|")
for (name, n) in sorted(by, key=lambda key: (key[0] != "now", key[1])):
    group = by[(name, n)]
    med = lambda i: statistics.median(float(r[i]) for r in group)
    one = by.get((name, 1))
    ratio = lambda i: f"{med(i) / statistics.median(float(r[i]) for r in one):.1f}x" if one else "-"
    print(f"| {name} | {n} | {len(group)} | {med(4):.2f} | {med(5):.3f} | {med(6):.2f} | {ratio(5)} | {ratio(6)} | {'; '.join(sorted(set(r[7] for r in group)))} |")
EOF
cat "$out/summary.md"
