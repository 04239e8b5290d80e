// SPDX-License-Identifier: Apache-2.0
// The ptxas report comes from whatever NVRTC (or a user's log) prints: any bytes must parse
// without a crash, a hang or a sanitizer report.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cuda/ptxas_report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto functions =
      kforecast::cuda::parse_ptxas_report(std::string_view(reinterpret_cast<const char*>(data), size));
  for (const auto& function : functions)
    if (function.name.empty()) __builtin_trap();  // every record is named by the report
  return 0;
}
