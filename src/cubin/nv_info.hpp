// SPDX-License-Identifier: Apache-2.0
#pragma once

// The .nv.info sections: attributes the CUDA driver reads to launch a kernel (register count,
// launch bounds, the parameter layout, stack sizes...). Each is a TLV record: u8 format, u8
// attribute id (EIATTR_*), then by format: 0x01 (NVAL), 0x02 (BVAL) and 0x03 (HVAL) carry a
// 2-byte value, 0x04 (SVAL) a u16 size and that many bytes. Found by experiment with nvcc 13:
// BVAL records take 4 bytes like HVAL (a 1-byte value plus padding), so every record stays
// 4-byte aligned. `.nv.info.<kernel>` holds one kernel's; the global `.nv.info` holds records
// whose SVAL payload starts with the u32 index of the function symbol they are about.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::cubin {

// The ids this reader interprets; the rest are compared as bytes.
enum class AttributeId : std::uint8_t {
  max_threads = 0x05,         // __launch_bounds__ maxThreadsPerBlock, as u32 x, y, z
  param_cbank = 0x0a,         // u32 symbol of .nv.constant0.<kernel>, u16 offset, u16 size
  externs = 0x0f,             // u32 symbol indices of the functions a relocatable kernel calls
  required_threads = 0x10,    // REQNTID: an exact block size, as u32 x, y, z
  frame_size = 0x11,          // global: u32 symbol, u32 bytes
  min_stack_size = 0x12,      // global: u32 symbol, u32 bytes
  kparam_info = 0x17,         // one record per parameter: its ordinal, offset, size
  cbank_param_size = 0x19,    // HVAL: parameter bytes
  max_register_count = 0x1b,  // HVAL: the register limit ptxas had (launch bounds' min blocks lower it)
  register_count = 0x2f,      // global: u32 symbol, u32 registers
  num_barriers = 0x4c,        // HVAL: named barriers used; CUDA 13 (older toolkits: text section flags)
};

enum class AttributeFormat : std::uint8_t { no_value = 0x01, byte_value = 0x02, half_value = 0x03, sized_value = 0x04 };

struct NvInfoAttribute {
  AttributeFormat format = AttributeFormat::no_value;
  std::uint8_t id = 0;
  std::vector<std::byte> value;  // the 2 bytes of NVAL/BVAL/HVAL, or the SVAL payload
  friend bool operator==(const NvInfoAttribute&, const NvInfoAttribute&) = default;
};

// Every record of a .nv.info section's bytes, in order; an Error naming `section_name` where a
// record is cut off or has an unknown format.
Result<std::vector<NvInfoAttribute>> parse_nv_info(std::span<const std::byte> bytes, std::string_view section_name);

// "EIATTR_MAX_THREADS", or "EIATTR 0x5f" for ids this reader has no name for.
std::string attribute_name(std::uint8_t id);

}  // namespace kforecast::cubin
