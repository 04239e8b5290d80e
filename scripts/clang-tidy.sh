#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs clang-tidy (.clang-tidy: every finding is an error) over src/'s sources, all cores at once,
# with the compile commands of a configured build; exits non-zero on any finding. CI runs it after
# the release build (scripts/test.sh). Usage: scripts/clang-tidy.sh [build dir, default build/release]
# clang-tidy 19 is the first that sees GCC 12's std::expected (README.md, "clang-tidy").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
[ -f "$build/compile_commands.json" ] || { echo "clang-tidy: no $build/compile_commands.json; configure first (cmake --preset release)" >&2; exit 1; }
# Our sources only: not tests/ or bench/, not the generated sources in the build folder.
src_regex="^$(printf '%s' "$PWD" | sed 's/[][\\.*^$+?(){}|]/\\&/g')/src/"
# The compile commands are GCC's, -Werror included; GCC's warnings are the build's job. Clang does
# not know -Wno-restrict (cmake/KforecastTargets.cmake), and it warns inside GCC 12's libstdc++,
# which calls the deprecated get_temporary_buffer for std::stable_sort in C++23.
run-clang-tidy-19 -clang-tidy-binary "$(command -v clang-tidy-19)" -p "$build" -j "$(nproc)" -quiet \
  -extra-arg=-Wno-unknown-warning-option -extra-arg=-Wno-deprecated-declarations "$src_regex"
