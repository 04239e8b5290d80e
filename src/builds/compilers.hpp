// SPDX-License-Identifier: Apache-2.0
#pragma once

// The compilers a run builds code under review with, handed in by its caller: cli loads the real
// ones (NVRTC in a confined child, the toolkit's nvcc confined); tests hand in fakes. Each is
// loaded when first asked for, so a run that compiles nothing loads nothing.

#include <expected>
#include <functional>
#include <memory>
#include <string>

#include "cuda/compiler.hpp"
#include "cuda/nvcc_unit.hpp"

namespace kforecast::builds {

using LoadedUnitCompiler = std::expected<std::unique_ptr<cuda::UnitCompiler>, std::string>;

struct Compilers {
  // NVRTC, confined, or why there is none.
  std::function<cuda::LoadedCompiler()> nvrtc;
  // The project's compiler of whole units (nvcc), or why there is none. Empty: none here, and NVRTC
  // alone compares machine code.
  std::function<LoadedUnitCompiler()> nvcc;
  // CUDA's own header folder (cuda_runtime.h, cuda_fp16.h, CCCL), or "" where none is installed.
  std::string cuda_include_dir;
};

}  // namespace kforecast::builds
