#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is needed, builds kforecast and runs it on the built-in demo. Until the pipeline
# stages land, the demo shows what this machine offers (doctor) and the command line (--help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release
kforecast=build/release/src/kforecast
echo
echo "\$ kforecast doctor"
"$kforecast" doctor
echo
echo "\$ kforecast --help"
"$kforecast" --help
