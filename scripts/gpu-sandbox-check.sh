#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The sandbox on a GPU machine, with binaries built elsewhere (CARRY, default .carry/sandbox:
# kforecast and tests/support's kf_deny_syscalls): what `doctor` finds there, with and without
# network namespaces; and a CUDA program (scripts/gpu-sandbox-probe.cu, built there with the
# machine's nvcc) run unconfined, then confined exactly as a harness command is on a machine with
# NVIDIA's device nodes (src/harness/shell_runner.cpp: Landlock, the seccomp filter, the network
# namespace, no capability), then so without namespaces: the CUDA runtime must allocate, launch
# and copy back, and an Internet socket must be refused. Writes OUT (default ./gpu-sandbox-out):
# doctor.txt, probe.txt. Reads the GPU's state only.
set -uo pipefail
carry=$(realpath -m "${CARRY:-.carry/sandbox}")
out=$(realpath -m "${OUT:-./gpu-sandbox-out}")
kf=$carry/kforecast
deny=$carry/kf_deny_syscalls
[[ -x $kf && -x $deny ]] || { echo "gpu-sandbox-check.sh: kforecast and kf_deny_syscalls are needed in $carry" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
export PATH="/usr/local/cuda/bin:$PATH"
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1); kernel $(uname -r); uid $(id -u)"
  echo "\$ kforecast doctor"; "$kf" doctor; echo "exit status: $?"
  echo "\$ kforecast doctor, namespaces refused"; "$deny" --deny-userns -- "$kf" doctor; echo "exit status: $?"
} >"$out/doctor.txt" 2>&1

nvcc -O2 -arch=native -o "$work/probe" scripts/gpu-sandbox-probe.cu >"$out/probe.txt" 2>&1 || { cat "$out/probe.txt"; exit 1; }
# The harness runner's confinement where /dev/nvidia* exist: the system's folders, /sys and the
# toolkit readable; the device nodes, /proc, /dev/shm and the scratch folder writable.
args=()
for path in /usr /lib /lib64 /bin /sbin /etc/ld.so.cache /etc/alternatives /etc/passwd /etc/group /etc/nsswitch.conf \
  /dev/null /dev/urandom /dev/zero /opt /sys /usr/local/cuda /etc/OpenCL "$work"; do
  args+=(--read "$path")
done
for path in "$work" /dev/null /proc /dev/shm /dev/nvidia*; do args+=(--write "$path"); done
confined() { "$@" "$kf" __confined-exec "${args[@]}" --memory 0 --cpu-seconds 120 --sockets unix -- "$work/probe"; }
{
  echo "\$ probe, unconfined"; "$work/probe"; echo "exit status: $?"
  echo "\$ probe, confined as a harness command"; confined; echo "exit status: $?"
  echo "\$ probe, confined as a harness command, namespaces refused"; confined "$deny" --deny-userns --; echo "exit status: $?"
} >>"$out/probe.txt" 2>&1
cat "$out/doctor.txt" "$out/probe.txt"
