#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the tests that need NVRTC once per NVRTC version, and prints a Markdown table, one row per
# version (tests run, passed, failed, skipped, CTest's seconds): the loader accepts CUDA 11.8 to
# 13 (cuda/library_search.hpp), and ptxas' report, NVRTC's log and the toolkit headers all
# differ between them. Not part of scripts/test.sh or CI: it
# installs 80 MB (11.8) to 250 MB (12.9) of wheels per version once, then takes about 2 minutes
# per version on a 2-core machine.
#
#   scripts/nvrtc-versions.sh [BUILD_DIR]          (default build/release, configured already)
#   NVRTC_VERSIONS="11.8 12.0 12.9 13.0 system"    (default "11.8 12.9 system")
#   NVRTC_TESTS='^kf_cuda_nvrtc_tests$'           (default: every test that needs NVRTC)
#
# Each X.Y is installed from NVIDIA's PyPI wheels (NVRTC, the runtime headers and CCCL of that
# version, pinned to X.Y.*) into $XDG_CACHE_HOME/kforecast/nvrtc-versions/X.Y (else ~/.cache/...),
# with pip from a virtual environment there; a `toolkit` folder beside them holds lib/ and include/
# as a CUDA toolkit would, and the tests run with CUDA_HOME at it, so NVRTC and the headers it
# compiles against are of one version. `system` is what the loader finds with CUDA_HOME unset
# (/usr/local/cuda, then the dynamic loader's search). nvcc, where a test uses one, is whatever
# the machine has: only NVRTC changes between rows. Exit status 1 when any version has a failure.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
versions=${NVRTC_VERSIONS:-11.8 12.9 system}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/kforecast/nvrtc-versions
# The tests whose requirement is NVRTC (tests/support/cuda_requirements.hpp's missing_nvrtc), GPU
# tests that compile with it too (skipped without a GPU), and not the tests of a machine
# without NVRTC. NVRTC_TESTS (a CTest -R pattern) runs fewer.
include_tests=${NVRTC_TESTS:-'^kf_.*(nvrtc|_gpu)_tests$|^kf_e2e_pr_fixtures_tests$'}
exclude_tests='no_nvrtc'

[[ -f $build/CTestTestfile.cmake ]] || {
  echo "nvrtc-versions: $build is not a configured build folder (run: cmake --preset release)" >&2
  exit 2
}

# The wheels of one version: NVRTC, the runtime's headers (cuda.h, cuda_fp16.h, ...) and CCCL.
wheels_of() {
  local version=$1 major=${1%%.*}
  case $major in
    11 | 12) echo "nvidia-cuda-nvrtc-cu$major==$version.* nvidia-cuda-runtime-cu$major==$version.* nvidia-cuda-cccl-cu$major==$version.*" ;;
    *) echo "nvidia-cuda-nvrtc==$version.* nvidia-cuda-runtime==$version.* nvidia-cuda-cccl==$version.*" ;;
  esac
}

# Installs version $1 once and prints its toolkit folder.
toolkit_of() {
  local version=$1 folder=$cache/$1 major=${1%%.*}
  if [[ ! -e $folder/toolkit ]]; then
    if [[ ! -x $cache/venv/bin/pip ]]; then
      mkdir -p "$cache"
      python3 -m venv "$cache/venv" >&2 || {
        echo "nvrtc-versions: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2
        return 1
      }
    fi
    rm -rf "$folder"
    echo "nvrtc-versions: installing NVRTC $version's wheels into $folder" >&2
    # shellcheck disable=SC2046  # one word per wheel
    "$cache/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --target "$folder/wheels" \
      $(wheels_of "$version") >&2 || {
      echo "nvrtc-versions: pip could not install $(wheels_of "$version") (is pypi.org reachable?)" >&2
      return 1
    }
    local nvidia=$folder/wheels/nvidia
    if [[ $major -ge 13 ]]; then
      # CUDA 13's wheels are one toolkit tree already: lib/, include/, include/cccl.
      ln -s "wheels/nvidia/cu$major" "$folder/toolkit.new"
    else
      # CUDA 11 and 12 wheels each have their own folder; a toolkit has one lib/ and one include/.
      # The headers are copied, not linked: the confined compiler child may read the toolkit's
      # include folder only (docs/security.md), and a link out of it is refused there.
      mkdir -p "$folder/toolkit.new/include"
      ln -s ../wheels/nvidia/cuda_nvrtc/lib "$folder/toolkit.new/lib"
      local header
      for header in "$nvidia"/cuda_runtime/include/* "$nvidia"/cuda_cccl/include/*; do
        case ${header##*/} in __init__.py | __pycache__) continue ;; esac
        cp -R "$header" "$folder/toolkit.new/include/"
      done
    fi
    mv -T "$folder/toolkit.new" "$folder/toolkit"  # last: marks a finished install
  fi
  echo "$folder/toolkit"
}

# The test executables to build: the tests' names are their targets (tests/CMakeLists.txt).
mapfile -t targets < <(ctest --test-dir "$build" -N -R "$include_tests" -E "$exclude_tests" |
  sed -n 's/^ *Test *#[0-9]*: *//p')
[[ ${#targets[@]} -gt 0 ]] || {
  echo "nvrtc-versions: no test matches '$include_tests' in $build" >&2
  exit 2
}
echo "nvrtc-versions: building kforecast and ${#targets[@]} test executables" >&2
nice -n 19 cmake --build "$build" --target kforecast "${targets[@]}" >&2

table="| NVRTC | library | tests run | passed | failed | skipped | seconds |"$'\n'"|---|---|---|---|---|---|---|"
status=0
for version in $versions; do
  environment=(env -u CUDA_HOME -u CUDA_PATH -u KFORECAST_NVRTC_LIBRARY)
  if [[ $version != system ]]; then
    toolkit=$(toolkit_of "$version")
    environment+=("CUDA_HOME=$toolkit")
  fi
  # The NVRTC the tests will load, as kforecast reports it: a row must not claim a version it
  # did not test.
  loaded=$("${environment[@]}" "$build/src/kforecast" doctor 2>&1 | sed -n 's/^ *nvrtc *//p')
  loaded_version=${loaded%% *}
  if [[ $version != system && $loaded_version != "$version" ]]; then
    echo "nvrtc-versions: asked for NVRTC $version, but kforecast loads: $loaded" >&2
    table+=$'\n'"| $version | not loaded: $loaded | 0 | 0 | 0 | 0 | 0 |"
    status=1
    continue
  fi
  log=$cache/ctest-$version.log
  mkdir -p "$cache"
  echo "nvrtc-versions: NVRTC $loaded: running the tests (log: $log)" >&2
  "${environment[@]}" nice -n 19 ctest --test-dir "$build" -R "$include_tests" -E "$exclude_tests" \
    --output-on-failure >"$log" 2>&1 || true
  passed=$(grep -c ' Passed ' "$log" || true)
  failed=$(grep -cE '\*\*\*(Failed|Exception|Timeout)|Not Run' "$log" || true)
  skipped=$(grep -c '\*\*\*Skipped' "$log" || true)
  seconds=$(sed -n 's/^Total Test time (real) = *\([0-9.]*\) sec.*/\1/p' "$log")
  if ((failed > 0)); then
    status=1
    grep -E '\*\*\*(Failed|Exception|Timeout)' "$log" | sed 's/^/  failed: /' >&2
  fi
  library=${loaded#* at }
  table+=$'\n'"| ${loaded_version:-none} | ${library%% (*} | $((passed + failed)) | $passed | $failed | $skipped | ${seconds:-?} |"
done
echo "$table"
exit $status
