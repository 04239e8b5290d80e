// SPDX-License-Identifier: Apache-2.0
#include "forecasters/device_unit.hpp"

#include <filesystem>

#include "cuda/library_search.hpp"
#include "kernels/device_source.hpp"

namespace kforecast::forecasters {

std::string device_unit_text(const kernels::RevisionSources& sources, const kernel_changes::KernelSite& site,
                             const std::string& cuda_include) {
  const auto available = [&](std::string_view header) { return cuda::toolkit_has_header(cuda_include, header); };
  return kernels::device_source(sources.files().at(site.file), sources.scanned(site.file), available).text;
}

}  // namespace kforecast::forecasters

namespace kforecast::forecasters {

SharedText DeviceUnits::text(const kernel_changes::KernelSite& site) {
  auto unit = m_units.find(site.file);
  if (unit == m_units.end()) unit = m_units.emplace(site.file, device_unit_text(m_sources, site, m_cuda_include)).first;
  return unit->second;
}

}  // namespace kforecast::forecasters
