#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is needed, builds kforecast and runs the whole test suite, twice: the release
# build (what ships) and a build under AddressSanitizer + UndefinedBehaviorSanitizer. Usage:
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
  ctest --preset "$preset" -j "$(nproc)"
done
