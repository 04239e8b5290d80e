#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every build and test dependency of kforecast from Debian's packages and, where no CUDA
# toolkit exists, NVIDIA's CUDA compiler wheels from PyPI into a private virtual environment (see
# below). Idempotent: when everything is present it changes nothing and does not touch the network.
# KFORECAST_CUDA_WHEELS=0 leaves the wheels out (to test a machine without CUDA).
# `scripts/setup.sh --build-only` installs only what building the kforecast binary needs (the
# GitHub action's build, scripts/get-kforecast.sh), not the test tools.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config git   # toolchain; git is also run by kforecast and its tests; g++ is nvcc's host compiler
  libcurl4-openssl-dev                    # HTTP: LLM endpoints, GitHub/GitLab APIs
  curl                                    # scripts/get-kforecast.sh downloads a release archive (and its test)
  nlohmann-json3-dev                      # JSON: endpoint answers, datasets, reports (header-only: the binary needs no JSON library)
  libtomlplusplus-dev                     # .kforecast.toml
  libfmt-dev                              # formatting (std::format is missing from GCC 12); compiled into the binary (src/third_party)
  python3-dev                             # Python.h: a PyTorch extension's units include it (torch/extension.h)
)
[ "${1:-}" = --build-only ] || packages+=(
  catch2                                  # unit tests (Catch2 v2)
  pre-commit                              # e2e test of .pre-commit-hooks.yaml with the real framework
  libbenchmark-dev                        # Google Benchmark: the e2e test of [[harness]] builds a real benchmark program
  clang-tidy-19                           # .clang-tidy in CI and the debug preset: 19 is the first that parses GCC 12's <expected>
  python3-venv                            # scripts/nvrtc-versions.sh: NVRTC 11.8's wheel for the tests (scripts/test.sh)
  libcmark-gfm-dev                        # tests only: cmark-gfm, GitHub's Markdown renderer, proves what reports render to
  libcmark-gfm-extensions-dev             # tests only: its GFM extensions (table, autolink, strikethrough, tagfilter)
)

# The private toolkit: NVIDIA's wheels of CUDA 13.0's compiler, each one pinned. kforecast
# benchmarks cubins (SASS, not PTX), and CUDA's minor-version compatibility lets a cubin from any
# 13.x compiler load on every CUDA 13 driver (r580 and later), so the driver does not force 13.0.
# The pin is for two other reasons. A driver only JIT-compiles PTX from a compiler no newer than
# itself, and kforecast also compiles and caches PTX; 13.0 is the oldest 13.x, so its PTX loads on
# every CUDA 13 driver (measured on an H200, driver 580.159.04 = CUDA 13.0: 13.0.88's cubin and PTX
# load; 13.5.37's cubin loads, its PTX fails with CUDA_ERROR_UNSUPPORTED_PTX_VERSION). And the
# identical-code tier and the compiler facts compare what the compiler emits, so every machine must
# run the same build: unpinned, pip takes the newest (13.5.37 when this was written), and nvcc's
# own requirements (nvvm, crt, runtime) carry no version. 13.0.88 is also the build of the
# /usr/local/cuda-13.0 on the project's development machine.
cuda_version=13.0.88
cuda_wheels=(
  nvidia-cuda-nvcc==13.0.88     # bin/: nvcc, ptxas, fatbinary, nvlink, cudafe++
  nvidia-nvvm==13.0.88          # nvvm/: cicc and libdevice, nvcc's device front end
  nvidia-cuda-crt==13.0.88      # include/crt: host_config.h and the device function headers nvcc includes
  nvidia-cuda-runtime==13.0.96  # include/: cuda.h, cuda_runtime.h, cuda_fp16.h, cooperative_groups (13.0's last build)
  nvidia-cuda-cccl==13.0.85     # include/cccl: CUB, Thrust, libcu++ (CUDA 13's header folder)
  nvidia-cuda-nvrtc==13.0.88    # lib/: libnvrtc.so.13 and libnvrtc-builtins.so.13.0
)
# The headers of CUDA's libraries, from the wheels of the same CUDA 13.0 release (cuda-toolkit
# 13.0.2's pins): kernel files include them (PyTorch's ATen/cuda/CUDAContext.h includes cuBLAS,
# cuBLASLt, cuSPARSE and cuSOLVER; training code includes NVTX) even where they call nothing of the
# libraries. Only the headers are read out of the wheels (scripts/cuda-library-headers.py).
library_header_wheels=(
  nvidia-cublas==13.1.0.3      # cublas_v2.h, cublasLt.h
  nvidia-cusparse==12.6.3.3    # cusparse.h
  nvidia-cusolver==12.0.4.66   # cusolverDn.h, cusolver_common.h
  nvidia-curand==10.4.0.35     # curand_kernel.h
  nvidia-cufft==12.0.0.61      # cufft.h
  nvidia-nvtx==13.0.85         # nvtx3/nvToolsExt.h
)
# Where: $XDG_CACHE_HOME/kforecast (else ~/.cache/kforecast), beside kforecast's other caches, so
# the installed binary finds it from any repository (src/cuda/library_search.hpp); per user, so no
# root is needed and nothing outside the home folder is written; one folder per pinned version, so
# a new pin installs beside the old one and never half-replaces it. `toolkit` links to the wheels'
# nvidia/cu13 (bin/nvcc, include/, lib/, nvvm/) inside the venv and is made last: it marks a
# finished install, and keeps the venv's Python version out of the paths kforecast looks at.
cuda_parent=${XDG_CACHE_HOME:-$HOME/.cache}/kforecast
cuda_folder=$cuda_parent/cuda-$cuda_version

# A toolkit of the machine's own, found where kforecast looks (src/cuda/toolkit_locator.hpp).
existing_toolkit() {
  local root
  for root in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
    [ -n "$root" ] && [ -x "$root/bin/nvcc" ] && { echo "$root/bin/nvcc"; return 0; }
  done
  command -v nvcc 2>/dev/null && return 0
  [ -x /usr/local/cuda/bin/nvcc ] && { echo /usr/local/cuda/bin/nvcc; return 0; }
  return 1
}

cuda_step=none
if [ "${KFORECAST_CUDA_WHEELS:-1}" = 0 ]; then
  cuda_step=skipped
elif nvcc=$(existing_toolkit); then
  cuda_step=present
  echo "setup: CUDA toolkit present ($nvcc): no compiler wheels installed"
elif [ -x "$cuda_folder/toolkit/bin/nvcc" ]; then
  cuda_step=present
  echo "setup: private CUDA toolkit present: $cuda_folder"
else
  cuda_step=install
  [[ " ${packages[*]} " == *" python3-venv "* ]] || packages+=(python3-venv)  # python3 -m venv with pip, for the wheels
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
else
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "setup: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: packages installed"
fi

if [ "$cuda_step" = install ]; then
  echo "setup: no CUDA toolkit (no nvcc in CUDA_HOME, CUDA_PATH, PATH or /usr/local/cuda):"
  echo "setup: installing NVIDIA's CUDA $cuda_version compiler wheels from PyPI into $cuda_folder (a 190 MB download, 510 MB on disk)"
  started=$SECONDS
  rm -rf "$cuda_folder"  # an install that stopped before its last step
  python3 -m venv "$cuda_folder/venv"
  "$cuda_folder/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir "${cuda_wheels[@]}" || {
    echo "setup: pip could not install the CUDA wheels (is pypi.org reachable?): run setup again, install a CUDA" \
      "toolkit, or set KFORECAST_CUDA_WHEELS=0 to go on without one" >&2
    exit 1
  }
  cu13=$("$cuda_folder/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/nvidia/cu13
  "$cu13/bin/nvcc" --version >/dev/null  # the wheels' nvcc runs on its own
  ln -s "${cu13#"$cuda_folder"/}" "$cuda_folder/toolkit"  # relative: the folder can be moved whole
  echo "setup: nvcc $cuda_version at $cuda_folder/toolkit/bin/nvcc, NVRTC in $cuda_folder/toolkit/lib ($((SECONDS - started)) s, $(du -sh "$cuda_folder" | cut -f1))"
fi

# The libraries' headers, into the private toolkit (a machine's own toolkit has them already). The
# marker is written last, so an install that stopped is done again.
headers_marker=$cuda_folder/library-headers-installed
if [ -x "$cuda_folder/toolkit/bin/nvcc" ] && [ ! -e "$headers_marker" ]; then
  started=$SECONDS
  echo "setup: installing the headers of cuBLAS, cuSPARSE, cuSOLVER, cuRAND, cuFFT and NVTX into $cuda_folder/toolkit/include"
  python3 "$(dirname "$0")/cuda-library-headers.py" "$cuda_folder/toolkit" "${library_header_wheels[@]}" || {
    echo "setup: the CUDA library headers could not be installed (is pypi.org reachable?): run setup again; units" \
      "that include them are reported as not compiled until then" >&2
    exit 1
  }
  printf '%s\n' "${library_header_wheels[@]}" >"$headers_marker"
  echo "setup: library headers installed ($((SECONDS - started)) s)"
fi
