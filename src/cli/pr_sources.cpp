// SPDX-License-Identifier: Apache-2.0
#include "cli/pr_sources.hpp"

namespace kforecast::cli {
namespace {

Result<kernels::SourceFiles> cuda_sources_at(const git::Repository& repository, const std::string& revision) {
  auto paths = repository.list_files(revision);
  if (!paths) return std::unexpected(paths.error());
  std::erase_if(*paths, [](const std::string& path) { return !kernels::is_cuda_source_path(path); });
  auto contents = repository.read_files(revision, *paths);
  if (!contents) return std::unexpected(contents.error());
  kernels::SourceFiles files;
  for (auto& [path, text] : *contents)
    if (text) files.emplace(path, std::move(*text));
  return files;
}

}  // namespace

Result<PrSources> read_pr_sources(const git::Repository& repository, std::string base, std::string head,
                                  std::string range_origin, std::string_view diff_text) {
  PrSources sources{std::move(base), std::move(head), std::move(range_origin), {}, {}, {}, {}, {}};
  auto parsed = diff::parse_unified_diff(diff_text);
  if (!parsed) return std::unexpected(parsed.error());
  sources.diff = std::move(*parsed);
  for (const auto& file : sources.diff.files) {
    for (const std::string* path : {&file.old_path, &file.new_path})
      if (!path->empty() && kernels::is_cuda_source_path(*path)) sources.touched.insert(*path);
    if (file.kind == diff::ChangeKind::renamed) sources.renames.push_back({file.old_path, file.new_path});
  }
  if (sources.touched.empty()) return sources;  // nothing CUDA changed: no need to read sources
  auto base_files = cuda_sources_at(repository, sources.base_sha);
  if (!base_files) return std::unexpected(base_files.error());
  auto head_files = cuda_sources_at(repository, sources.head_sha);
  if (!head_files) return std::unexpected(head_files.error());
  sources.base_files = std::move(*base_files);
  sources.head_files = std::move(*head_files);
  return sources;
}

}  // namespace kforecast::cli
