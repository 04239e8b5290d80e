// SPDX-License-Identifier: Apache-2.0
#include "lint_run/lint_inputs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/repository_file.hpp"
#include "diff/unified_diff.hpp"
#include "kernels/revision_sources.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::lint_run {

std::vector<cuda::SourceHeader> local_headers(const LintInput& input, const ReadFiles& read) {
  std::vector<cuda::SourceHeader> headers;
  std::vector<std::pair<std::string, std::string>> pending{{input.relative, input.text}};
  for (int depth = 0; depth < 2 && !pending.empty(); ++depth) {
    std::vector<std::string> wanted;
    std::vector<std::string> spelled;
    for (const auto& [path, text] : pending)
      for (const auto& include : kernels::scan_cuda_source(text).includes) {
        if (include.angled) continue;
        const auto directory = std::filesystem::path(path).parent_path();
        for (const auto& candidate : {(directory / include.path).lexically_normal().generic_string(),
                                      std::filesystem::path(include.path).lexically_normal().generic_string()}) {
          // A path that climbs out of the repository names no file of it, and one such name
          // makes git refuse the whole batch of index reads.
          if (candidate.starts_with("../") || candidate == "..") continue;
          wanted.push_back(candidate);
          spelled.push_back(include.path);
        }
      }
    const auto found = read(wanted);
    pending.clear();
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      auto it = found.find(wanted[i]);
      if (it == found.end() ||
          std::ranges::find(headers, spelled[i], &cuda::SourceHeader::include_name) != headers.end())
        continue;
      headers.push_back({spelled[i], it->second});
      pending.emplace_back(wanted[i], it->second);
    }
  }
  return headers;
}

Result<LintInputs> staged_lint_inputs(const git::Repository& repository) {
  auto staged = repository.staged_diff();
  if (!staged) return std::unexpected(staged.error());
  LintInputs result;
  result.diff_text = *staged;
  auto diff = diff::parse_unified_diff(*staged);
  if (!diff) return std::unexpected(diff.error());
  std::vector<LintInput> inputs;
  std::vector<std::string> paths;
  for (const auto& file : diff->files) {
    if (file.kind == diff::ChangeKind::deleted || file.binary || !kernels::is_cuda_source_path(file.new_path)) continue;
    std::vector<std::uint32_t> added;
    for (const auto& hunk : file.hunks) added.insert(added.end(), hunk.added.begin(), hunk.added.end());
    std::ranges::sort(added);
    if (added.empty()) continue;
    inputs.push_back({file.new_path, file.new_path, {}, std::move(added)});
    paths.push_back(file.new_path);
  }
  result.read = [&repository](const std::vector<std::string>& wanted) {
    std::map<std::string, std::string, std::less<>> found;
    if (wanted.empty()) return found;
    if (auto files = repository.read_files("", wanted))
      for (auto& [path, text] : *files)
        if (text) found.emplace(path, std::move(*text));
    return found;
  };
  auto texts = result.read(paths);
  for (auto& input : inputs) input.text = texts[input.relative];
  result.files = std::move(inputs);
  return result;
}

Result<LintInputs> file_lint_inputs(const std::vector<std::string>& paths, const std::filesystem::path& root) {
  LintInputs result;
  for (const auto& path : paths) {
    std::error_code ec;
    const auto real_root = std::filesystem::weakly_canonical(root, ec);
    const auto lexical = std::filesystem::absolute(path, ec).lexically_normal().lexically_relative(real_root);
    const bool in_repository = !lexical.empty() && *lexical.begin() != "..";
    // A file named inside the repository is read as a repository file (a symlink in it that leads
    // out is refused); one the user names outside it is theirs to name.
    auto text = in_repository ? read_repository_file(root, lexical, max_lint_file_bytes)
                              : read_repository_file(std::filesystem::path(path).parent_path().empty()
                                                         ? std::filesystem::current_path(ec)
                                                         : std::filesystem::absolute(path, ec).parent_path(),
                                                     std::filesystem::path(path).filename(), max_lint_file_bytes);
    if (!text) return usage_error(fmt::format("cannot read '{}': {}", path, text.error().message));
    const auto relative = std::filesystem::weakly_canonical(path, ec).lexically_relative(real_root);
    result.files.push_back({path, relative.empty() ? path : relative.generic_string(), std::move(*text), std::nullopt});
  }
  // Headers are read inside the repository only: a committed symlink to /proc/self/environ or a
  // path through .git stays unread (the compile then reports the header missing).
  result.read = [root](const std::vector<std::string>& wanted) {
    std::map<std::string, std::string, std::less<>> found;
    for (const auto& path : wanted)
      if (auto text = read_repository_file(root, path, max_lint_file_bytes)) found.emplace(path, std::move(*text));
    return found;
  };
  return result;
}

}  // namespace kforecast::lint_run
