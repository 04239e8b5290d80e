// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where PyTorch's C++ headers are on this machine, for compiling a PyTorch extension's units as
// torch's own build does (context/torch_context.hpp). Either a torch/include folder the config
// names, or the torch package the configured Python has installed, found without importing it:
// the PyPI wheel installed without its dependencies (the cheap way for a CPU-only gating job, no
// GPU and no CUDA libraries needed) cannot be imported, but its headers are all there.

#include <expected>
#include <filesystem>
#include <string>
#include <vector>

namespace kforecast::context {

struct TorchHeaders {
  std::filesystem::path include;         // .../torch/include (holds torch/extension.h)
  std::string version;                   // "2.15.0", or "" where no version.py says
  std::filesystem::path python_include;  // the folder holding Python.h, or empty where none was found
  // The include folders of CUDA libraries the same Python has from pip (nvidia/nccl/include,
  // nvidia/nvshmem/include: what an extension's setup.py finds them by), in name order; a folder
  // holding the toolkit's own headers (nvidia/cu13/include, with cuda_runtime.h) is left out, so
  // that it never shadows the compiler's.
  std::vector<std::filesystem::path> library_includes;
  std::string found_by;  // "python3's torch 2.15.0 at /venv/.../torch", for the report
};

struct TorchSearch {
  std::string python = "python3";  // compile.python; "off": do not ask a Python
  std::string include;             // compile.torch_include; "": ask the Python
};

// The headers, or why none were found, in words that end with what to do.
std::expected<TorchHeaders, std::string> find_torch_headers(const TorchSearch& search);

// "2.15.0" from torch's version.py text (__version__ = '2.15.0+cu132'); "" where it says none.
std::string torch_version(std::string_view version_py);

// Whether `version` ("2.15.0") is at least major.minor; false where it is not known.
bool torch_at_least(std::string_view version, int major, int minor);

}  // namespace kforecast::context
