// SPDX-License-Identifier: Apache-2.0
#pragma once

// forecast.hardware = "local": the LLM prompt describes the GPU this machine has, from what the
// CUDA driver reports, instead of a row of the built-in table.

#include "cuda/driver.hpp"
#include "llm/gpu_properties.hpp"

namespace kforecast::forecasters {

// The queried figures as the prompt shows them. What the driver does not report (peak FLOPS)
// stays zero and is left out of the description.
llm::GpuProperties local_hardware_properties(const cuda::DeviceInfo& device);

}  // namespace kforecast::forecasters
