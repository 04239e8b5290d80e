#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs scripts/check-docs.sh on scratch trees: a clean one must pass, and each kind of finding
# (a missing path, a moved library source, a broken link, DESIGN.md, an issue number, a
# development-log remark, docs/perf over its budget, an archive INDEX.md does not list) must fail
# with its message. Paths in a `text` block and a user's src/ path in an example must not fail.
#   check_docs_test.sh SCRIPT WORK_DIR
# The backquotes below are Markdown code spans, written literally.
# shellcheck disable=SC2016
set -euo pipefail
script=${1:?usage: check_docs_test.sh SCRIPT WORK_DIR}
work=${2:?usage: check_docs_test.sh SCRIPT WORK_DIR}
failures=0

clean_tree() {
  rm -rf "$work" && mkdir -p "$work/docs/perf/data" "$work/src/gate" "$work/scripts"
  touch "$work/src/gate/pr_bench.cpp" "$work/src/gate/pr_bench.hpp" "$work/scripts/run.sh"
  printf '# Guide\n\nSee `scripts/run.sh`, `src/gate/pr_bench` and `gate/pr_bench.cpp`; [measurements](perf/page.md).\n' >"$work/docs/guide.md"
  printf '# Page\n\n```sh\nkforecast check src/gemm.cu:sgemm   # a user'"'"'s file\n```\n\n```text\nreport: src/activation.cu:21 from scripts/not-here.sh, #1 of 2\n```\n' >"$work/docs/perf/page.md"
  printf '# Data\n\n| archive |\n|---|\n| `page.tar.xz` |\n' >"$work/docs/perf/data/INDEX.md"
  printf 'x' >"$work/docs/perf/data/page.tar.xz"
}

# expect NAME STATUS TEXT: the script's exit status and a line of its output.
expect() {
  local name=$1 want_status=$2 want_text=$3 output status=0
  output=$(bash "$script" "$work" 2>&1) || status=$?
  if [[ $status != "$want_status" ]] || ! grep -qF -- "$want_text" <<<"$output"; then
    echo "FAIL: $name: wanted exit $want_status and '$want_text', got exit $status:"
    echo "$output"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

clean_tree
expect "a clean tree passes" 0 "the documentation is clean"

clean_tree; echo 'Run `scripts/gone.sh` first.' >>"$work/docs/guide.md"
expect "a missing repository path fails" 1 "docs/guide.md:4: scripts/gone.sh does not exist"

clean_tree; echo 'Measured by `benchmarks/gone_bench.cpp`.' >>"$work/docs/guide.md"
expect "a missing benchmarks/ path fails" 1 "docs/guide.md:4: benchmarks/gone_bench.cpp does not exist"

clean_tree; mkdir "$work/src/bench" && touch "$work/src/bench/spec_draft.cpp"
echo 'Drafted by `bench/spec_draft.cpp`.' >>"$work/docs/guide.md"
expect "a source of the library src/bench passes" 0 "the documentation is clean"

clean_tree; echo 'Measured in `gate/measure_step.cpp`.' >>"$work/docs/guide.md"
expect "a library source that is not under src/ fails" 1 "gate/measure_step.cpp is not under src/"

clean_tree; echo 'See [the plan](ci/plan.md).' >>"$work/docs/guide.md"
expect "a broken relative link fails" 1 "the link ci/plan.md leads nowhere"

clean_tree; echo 'As DESIGN.md says.' >>"$work/docs/guide.md"
expect "DESIGN.md fails" 1 "'DESIGN.md': DESIGN.md is not in the repository"

clean_tree; echo 'Fixed for issue 17.' >>"$work/docs/guide.md"
expect "an issue number fails" 1 "'issue 17': an issue number"

clean_tree; echo 'Fixed in #17.' >>"$work/docs/guide.md"
expect "an issue reference by hash fails" 1 "'#17' reads as an issue number"

clean_tree; echo 'Measured at the last stop.' >>"$work/docs/guide.md"
expect "a development-log remark fails" 1 "'last stop': a development-log remark"

clean_tree; for i in $(seq 1 40); do touch "$work/docs/perf/run-$i.log"; done
expect "docs/perf over 40 files fails" 1 "files, over the budget of 40"

clean_tree; head -c 2200000 /dev/zero >"$work/docs/perf/raw.bin"
expect "docs/perf over 2 MiB fails" 1 "over the budget of 2097152"

clean_tree; printf 'x' >"$work/docs/perf/data/other.tar.xz"
expect "an archive INDEX.md does not list fails" 1 "other.tar.xz is not listed"

clean_tree; rm "$work/docs/perf/data/page.tar.xz"
expect "INDEX.md naming a missing archive fails" 1 "lists page.tar.xz, which is not in docs/perf/data"

rm -rf "$work"
((failures == 0)) || { echo "$failures case(s) failed"; exit 1; }
