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
# Our sources only: not tests/ or benchmarks/, not the generated sources in the build folder.
src_regex="^$(printf '%s' "$PWD" | sed 's/[][\\.*^$+?(){}|]/\\&/g')/src/"
# -Wno-error: the compile commands are GCC's, -Werror included. GCC's warnings already fail the
# build; clang's compiler warnings are not checks .clang-tidy asks for (its "-*" turns
# clang-diagnostic-* off), and -Werror would make them errors that clang-tidy cannot filter:
# GCC's -Wno-restrict, unknown to clang; a deprecation inside libstdc++ 12's std::stable_sort;
# -Wvarargs on libcurl's own prototypes, which src/http/libcurl_on_demand.cpp defines as declared.
run-clang-tidy-19 -clang-tidy-binary "$(command -v clang-tidy-19)" -p "$build" -j "$(nproc)" -quiet \
  -extra-arg=-Wno-error "$src_regex"
