// SPDX-License-Identifier: Apache-2.0
#pragma once

// The resources of each function one compile made: ptxas' report in the compile log, completed
// from the machine code where the report leaves a fact out. ptxas 11.8 (NVRTC 11.8, Debian's
// libnvrtc11.2) prints neither "used N barriers" nor "cumulative stack size"; ptxas 12 and 13
// print both. The cubin holds both on every version, so a kernel's facts do not depend on which
// NVRTC the machine has.

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "cuda/ptxas_report.hpp"

namespace kforecast::cuda {

// parse_ptxas_report(log), with each kernel's barriers and cumulative stack taken from `cubin`
// where the report gave none. The report's own figures are never overridden. An empty cubin (a
// compute_XX target) or one the reader refuses leaves the report as it is: the cubin is NVRTC's
// own output, and the same cubin is compared, and any fault in it reported, by the code tier.
std::vector<KernelResources> compiled_resources(std::string_view log, std::span<const std::byte> cubin);

}  // namespace kforecast::cuda
