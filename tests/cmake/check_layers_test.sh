#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/check-layers.py on scratch trees: a clean one passes, and a cycle in the libraries'
# dependencies or a real implementation built below cli each fails, naming file and line.
#   check_layers_test.sh CHECKER WORK_DIR
set -u
checker=$1 work=$2
rm -rf "$work"; mkdir -p "$work"
tree() {  # a minimal src/ of three libraries: base <- stage <- cli
  local dir=$1; mkdir -p "$dir/src/base" "$dir/src/stage" "$dir/src/cli" "$dir/src/git"
  echo 'kf_library(kf_base SOURCES a.cpp)' >"$dir/src/base/CMakeLists.txt"
  echo 'kf_library(kf_git SOURCES repository.cpp DEPS kf_base)' >"$dir/src/git/CMakeLists.txt"
  echo 'kf_library(kf_stage SOURCES s.cpp DEPS kf_base kf_git)' >"$dir/src/stage/CMakeLists.txt"
  echo 'kf_library(kf_cli SOURCES c.cpp DEPS kf_stage kf_git)' >"$dir/src/cli/CMakeLists.txt"
  echo 'Result<Repo> open_repository(const path& p) { return {}; }' >"$dir/src/git/repository.cpp"
  echo 'void stage(const RepositoryOpener& repository_at) { repository_at("."); }  // open_repository( in a comment' \
    >"$dir/src/stage/s.cpp"
  echo 'auto r = git::open_repository(here);' >"$dir/src/cli/c.cpp"
}
failed=0
expect() {  # expect NAME STATUS PATTERN: the checker's status and a line of its output
  local name=$1 status=$2 pattern=$3 out rc
  out=$(python3 "$checker" "$work/$name" 2>&1); rc=$?
  if [ "$rc" != "$status" ] || ! grep -qE "$pattern" <<<"$out"; then
    echo "FAIL $name: exit $rc (wanted $status), output:"; echo "$out"; failed=1
  else
    echo "ok   $name"
  fi
}
tree "$work/clean"
expect clean 0 'the layering holds'
tree "$work/cycle"
echo 'kf_library(kf_base SOURCES a.cpp DEPS kf_stage)' >"$work/cycle/src/base/CMakeLists.txt"
expect cycle 1 'src/base/CMakeLists.txt:1: the libraries depend on each other in a cycle: kf_base -> kf_stage -> kf_base'
tree "$work/real"
echo 'auto repository = git::open_repository(root);' >>"$work/real/src/stage/s.cpp"
expect real 1 'src/stage/s.cpp:2: a git repository opened below cli'
tree "$work/driver"
printf 'x\nauto d = cuda::CudaDriver::load(paths);\n' >"$work/driver/src/stage/s.cpp"
expect driver 1 'src/stage/s.cpp:2: the CUDA driver loaded below cli'
exit $failed
