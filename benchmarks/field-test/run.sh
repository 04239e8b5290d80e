#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Field test: `kforecast pr` over the recent kernel commits of a real repository, as its CI would run
# it with no config: each commit checked out (kforecast reads build files from the checkout) with
# its submodules, a cold pass with an empty cache, then a warm pass. Writes one JSON report and one
# timing line per run; summarise.py reads them.
#
#   run.sh KFORECAST REPO_CLONE OUT N [SUBMODULE_PATH=URL ...]
#
# REPO_CLONE: a clone (it is checked out commit by commit). SUBMODULE_PATH=URL: where to take a
# submodule from (a local mirror), since the runner may not reach its upstream. Environment:
# KF_TIMEOUT (seconds per run, default 1200), KF_REF (where the commits are counted from), KF_ARGS (more kforecast arguments), and whatever
# kforecast reads (KFORECAST_PYTHON for a PyTorch extension's torch), KF_CACHE (where its caches go).
set -u
kf=$(readlink -f "${1:?usage: run.sh KFORECAST REPO_CLONE OUT N [PATH=URL...]}")
repo=$(readlink -f "${2:?repo clone}")
out=$(mkdir -p "${3:?out folder}" && readlink -f "$3")
n=${4:-10}
shift 4
cache=${KF_CACHE:-$out/cache}  # kforecast's caches (the unit cache's cubins): outside $out where that travels
mkdir -p "$out/reports" "$cache"
for mapping in "$@"; do git -C "$repo" config "submodule.${mapping%%=*}.url" "${mapping#*=}"; done
# From the clone's default branch (KF_REF), not HEAD, which the previous run left at its last commit.
ref=${KF_REF:-$(git -C "$repo" rev-parse --verify -q origin/HEAD || echo HEAD)}
mapfile -t commits < <(git -C "$repo" log --first-parent --format=%H -n "$n" "$ref" -- '*.cu' '*.cuh')
: >"$out/runs.tsv"
for pass in cold warm; do
  for c in "${commits[@]}"; do
    git -C "$repo" cat-file -e "$c~1^{commit}" 2>/dev/null || continue
    git -C "$repo" checkout -qf "$c" 2>/dev/null || { echo "field-test: cannot check out $c" >&2; continue; }
    git -C "$repo" clean -qfdx -e .kforecast-field 2>/dev/null
    # Submodules as actions/checkout with `submodules: recursive` leaves them (a failed checkout of
    # a large blob the clone lacks leaves the clone with its objects, which is what kforecast reads).
    git -C "$repo" -c protocol.file.allow=always submodule update --init --recursive -q >/dev/null 2>&1
    f=$out/reports/$c.$pass
    start=$(date +%s.%N)
    # bash's time: user and system CPU of kforecast and every compiler it ran.
    TIMEFORMAT='%U %S'
    { time (cd "$repo" && XDG_CACHE_HOME=$cache timeout -k 10 "${KF_TIMEOUT:-1200}" \
      "$kf" pr --base "$c~1" --head "$c" --no-bench --format json ${KF_ARGS:-} >"$f.json" 2>"$f.err" </dev/null); } 2>"$f.cpu"
    rc=$?
    end=$(date +%s.%N)
    printf '%s\t%s\t%s\t%s\t%s\n' "$pass" "$c" "$rc" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')" \
      "$(tail -1 "$f.cpu" 2>/dev/null | awk '{ printf "%.2f", $1 + $2 }')" >>"$out/runs.tsv"
  done
done
echo "field-test: $(wc -l <"$out/runs.tsv") runs in $out"
