#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# README's test command, the fast tier: installs what is needed, builds the release preset (what
# ships) and runs its whole test suite, then NVRTC 11.8's tests. About 12 minutes from a fresh clone
# on 2 cores. The slow tiers (clang-tidy, AddressSanitizer + UndefinedBehaviorSanitizer) are
# scripts/test-slow.sh; CI runs both (.ci/run). Usage:
#   scripts/test.sh               the release preset
#   scripts/test.sh debug asan    other presets, in order (release, debug or asan)
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("${@:-release}")
scripts/setup.sh
for preset in ${presets[*]}; do
  scripts/test-preset.sh "$preset"
done
