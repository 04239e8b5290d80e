// SPDX-License-Identifier: Apache-2.0
// Kernel source from a pull request: any bytes must be read for include directives without a
// crash, a hang or a sanitizer report, and every finding must name a line of the input.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cuda/include_directives.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const std::size_t lines = 1 + std::ranges::count(source, '\n') + std::ranges::count(source, '\r');
  for (const auto& directive : kforecast::cuda::find_include_directives(source))
    if (directive.line == 0 || directive.line > lines) __builtin_trap();
  return 0;
}
