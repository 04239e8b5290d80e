#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Exports the kernel files of the judged precision set (sources.tsv) from bare git mirrors at
# their pinned commits and runs `kforecast lint` on them, one JSON report per repository, so that
# scripts/lint-judged-precision.py can re-score the rules against judged.tsv.
#
#   benchmarks/lint-judged/reproduce.sh [KFORECAST] [OUT_DIR]
#   scripts/lint-judged-precision.py --runs OUT_DIR/runs
#
# KFORECAST defaults to build/release/src/kforecast, OUT_DIR to /tmp/lint-judged. MIRRORS
# (default /work/.mirror) holds one bare repository per source as OWNER+NAME/repo; make a
# missing one with 'git clone --bare https://github.com/OWNER/NAME MIRRORS/OWNER+NAME/repo'.
# Files are written to OUT_DIR/src/OWNER+NAME/PATH and linted from that folder, so the reports
# name them by their path in the repository. Rows of role 'context' are exported but not linted:
# they are headers a linted file includes, needed for the compiler-fact rules.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kforecast=${1:-build/release/src/kforecast}
out=${2:-/tmp/lint-judged}
mirrors=${MIRRORS:-/work/.mirror}
case $kforecast in /*) ;; *) kforecast=$(pwd)/$kforecast ;; esac
if [ ! -x "$kforecast" ]; then
  echo "reproduce.sh: no kforecast binary at $kforecast; build it" \
    "(cmake --build build/release --target kforecast) or pass its path" >&2
  exit 2
fi

rm -rf "$out/src" "$out/runs"
mkdir -p "$out/src" "$out/runs"
tab=$(printf '\t')
tail -n +2 "$here/sources.tsv" | while IFS=$tab read -r repo commit path _; do
  slug=$(printf '%s' "$repo" | tr / +)
  git_dir=$mirrors/$slug/repo
  if [ ! -d "$git_dir" ]; then
    echo "reproduce.sh: no mirror of $repo at $git_dir;" \
      "run: git clone --bare https://github.com/$repo $git_dir" >&2
    exit 2
  fi
  if ! git --git-dir="$git_dir" cat-file -e "$commit:$path" 2>/dev/null; then
    echo "reproduce.sh: $repo has no $path at $commit; fetch the mirror" \
      "(git --git-dir=$git_dir fetch origin) so the pinned commit is present" >&2
    exit 2
  fi
  mkdir -p "$out/src/$slug/$(dirname "$path")"
  git --git-dir="$git_dir" show "$commit:$path" > "$out/src/$slug/$path"
done

# One lint run per repository; exit status 1 only means a rule of severity error fired.
for repo in $(tail -n +2 "$here/sources.tsv" | cut -f1 | sort -u); do
  slug=$(printf '%s' "$repo" | tr / +)
  files=$(awk -F '\t' -v repo="$repo" 'NR > 1 && $1 == repo && $4 == "lint" { print $3 }' \
    "$here/sources.tsv")
  status=0
  # shellcheck disable=SC2086 # the paths have no spaces: sources.tsv is checked by review
  (cd "$out/src/$slug" && "$kforecast" lint --no-forecast --format json $files) \
    > "$out/runs/$slug.json" 2> "$out/runs/$slug.log" || status=$?
  if [ "$status" -gt 1 ]; then
    echo "reproduce.sh: kforecast lint failed on $repo (exit $status); see $out/runs/$slug.log" >&2
    exit 2
  fi
  count=$(grep -c '"rule":' "$out/runs/$slug.json" || true)
  echo "$repo: $count diagnostics"
done
echo "reports in $out/runs; score them with: scripts/lint-judged-precision.py --runs $out/runs"
