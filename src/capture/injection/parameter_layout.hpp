// SPDX-License-Identifier: Apache-2.0
#pragma once

// Each kernel's parameter layout (ordinal, offset, size), read from a cubin's `.nv.info.<kernel>`
// sections (EIATTR_KPARAM_INFO records), as the CUDA driver reads them to launch the kernel.
// A self-contained reader rather than src/cubin's: this code runs inside the user's program,
// where fmt and exceptions must not go (src/cubin uses both). The cubin is the module the
// driver loaded; every offset is still checked, so a cut or odd image is "no layout", never a
// read out of bounds.

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace kforecast::capture::injection {

struct ParameterSlot {
  std::uint32_t ordinal = 0;
  std::uint32_t offset = 0;  // in the parameter buffer
  std::uint32_t size = 0;
  friend bool operator==(const ParameterSlot&, const ParameterSlot&) = default;
};

// Kernel (mangled name) -> its parameters in ordinal order. A kernel without parameters has an
// empty list. Empty map with `problem` set where the image is not an ELF cubin one can read.
struct CubinLayouts {
  std::map<std::string, std::vector<ParameterSlot>, std::less<>> kernels;
  std::string problem;
};

CubinLayouts read_parameter_layouts(std::span<const std::byte> image);

}  // namespace kforecast::capture::injection
