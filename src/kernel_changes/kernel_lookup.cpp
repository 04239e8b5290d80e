// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/kernel_lookup.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace kforecast::kernel_changes {

using kernels::RevisionSources;

bool is_kernel(const kernels::Function& function) {
  return function.kind == kernels::FunctionKind::global && function.has_body;
}

std::vector<KernelSite> kernels_named(const RevisionSources& sources, const std::string& file,
                                      std::string_view written) {
  const std::size_t colons = written.rfind("::");
  const std::string_view name = colons == std::string_view::npos ? written : written.substr(colons + 2);
  std::vector<KernelSite> found;
  auto search = [&](const std::string& path) {
    const auto& functions = sources.scanned(path).functions;
    for (std::size_t i = 0; i < functions.size(); ++i)
      if (is_kernel(functions[i]) && functions[i].name == name &&
          (written == name || functions[i].qualified_name.ends_with(written)))
        found.push_back({path, functions[i].qualified_name, functions[i].whole.first_line, i});
  };
  for (const auto& path : sources.closure(file)) search(path);
  if (found.empty())
    for (const auto& [path, text] : sources.files()) search(path);
  return found;
}

std::optional<KernelSite> kernel_in(const RevisionSources& sources, const std::string& file,
                                    const std::string& qualified_name) {
  if (!sources.files().contains(file)) return std::nullopt;
  const auto& functions = sources.scanned(file).functions;
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (is_kernel(functions[i]) && functions[i].qualified_name == qualified_name)
      return KernelSite{file, qualified_name, functions[i].whole.first_line, i};
  return std::nullopt;
}

ChangedKernel* reported_kernel(ChangeAnalysis& analysis, const KernelSite& head_site) {
  const auto reported = std::ranges::find_if(analysis.kernels, [&](const ChangedKernel& changed) {
    return changed.head && changed.head->file == head_site.file &&
           changed.head->qualified_name == head_site.qualified_name;
  });
  return reported == analysis.kernels.end() ? nullptr : &*reported;
}

void report_modified(ChangeAnalysis& analysis, ChangedKernel kernel) {
  const std::string noted = fmt::format("{}: {}", kernel.head->file, kernel.head->qualified_name);
  std::erase(analysis.comment_only, noted);
  std::erase(analysis.formatting_only, noted);
  const auto first_removed = std::ranges::find_if(analysis.kernels, [](const auto& k) { return !k.head; });
  analysis.kernels.insert(first_removed, std::move(kernel));
}

}  // namespace kforecast::kernel_changes
