#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The slow tiers, which CI runs after README's test command (scripts/test.sh): clang-tidy over src/
# with the release build's compile commands (a finding fails), then the whole suite built under
# AddressSanitizer + UndefinedBehaviorSanitizer. About 25 minutes on 2 cores. Assumes
# scripts/test.sh ran (it installs clang-tidy-19 and configures build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== clang-tidy over src/"
scripts/clang-tidy.sh build/release
scripts/test-preset.sh asan
