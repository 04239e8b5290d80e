// SPDX-License-Identifier: Apache-2.0
#pragma once

// A PyTorch extension's unit compiled as torch's build compiles it. setuptools' CUDAExtension
// (torch.utils.cpp_extension) gives every .cu: torch's two include folders and Python's (and,
// as an extension's setup.py finds them, the CUDA libraries pip installed beside torch), the
// half-precision guards (-D__CUDA_NO_HALF_OPERATORS__ and its family, which the project's own -U
// flags undo), --expt-relaxed-constexpr, -DTORCH_API_INCLUDE_EXTENSION_H,
// -DTORCH_EXTENSION_NAME=<name>, and -std=c++17 (c++20 from torch 2.10) where the project gives
// no standard. CMake's find_package(Torch) gives the include folders, --expt-relaxed-constexpr,
// --expt-extended-lambda and the torch targets' definitions, and no half-precision guards.

#include <optional>
#include <string>

#include "context/build_file_defines.hpp"
#include "context/compile_context.hpp"
#include "context/torch_headers.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::context {

// The first PyTorch header (torch/, ATen/, c10/, caffe2/, pybind11/ ...) that `unit` or a
// header of the tree it reaches includes and the tree does not hold, or nullopt.
std::optional<std::string> torch_header_reached(const kernels::RevisionSources& tree, const std::string& unit);

// `context` (inferred from the tree) with what torch's build adds to it.
void add_torch_build(CompileContext& context, const TorchBuild& build, const TorchHeaders& headers);

}  // namespace kforecast::context
