// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which CUDA toolkit compiles with nvcc, as the project's own build would find it, and why none
// where there is none. The places are tried in a fixed order and every one is named in the
// answer, so `doctor` can show the search and a test can check its order.

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "base/environment.hpp"
#include "cuda/probe.hpp"
#include "cuda/unavailable.hpp"

namespace kforecast::cuda {

struct Toolkit {
  std::string nvcc;                       // the nvcc that compiles, as found (not resolved)
  std::string root;                       // the folder holding bin/nvcc
  std::vector<std::string> include_dirs;  // root/include and root/include/cccl, where they exist
  std::string version;                    // nvcc's own, "13.0.88" (its --version says V13.0.88)
  std::string origin;                     // "CUDA_HOME=/opt/cuda", "nvcc on PATH", ...
};

// The places searched where cuda.nvcc is empty; a seam so a test can stand in for the fixed one.
struct ToolkitPlaces {
  std::string system_root = "/usr/local/cuda";
};

// The first of: `configured_nvcc` (the value of cuda.nvcc: nvcc's path, or a toolkit folder
// holding bin/nvcc), $CUDA_HOME, $CUDA_PATH, the first nvcc on $PATH, /usr/local/cuda, then the
// newest private toolkit scripts/setup.sh installed (private_toolkit_roots). A configured path
// is the only place tried: one that does not work is the answer, never a silent fall back to
// another compiler. The version comes from the toolkit's files where they say it (version.json,
// or the wheel's nvidia_cuda_nvcc-VERSION.dist-info), else from `nvcc --version`, run once.
// Unavailable's `tried` holds every place with why it did not serve, in search order.
std::expected<Toolkit, Unavailable> locate_toolkit(std::string_view configured_nvcc, const EnvLookup& env,
                                                   const ToolkitPlaces& places = {});

// `doctor`'s lines: {"nvcc", "13.0.88 at /usr/local/cuda/bin/nvcc, from /usr/local/cuda"}, or
// {"nvcc", "not available: ..."} followed by one line per place tried.
std::vector<StatusLine> describe_toolkit(const std::expected<Toolkit, Unavailable>& toolkit);

// The version in `nvcc --version`'s text ("Cuda compilation tools, release 13.0, V13.0.88"):
// "13.0.88", or "" where the text has none.
std::string nvcc_version_from_output(std::string_view output);

// The version of nvcc that version.json names ("cuda_nvcc": {"version": "13.0.88"}), or "".
std::string nvcc_version_from_version_json(std::string_view json);

}  // namespace kforecast::cuda
