#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is needed, builds kforecast and runs its main job on the built-in demo: a small
# kernel library (fixtures/demo) committed as base and head in a fresh git repository, gated with
# `kforecast pr`. Then `kforecast doctor` shows what this machine offers (NVRTC, GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
# Set-up and build are timed apart: package and wheel downloads depend on the network, the build
# on the machine. Only the binary is built (the tests and benchmarks are the test command's).
started=$SECONDS
scripts/setup.sh
setup_seconds=$((SECONDS - started))
started=$SECONDS
cmake --preset release >/dev/null
cmake --build --preset release --target kforecast
echo "set-up took ${setup_seconds} s, the build $((SECONDS - started)) s"
kforecast=$PWD/build/release/src/kforecast

demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
git init -q -b main "$demo"
commit() { git -C "$demo" add -A && git -C "$demo" -c user.name=demo -c user.email=demo@kforecast.invalid commit -q -m "$1"; }
cp -r fixtures/demo/base/. "$demo"/ && commit "base"
rm -rf "$demo"/src && cp -r fixtures/demo/head/. "$demo"/ && commit "head: five kinds of change"

echo
echo "\$ kforecast pr --base HEAD~1        # in a demo repository (fixtures/demo)"
status=0
(cd "$demo" && "$kforecast" pr --base HEAD~1) || status=$?
echo "(exit status $status: 0 pass, 1 gate failed)"
echo
echo "\$ kforecast doctor"
"$kforecast" doctor
