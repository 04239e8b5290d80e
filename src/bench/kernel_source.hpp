// SPDX-License-Identifier: Apache-2.0
#pragma once

// One side of a benchmark pair, from a CUDA file: the kernel found by the scanner (its
// parameters type the arguments), its `// kforecast:` spec if it has one, and the NVRTC request
// that compiles it — the device-only unit and the name expression that instantiates it.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "bench/launch_spec.hpp"
#include "cuda/compiler.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::bench {

struct KernelSource {
  std::string label;  // "src/gemm.cu:sgemm" or "src/gemm.cu@HEAD~1:sgemm", for messages
  std::string path;   // the file's path, for specs' `file` and compile diagnostics
  std::string text;
};

struct PreparedKernel {
  std::string label;
  kernels::Function function;
  std::string name_expression;  // "sgemm", "tiled<64>", "ns::k"
  std::optional<LaunchSpec> comment_spec;
  cuda::CompileRequest request;  // arch, include dirs and defines are the caller's to fill
};

// Finds `kernel` ("name", "ns::name" or "name<args>") in `source`. A template kernel without
// arguments takes its first explicit instantiation. `available_header` is as in device_source.
Result<PreparedKernel> prepare_kernel(const KernelSource& source, std::string_view kernel,
                                      const std::function<bool(std::string_view)>& available_header);

// Splits "FILE:KERNEL" at the last ':' that is not part of '::'.
std::optional<std::pair<std::string, std::string>> split_file_kernel(std::string_view text);

}  // namespace kforecast::bench
