// SPDX-License-Identifier: Apache-2.0
#pragma once

// The text a forecaster reads for a kernel at one revision: its file's device-only unit (host
// code that device code does not use is blanked, headers missing here are dropped). Shared by
// `kforecast pr` and the forecast inside `kforecast lint`.

#include <map>
#include <string>

#include "base/shared_text.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::forecasters {

// `cuda_include` is the CUDA include directory ("" where there is none).
std::string device_unit_text(const kernels::RevisionSources& sources, const kernel_changes::KernelSite& site,
                             const std::string& cuda_include);

// The device-only units of one revision, each made once and shared by every kernel of its file:
// a file of 1,000 kernels is one unit, not 1,000 copies of it. `sources` must outlive it.
class DeviceUnits {
 public:
  DeviceUnits(const kernels::RevisionSources& sources, std::string cuda_include)
      : m_sources(sources), m_cuda_include(std::move(cuda_include)) {}

  // device_unit_text(sources, site, cuda_include), shared.
  SharedText text(const kernel_changes::KernelSite& site);

 private:
  const kernels::RevisionSources& m_sources;
  std::string m_cuda_include;
  std::map<std::string, SharedText, std::less<>> m_units;  // by file
};

}  // namespace kforecast::forecasters
