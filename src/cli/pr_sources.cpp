// SPDX-License-Identifier: Apache-2.0
#include "cli/pr_sources.hpp"

#include <algorithm>

namespace kforecast::cli {
namespace {

bool is_header(std::string_view path) { return kernels::is_cuda_source_path(path) && !path.ends_with(".cu"); }

// The CUDA files of one side that the analysis may need.
std::vector<git::TreeEntry> needed(const std::vector<git::TreeEntry>& tree,
                                   const std::set<std::string, std::less<>>& touched, bool every_cuda_file) {
  std::vector<git::TreeEntry> entries;
  for (const auto& entry : tree)
    if (kernels::is_cuda_source_path(entry.path) &&
        (every_cuda_file || touched.contains(entry.path) || is_header(entry.path)))
      entries.push_back(entry);
  return entries;
}

}  // namespace

Result<PrSources> read_pr_sources(const git::Repository& repository, std::string base, std::string head,
                                  std::string range_origin, std::string_view diff_text) {
  PrSources sources{std::move(base), std::move(head), std::move(range_origin), {}, {}, {}, {}, {}, {}};
  auto parsed = diff::parse_unified_diff(diff_text);
  if (!parsed) return std::unexpected(parsed.error());
  sources.diff = std::move(*parsed);
  for (const auto& file : sources.diff.files) {
    for (const std::string* path : {&file.old_path, &file.new_path})
      if (!path->empty() && kernels::is_cuda_source_path(*path)) sources.touched.insert(*path);
    if (file.kind == diff::ChangeKind::renamed) sources.renames.push_back({file.old_path, file.new_path});
  }
  auto base_tree = repository.list_tree(sources.base_sha);
  if (!base_tree) return std::unexpected(base_tree.error());
  std::vector<std::string> blobs;
  auto config = std::ranges::find(*base_tree, std::string_view(".kforecast.toml"), &git::TreeEntry::path);
  if (config != base_tree->end()) blobs.push_back(config->blob);

  std::vector<git::TreeEntry> base_needed, head_needed;
  if (!sources.touched.empty()) {
    auto head_tree = repository.list_tree(sources.head_sha);
    if (!head_tree) return std::unexpected(head_tree.error());
    // A changed header reaches every file that includes it, which only a scan of all can tell.
    const bool header_touched = std::ranges::any_of(sources.touched, is_header);
    base_needed = needed(*base_tree, sources.touched, header_touched);
    head_needed = needed(*head_tree, sources.touched, header_touched);
    for (const auto* side : {&base_needed, &head_needed})
      for (const auto& entry : *side) blobs.push_back(entry.blob);
  }
  auto contents = repository.read_blobs(blobs);
  if (!contents) return std::unexpected(contents.error());
  if (config != base_tree->end()) sources.base_config = contents->at(config->blob);
  for (const auto& entry : base_needed) sources.base_files.emplace(entry.path, contents->at(entry.blob));
  for (const auto& entry : head_needed) sources.head_files.emplace(entry.path, contents->at(entry.blob));
  return sources;
}

}  // namespace kforecast::cli
