// SPDX-License-Identifier: Apache-2.0
// The injection library reads each module the driver loads inside the user's program: any bytes
// must read, or be refused, without a crash, a hang or a sanitizer report, and every layout it
// gives is in ordinal order.

#include <cstddef>
#include <cstdint>
#include <span>

#include "capture/injection/parameter_layout.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto layouts = kforecast::capture::injection::read_parameter_layouts(
      std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size));
  for (const auto& [name, slots] : layouts.kernels)
    for (std::size_t i = 1; i < slots.size(); ++i)
      if (slots[i - 1].ordinal > slots[i].ordinal) __builtin_trap();
  return 0;
}
