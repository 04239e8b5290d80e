// SPDX-License-Identifier: Apache-2.0
// Fuzz target: PTX comes from NVRTC, but the sources it compiled come from the pull request; the
// splitter must give a module (possibly empty) for any text, and canonicalise any entry it found.

#include <cstdint>
#include <string_view>

#include "policy/ptx_code.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto module = kforecast::policy::parse_ptx(text);
  for (const auto& [name, function] : module.functions)
    if (function.entry) (void)kforecast::policy::canonical_kernel_code(module, name);
  return 0;
}
