#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzes one parser with libFuzzer for a while (CTest only replays the seeds plus fixed mutations):
#   scripts/fuzz.sh TARGET [SECONDS]      e.g. scripts/fuzz.sh cuda_scanner 600
# TARGET is a name from tests/fuzz/targets.cmake. Builds build/fuzz with clang, AddressSanitizer,
# UndefinedBehaviorSanitizer and coverage on the libraries too (fuzzer-no-link), so libFuzzer
# sees the parser's branches, not only the harness's. The seeds are copied to a scratch corpus;
# a crash or hang leaves its input in the current directory and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS]}
seconds=${2:-600}
# Debian 12's clang 14 reports concepts as C++20's draft level, so libstdc++ 12 hides
# std::expected from it; the level it checks for is declared here (clang 14 compiles the header).
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -Wno-unknown-warning-option"
flags+=" -Wno-macro-redefined -Wno-builtin-macro-redefined -D__cpp_concepts=202002L"
CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKFORECAST_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build build/fuzz --target "fuzz_$target"
seeds=$(sed -n "s/^kf_fuzz_target($target [^ ]*\( CORPUS \([^ )]*\)\)\?.*/\2/p" tests/fuzz/targets.cmake)
corpus=$(mktemp -d)
cp -r "${seeds:-fixtures/fuzz/$target}/." "$corpus/"
echo "fuzzing $target for $seconds s from $(ls "$corpus" | wc -l) seeds (scratch corpus $corpus)"
status=0
"build/fuzz/tests/fuzz/fuzz_$target" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 >"$corpus.log" 2>&1 || status=$?
grep -E "^(Done|stat::|==|SUMMARY|INFO: Seed)|(crash|timeout|leak)-" "$corpus.log" || true
echo "full log: $corpus.log"
exit "$status"
