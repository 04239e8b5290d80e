#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the demo (fixtures/demo) with a kforecast binary built elsewhere (CARRY, default .carry/)
# on a GPU machine, writing the report to OUT. Shows cuda.arch=auto taking the local GPU.
set -uo pipefail
carry=${CARRY:-.carry}
out=${OUT:-./gpu-demo-out}
mkdir -p "$out"
kforecast=$(realpath "$carry/kforecast")
# A lib/ folder beside the binary, where one was carried, is searched first (older builds needed libfmt there).
if [[ -d $carry/lib ]]; then export LD_LIBRARY_PATH="$(realpath "$carry/lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
demo=$(mktemp -d)
git init -q -b main "$demo"
commit() { git -C "$demo" add -A && git -C "$demo" -c user.name=demo -c user.email=demo@kforecast.invalid commit -q -m "$1"; }
cp -r fixtures/demo/base/. "$demo"/ && commit base
rm -rf "$demo"/src && cp -r fixtures/demo/head/. "$demo"/ && commit head
(cd "$demo" && "$kforecast" pr --base HEAD~1) 2>&1 | tee "$out/demo-report.md"
echo "exit status: ${PIPESTATUS[0]}" | tee -a "$out/demo-report.md"
