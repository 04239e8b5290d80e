// SPDX-License-Identifier: Apache-2.0
#include "cuda/compiled_resources.hpp"

#include "cubin/cubin_kernel.hpp"

namespace kforecast::cuda {

std::vector<KernelResources> compiled_resources(std::string_view log, std::span<const std::byte> cubin) {
  auto functions = parse_ptxas_report(log);
  if (cubin.empty()) return functions;
  const auto kernels = cubin::read_cubin_kernels(cubin);
  if (!kernels) return functions;
  for (const auto& kernel : *kernels)
    for (auto& function : functions) {
      if (function.kind != FunctionKind::kernel || function.name != kernel.symbol) continue;
      if (function.barriers == 0) function.barriers = kernel.barriers;
      if (function.cumulative_stack_bytes == 0 && kernel.min_stack_bytes)
        function.cumulative_stack_bytes = *kernel.min_stack_bytes;
    }
  return functions;
}

}  // namespace kforecast::cuda
