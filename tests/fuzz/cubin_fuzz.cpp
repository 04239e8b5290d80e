// SPDX-License-Identifier: Apache-2.0
// A cubin is built from pull-request code: any bytes must read, or fail to, without a crash, a
// hang or a sanitizer report; and a kernel read must compare identical to itself.

#include <cstddef>
#include <cstdint>
#include <span>

#include "cubin/cubin_kernel.hpp"
#include "cubin/kernel_difference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto kernels =
      kforecast::cubin::read_cubin_kernels(std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size));
  if (!kernels) return 0;
  for (const auto& kernel : *kernels)
    if (kforecast::cubin::kernel_difference(kernel, kernel)) __builtin_trap();
  // Two kernels of the file compared: the paths for code that differs, module addresses among them.
  for (std::size_t i = 1; i < kernels->size(); ++i)
    (void)kforecast::cubin::kernel_difference((*kernels)[i - 1], (*kernels)[i]);
  const auto pairs = kforecast::cubin::pair_kernels(*kernels, *kernels);
  if (pairs.paired.size() != kernels->size()) __builtin_trap();
  return 0;
}
