#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is needed, builds kforecast and runs the whole test suite, twice: the release
# build (what ships) and a build under AddressSanitizer + UndefinedBehaviorSanitizer. After the
# release build, clang-tidy checks src/ with its compile commands (a finding fails). Usage:
#   scripts/test.sh               both (what CI runs)
#   scripts/test.sh release       one preset: release, debug or asan
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("${@:-release asan}")
scripts/setup.sh
for preset in ${presets[*]}; do
  echo "== $preset build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  if [ "$preset" = release ]; then
    echo "== clang-tidy over src/"
    scripts/clang-tidy.sh build/release
  fi
  ctest --preset "$preset" -j "$(nproc)"
  if [ "$preset" = release ] && [ "${KFORECAST_CUDA_WHEELS:-1}" != 0 ]; then
    # The oldest NVRTC the loader accepts (CUDA 11.8) differs from 13 in ptxas' report and NVRTC's
    # log; the NVRTC tests of kf_cuda cover both differences in seconds (docs/perf/nvrtc-versions.md).
    echo "== NVRTC 11.8"
    NVRTC_VERSIONS=11.8 NVRTC_TESTS='^kf_cuda_nvrtc_tests$' scripts/nvrtc-versions.sh "build/$preset"
  fi
  # CTest says "Skipped" without the reason; each skipped executable printed it ("SKIPPED: no GPU").
  awk '/^[0-9]+\/[0-9]+ Testing: / { sub(/^[0-9]+\/[0-9]+ Testing: /, ""); name = $0 }
       /^SKIPPED: / { sub(/^SKIPPED: /, ""); print "skipped: " name ": " $0 }' \
    "build/$preset/Testing/Temporary/LastTest.log" 2>/dev/null || true
done
