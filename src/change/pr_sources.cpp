// SPDX-License-Identifier: Apache-2.0
#include "base/repository_file.hpp"
#include "change/pr_sources.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "change/submodule_sources.hpp"
#include "cuda/include_directives.hpp"

namespace kforecast::change {
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

// The .cu files that `files` include (llm.c's test_gpt2.cu includes train_gpt2.cu) but that were
// not read (untouched, and no header changed): they are part of the including unit, whose compile
// cannot find them otherwise. Named as the build would find them: beside the includer, at the
// root, or the one path ending with the name.
std::vector<git::TreeEntry> included_sources(const std::vector<git::TreeEntry>& tree, const kernels::SourceFiles& files) {
  std::vector<git::TreeEntry> wanted;
  for (const auto& [path, text] : files) {
    if (text.find(".cu\"") == std::string::npos && text.find(".cu>") == std::string::npos) continue;
    const std::string folder = std::filesystem::path(path).parent_path().generic_string();
    for (const auto& directive : cuda::find_include_directives(text)) {
      if (directive.form == cuda::IncludeForm::computed || !directive.name.ends_with(".cu")) continue;
      const std::string beside = folder.empty() ? directive.name : folder + "/" + directive.name;
      for (const auto& entry : tree)
        if ((entry.path == beside || entry.path == directive.name || entry.path.ends_with("/" + directive.name)) &&
            !files.contains(entry.path) && std::ranges::none_of(wanted, [&](const auto& w) { return w.path == entry.path; }))
          wanted.push_back(entry);
    }
  }
  return wanted;
}

// Reads into `files` the .cu files they include, and those that these include, a few levels deep.
Result<void> read_included_sources(const git::Repository& repository, const std::vector<git::TreeEntry>& tree,
                                   kernels::SourceFiles& files) {
  for (int level = 0; level < 4; ++level) {
    const auto wanted = included_sources(tree, files);
    if (wanted.empty()) return {};
    std::vector<std::string> blobs;
    for (const auto& entry : wanted) blobs.push_back(entry.blob);
    auto contents = repository.read_blobs(blobs);
    if (!contents) return std::unexpected(contents.error());
    for (const auto& entry : wanted) files.emplace(entry.path, contents->at(entry.blob));
  }
  return {};
}

// Parses the diff into `sources`: touched CUDA paths and renames.
Result<void> take_diff(PrSources& sources, std::string_view diff_text) {
  auto parsed = diff::parse_unified_diff(diff_text);
  if (!parsed) return std::unexpected(parsed.error());
  sources.diff = std::move(*parsed);
  for (const auto& file : sources.diff.files) {
    for (const std::string* path : {&file.old_path, &file.new_path})
      if (!path->empty() && kernels::is_cuda_source_path(*path)) sources.touched.insert(*path);
    if (file.kind == diff::ChangeKind::renamed) sources.renames.push_back({file.old_path, file.new_path});
  }
  return {};
}

bool absent_blob(std::string_view blob) { return blob.find_first_not_of('0') == std::string_view::npos; }

// A work-tree file the patch may have planted is read only inside the repository: a symlink to
// /proc/self/environ or a path through .git stays unread.
std::optional<std::string> read_working_file(const std::filesystem::path& root, const std::string& path) {
  auto text = read_repository_file(root, path, std::size_t{64} << 20);
  if (!text) return std::nullopt;
  return std::move(*text);
}

}  // namespace

std::vector<std::string> skip_oversized_files(PrSources& sources, std::size_t max_bytes, std::string_view limit_name) {
  std::map<std::string, std::size_t, std::less<>> oversized;  // path -> its larger size
  for (const auto* side : {&sources.base_files, &sources.head_files})
    for (const auto& [path, text] : *side)
      if (text.size() > max_bytes) oversized[path] = std::max(oversized[path], text.size());
  std::vector<std::string> notes;
  for (const auto& [path, size] : oversized) {
    sources.base_files.erase(path);
    sources.head_files.erase(path);
    sources.touched.erase(path);
    notes.push_back(fmt::format("{}: skipped, {} KiB is above {} ({} KiB): its kernels are not reviewed", path,
                                (size + 1023) / 1024, limit_name, max_bytes / 1024));
  }
  return notes;
}

Result<PrSources> read_patch_sources(const git::Repository& repository, std::string_view diff_text) {
  PrSources sources{"", "", "the patch given with --diff", {}, {}, {}, {}, {}, {}};
  if (auto taken = take_diff(sources, diff_text); !taken) return std::unexpected(taken.error());
  if (sources.touched.empty()) return sources;
  auto index = repository.list_files("");
  if (!index) return std::unexpected(index.error());
  const bool header_touched = std::ranges::any_of(sources.touched, is_header);
  std::set<std::string, std::less<>> paths(sources.touched.begin(), sources.touched.end());
  for (const auto& path : *index)
    if (kernels::is_cuda_source_path(path) && (header_touched || is_header(path))) paths.insert(path);
  for (const auto& path : paths)
    if (auto text = read_working_file(repository.root(), path)) sources.head_files.emplace(path, std::move(*text));
  sources.base_files = sources.head_files;

  std::vector<std::string> blobs;
  for (const auto& file : sources.diff.files) {
    if (!kernels::is_cuda_source_path(file.path())) continue;
    if (file.old_blob.empty() && file.kind != diff::ChangeKind::renamed)
      return usage_error(
          fmt::format("--diff: diff line {}: '{}' has no 'index' line, so its base cannot be read; "
                      "give a diff made by git, or use --base/--head",
                      file.diff_line, file.path()));
    if (!file.old_blob.empty() && !absent_blob(file.old_blob)) blobs.push_back(file.old_blob);
  }
  auto contents = repository.read_blobs(blobs);
  if (!contents)
    return usage_error(
        fmt::format("--diff: the base of the patch is not in this repository ({}); run it where the "
                    "diff was made",
                    contents.error().message));
  for (const auto& file : sources.diff.files) {
    if (!kernels::is_cuda_source_path(file.path())) continue;
    if (!file.new_path.empty() && file.new_path != file.old_path) sources.base_files.erase(file.new_path);
    if (file.old_path.empty()) continue;
    if (!file.old_blob.empty() && !absent_blob(file.old_blob))
      sources.base_files[file.old_path] = contents->at(file.old_blob);
    else if (file.kind == diff::ChangeKind::renamed)  // a pure rename: the same contents under the old name
      if (auto text = read_working_file(repository.root(), file.new_path)) sources.base_files[file.old_path] = *text;
  }
  return sources;
}

Result<PrSources> read_pr_sources(const git::Repository& repository, std::string base, std::string head,
                                  std::string range_origin, std::string_view diff_text) {
  PrSources sources{std::move(base), std::move(head), std::move(range_origin), {}, {}, {}, {}, {}, {}};
  if (auto taken = take_diff(sources, diff_text); !taken) return std::unexpected(taken.error());
  auto base_tree = repository.list_tree(sources.base_sha);
  if (!base_tree) return std::unexpected(base_tree.error());
  std::vector<std::string> blobs;
  auto config = std::ranges::find(*base_tree, std::string_view(".kforecast.toml"), &git::TreeEntry::path);
  if (config != base_tree->end()) blobs.push_back(config->blob);

  std::vector<git::TreeEntry> base_needed, head_needed;
  std::vector<git::TreeEntry> head_tree;
  if (!sources.touched.empty()) {
    auto listed = repository.list_tree(sources.head_sha);
    if (!listed) return std::unexpected(listed.error());
    head_tree = std::move(*listed);
    // A changed header reaches every file that includes it, which only a scan of all can tell.
    const bool header_touched = std::ranges::any_of(sources.touched, is_header);
    base_needed = needed(*base_tree, sources.touched, header_touched);
    head_needed = needed(head_tree, sources.touched, header_touched);
    for (const auto* side : {&base_needed, &head_needed})
      for (const auto& entry : *side) blobs.push_back(entry.blob);
  }
  auto contents = repository.read_blobs(blobs);
  if (!contents) return std::unexpected(contents.error());
  if (config != base_tree->end()) sources.base_config = contents->at(config->blob);
  for (const auto& entry : base_needed) sources.base_files.emplace(entry.path, contents->at(entry.blob));
  for (const auto& entry : head_needed) sources.head_files.emplace(entry.path, contents->at(entry.blob));
  if (!sources.touched.empty()) {
    if (auto read = read_included_sources(repository, *base_tree, sources.base_files); !read)
      return std::unexpected(read.error());
    if (auto read = read_included_sources(repository, head_tree, sources.head_files); !read)
      return std::unexpected(read.error());
  }
  return sources;
}

void add_submodule_sources(const git::Repository& repository, PrSources& sources,
                           const SubmoduleFetcher* fetcher) {
  if (sources.touched.empty()) return;
  std::optional<SubmoduleFetch> fetch;
  if (fetcher != nullptr) {
    // The URLs come from the base revision alone: the pull request's .gitmodules is not read for them.
    fetch.emplace(SubmoduleFetch{{}, *fetcher});
    if (auto declared = repository.read_files(sources.base_sha, {".gitmodules"});
        declared && declared->contains(".gitmodules") && declared->at(".gitmodules"))
      fetch->trusted = git::parse_gitmodules(*declared->at(".gitmodules"));
  }
  SubmoduleMemo memo;
  for (const auto& [revision, label, files] :
       {std::tuple{sources.base_sha, "base", &sources.base_files}, std::tuple{sources.head_sha, "head", &sources.head_files}})
    for (auto& note : add_submodule_headers(repository, revision, label, *files, memo, {}, fetch ? &*fetch : nullptr))
      if (std::ranges::find(sources.notes, note) == sources.notes.end()) sources.notes.push_back(std::move(note));
}

}  // namespace kforecast::change
