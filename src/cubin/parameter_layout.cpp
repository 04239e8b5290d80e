// SPDX-License-Identifier: Apache-2.0
#include "cubin/parameter_layout.hpp"

#include <algorithm>

#include "cubin/little_endian.hpp"
#include "cubin/nv_info.hpp"

namespace kforecast::cubin {

std::vector<ParameterSlot> parameter_layout(const CubinKernel& kernel) {
  std::vector<ParameterSlot> slots;
  for (const auto& attribute : kernel.body.attributes) {
    if (attribute.id != static_cast<std::uint8_t>(AttributeId::kparam_info) || attribute.value.size() != 12) continue;
    // u32 index, u16 ordinal, u16 offset, u32 flags with the size in bits 18-31.
    const std::span<const std::byte> value = attribute.value;
    ParameterSlot slot;
    slot.ordinal = read_u16(value, 4).value_or(0);
    slot.offset = read_u16(value, 6).value_or(0);
    slot.size = (read_u32(value, 8).value_or(0) >> 18) & 0x3FFFu;
    slots.push_back(slot);
  }
  std::ranges::sort(slots, {}, &ParameterSlot::ordinal);
  return slots;
}

}  // namespace kforecast::cubin
