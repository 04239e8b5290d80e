#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds kforecast here (release, stripped: it needs only glibc, so a bare GPU machine runs it as
# it is) and puts it in CARRY, the folder a GPU script's run takes to the GPU machine.
#
#   scripts/carry-kforecast.sh CARRY
set -uo pipefail
(($# == 1)) || { echo "usage: scripts/carry-kforecast.sh CARRY" >&2; exit 2; }
carry=$(realpath -m "$1")
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
nice -n 19 cmake --preset release >/dev/null && nice -n 19 cmake --build build/release -j2 --target kforecast || exit 1
mkdir -p "$carry"
cp build/release/src/kforecast "$carry/kforecast" && strip "$carry/kforecast" || exit 1
echo "carried: $(ls "$carry" | tr '\n' ' ')"
