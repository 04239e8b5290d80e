// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where kforecast looks for NVRTC and the CUDA driver, in order. The lists are plain data so a
// test can check the order, and `doctor` can show it.

#include <string>
#include <string_view>
#include <vector>

#include "base/environment.hpp"

namespace kforecast::cuda {

// Explicit library paths from the configuration (cuda.nvrtc_library, cuda.driver_library) or
// the environment (KFORECAST_NVRTC_LIBRARY, KFORECAST_CUDA_DRIVER_LIBRARY); empty: search.
struct LoaderOptions {
  std::string nvrtc_library;
  std::string driver_library;
};

// The override alone when one is given; else libnvrtc in $CUDA_HOME/lib64 (lib where a toolkit
// has no lib64, as the wheels), $CUDA_PATH/lib64 (the same),
// /usr/local/cuda/lib64 and the private toolkits' lib (newest first); then bare sonames for the
// dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache).
// Newest version first within each place. Extend nvrtc_sonames() when a CUDA major appears.
std::vector<std::string> nvrtc_candidates(const LoaderOptions& options, const EnvLookup& env);

// The override alone when one is given; else libcuda.so.1 and libcuda.so by soname. The driver is installed with the
// kernel module, never in the toolkit, and the toolkit's stubs/ directory holds a link-time
// stand-in that must not be loaded; so no toolkit directory is searched.
std::vector<std::string> driver_candidates(const LoaderOptions& options);

// The CUDA toolkit's include folder (the one holding cuda.h): $CUDA_HOME/include, $CUDA_PATH/include,
// /usr/local/cuda/include or the newest private toolkit's include; "" where there is none.
std::string toolkit_include_dir(const EnvLookup& env);

// The toolkit's header folders for a compile: `include_dir` itself and, where it exists, CUDA 13's
// `include/cccl` (CUB, Thrust and libcu++'s `cuda/...`, which cooperative_groups.h itself
// includes); none for "".
std::vector<std::string> toolkit_header_dirs(const std::string& include_dir);

// Whether the toolkit has `header` in one of those folders: a header it lacks is blanked from a
// device-only unit rather than sent to a compiler that cannot open it.
bool toolkit_has_header(const std::string& include_dir, std::string_view header);

// Where scripts/setup.sh installs NVIDIA's compiler wheels on a machine without a toolkit:
// $XDG_CACHE_HOME/kforecast, else $HOME/.cache/kforecast; "" where neither is set. Each pinned
// version is a folder cuda-<nvcc version> holding the virtual environment (venv/) and `toolkit`,
// a link to the wheels' nvidia/cu13 inside it: bin/nvcc, include/, lib/libnvrtc.so.13, nvvm/.
// The link keeps the Python version out of every path kforecast looks at.
std::string private_toolkit_parent(const EnvLookup& env);

// The `toolkit` folders of the private toolkits installed there (those with bin/nvcc or
// lib/), newest version first.
std::vector<std::string> private_toolkit_roots(const EnvLookup& env);

// libnvrtc-builtins.so.MAJOR.MINOR beside `nvrtc_path` where that file exists, else "". NVRTC
// opens it by soname at its first compile, so outside the loader's search (the private
// toolkit, a CUDA_HOME not in ld.so.cache) it must be loaded first, by path.
std::string nvrtc_builtins_beside(const std::string& nvrtc_path, int major, int minor);

// libnvrtc.so.13, .so.12, .so.11.2, .so.11.1, .so.11.0, then libnvrtc.so.
std::vector<std::string> nvrtc_sonames();

}  // namespace kforecast::cuda
