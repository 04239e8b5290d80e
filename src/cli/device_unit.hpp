// SPDX-License-Identifier: Apache-2.0
#pragma once

// The text a forecaster reads for a kernel at one revision: its file's device-only unit (host
// code that device code does not use is blanked, headers missing here are dropped). Shared by
// `kforecast pr` and the forecast inside `kforecast lint`.

#include <string>

#include "kernels/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::cli {

// `cuda_include` is the CUDA include directory ("" where there is none).
std::string device_unit_text(const kernels::RevisionSources& sources, const kernels::KernelSite& site,
                             const std::string& cuda_include);

}  // namespace kforecast::cli
