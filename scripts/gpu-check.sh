#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on a GPU machine with binaries built elsewhere (CARRY, default .carry/): kforecast doctor,
# ldd, and the CUDA test programs that skip without a GPU. Writes everything to OUT (default
# ./gpu-check-out). Reads only; never changes clocks, power or modes.
set -uo pipefail
carry=${CARRY:-.carry}
out=${OUT:-./gpu-check-out}
mkdir -p "$out"
{
  echo "# date: $(date -u +%FT%TZ)"
  echo "# host GPU (nvidia-smi, read-only query):"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
  echo
  echo "\$ kforecast --version"; "$carry/kforecast" --version
  echo
  echo "\$ kforecast doctor"; "$carry/kforecast" doctor; echo "exit status: $?"
  echo
  echo "\$ ldd kforecast"; ldd "$carry/kforecast"
} 2>&1 | tee "$out/doctor.txt"
for t in kf_cuda_gpu_tests kf_cuda_nvrtc_tests; do
  echo "\$ $t"
  "$carry/$t" --success --reporter compact 2>&1 | tail -n 30
  echo "exit status: ${PIPESTATUS[0]}"
done 2>&1 | tee "$out/cuda-tests.txt"
