#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds one preset and runs its tests, then lists each skipped test with its reason: CTest says
# only "Skipped", each skipped executable printed why ("SKIPPED: no GPU"). On the release preset,
# NVRTC 11.8's tests too: the oldest NVRTC the loader accepts differs from 13 in ptxas' report and
# NVRTC's log, and the NVRTC tests of kf_cuda cover both differences in seconds
# (docs/perf/nvrtc-versions.md). Assumes scripts/setup.sh ran. Usage: scripts/test-preset.sh PRESET
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:?usage: scripts/test-preset.sh release|debug|asan}
echo "== $preset build"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset" -j "$(nproc)"
awk '/^[0-9]+\/[0-9]+ Testing: / { sub(/^[0-9]+\/[0-9]+ Testing: /, ""); name = $0 }
     /^SKIPPED: / { sub(/^SKIPPED: /, ""); print "skipped: " name ": " $0 }' \
  "build/$preset/Testing/Temporary/LastTest.log" 2>/dev/null || true
if [ "$preset" = release ] && [ "${KFORECAST_CUDA_WHEELS:-1}" != 0 ]; then
  echo "== NVRTC 11.8"
  NVRTC_VERSIONS=11.8 NVRTC_TESTS='^kf_cuda_nvrtc_tests$' scripts/nvrtc-versions.sh "build/$preset"
fi
