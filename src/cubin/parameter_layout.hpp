// SPDX-License-Identifier: Apache-2.0
#pragma once

// A kernel's parameter layout as ptxas laid it out: one EIATTR_KPARAM_INFO record per
// parameter (docs/design/cubin.md). Replay checks a capture's parameters against it, so a capture
// of another version of a kernel (a struct that grew, a parameter added) is refused rather than
// launched with bytes in the wrong places.

#include <cstdint>
#include <vector>

#include "cubin/cubin_kernel.hpp"

namespace kforecast::cubin {

struct ParameterSlot {
  std::uint32_t ordinal = 0;
  std::uint32_t offset = 0;  // in the parameter bank
  std::uint32_t size = 0;
  friend bool operator==(const ParameterSlot&, const ParameterSlot&) = default;
};

// The kernel's parameters by ordinal; empty for a kernel without parameters (or records). A
// record of other than 12 bytes is skipped: the reader keeps what the cubin holds, and the
// caller compares counts.
std::vector<ParameterSlot> parameter_layout(const CubinKernel& kernel);

}  // namespace kforecast::cubin
