// SPDX-License-Identifier: Apache-2.0
#include "gate/check_sources.hpp"

#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "base/repository_file.hpp"
#include "bench/kernel_source.hpp"

namespace kforecast::gate {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t max_source_bytes = 16 << 20;

bool is_file(const std::string& path) {
  std::error_code ec;
  return !path.empty() && fs::is_regular_file(path, ec);
}

Result<std::string> read_text(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return usage_error(fmt::format("{}: no such file", path.string()));
  if (fs::file_size(path, ec) > max_source_bytes)
    return usage_error(fmt::format("{}: larger than {} bytes", path.string(), max_source_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) return usage_error(fmt::format("{}: cannot be read", path.string()));
  return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `path`'s key below `root`: its path from there, or, for a file outside it, its name alone.
std::string key_below(const fs::path& path, const fs::path& root) {
  std::error_code ec;
  auto relative = fs::relative(path, root, ec).generic_string();
  if (ec || relative.empty() || relative.starts_with("..")) return path.filename().generic_string();
  return relative;
}

// The work tree's CUDA sources that git tracks, read from disk: the headers a kernel of the
// checked file may include, and the units that instantiate it and give its build, as `pr` reads
// a revision when a header changed. A file git lists but the disk lacks (deleted, not committed)
// is left out.
Result<kernels::SourceFiles> work_tree_sources(const git::Repository& repository) {
  auto listed = repository.list_files("");
  if (!listed) return std::unexpected(listed.error());
  kernels::SourceFiles sources;
  for (const auto& path : *listed)
    if (kernels::is_cuda_source_path(path))
      if (auto text = read_repository_file(repository.root(), path, max_source_bytes))
        sources.emplace(path, std::move(*text));
  return sources;
}

Result<CheckSources> against_revision(const CheckRequest& request, const fs::path& file) {
  auto repository = request.repository_at(file.parent_path());
  if (!repository)
    return usage_error(
        fmt::format("{}: not in a git work tree, so it has no revision to compare with; compare "
                    "with another file instead: --vs OLD_FILE[:KERNEL]",
                    request.target.file));
  const git::Repository& repo = **repository;
  CheckSources sources;
  sources.root = repo.root();
  sources.head_path = key_below(file, sources.root);
  sources.base_path = sources.head_path;
  // --vs with --against: a kernel renamed or moved since REV, compared with its old file there.
  if (!request.versus.empty()) {
    auto other = bench::split_file_kernel(request.versus);
    const std::string other_file = other ? other->first : request.versus;
    std::error_code ec;
    sources.base_path = key_below(fs::absolute(other_file, ec).lexically_normal(), sources.root);
    sources.base_kernel = other ? other->second : "";
  }
  auto commit = repo.resolve(request.against);
  if (!commit)
    return usage_error(fmt::format("--against {}: {} (give a branch, tag or commit, e.g. HEAD~1)", request.against,
                                   commit.error().message));
  auto tree = repo.list_tree(commit->sha);
  if (!tree) return std::unexpected(tree.error());
  std::vector<std::string> blobs;
  std::vector<const git::TreeEntry*> wanted;
  bool found = false;
  for (const auto& entry : *tree)
    if (entry.path == sources.base_path || kernels::is_cuda_source_path(entry.path)) {
      found = found || entry.path == sources.base_path;
      blobs.push_back(entry.blob);
      wanted.push_back(&entry);
    }
  if (!found)
    return usage_error(
        fmt::format("{} does not exist at {} ({}): a new file, so there is nothing to compare with; name an older "
                    "version with --vs OLD_FILE[:KERNEL], or a revision where it exists with --against REV",
                    sources.head_path, request.against, commit->sha.substr(0, 12)));
  auto contents = repo.read_blobs(blobs);
  if (!contents) return std::unexpected(contents.error());
  for (const auto* entry : wanted) sources.base_files.emplace(entry->path, contents->at(entry->blob));

  auto headers = work_tree_sources(repo);
  if (!headers) return std::unexpected(headers.error());
  sources.head_files = std::move(*headers);
  auto text = read_text(file);
  if (!text) return std::unexpected(text.error());
  sources.head_files[sources.head_path] = std::move(*text);

  sources.base_label = commit->sha;
  sources.head_label = "working tree";
  sources.origin =
      fmt::format("{} in the work tree against {} ({})", sources.head_path, request.against, commit->sha.substr(0, 12));
  sources.repository = std::move(*repository);
  return sources;
}

Result<CheckSources> versus_file(const CheckRequest& request, const fs::path& file) {
  auto other = parse_check_target(request.versus, "--vs");
  if (!other) return std::unexpected(other.error());
  std::error_code ec;
  const fs::path other_file = fs::absolute(other->file, ec).lexically_normal();
  CheckSources sources;
  // Inside a git work tree both sides see its headers; elsewhere only the two files are read.
  if (auto repository = request.repository_at(file.parent_path())) {
    sources.root = (*repository)->root();
    auto headers = work_tree_sources(**repository);
    if (!headers) return std::unexpected(headers.error());
    sources.base_files = *headers;
    sources.head_files = std::move(*headers);
    sources.repository = std::move(*repository);
  } else {
    sources.root = file.parent_path();
  }
  sources.head_path = key_below(file, sources.root);
  sources.base_path = key_below(other_file, sources.root);
  auto head_text = read_text(file);
  if (!head_text) return std::unexpected(head_text.error());
  auto base_text = read_text(other_file);
  if (!base_text) return std::unexpected(base_text.error());
  sources.head_files[sources.head_path] = std::move(*head_text);
  sources.base_files[sources.base_path] = std::move(*base_text);
  // Each side holds its own file alone: the checked file at the base (or the reference at the
  // head) would be a unit of both sides, compared with itself as identical code.
  if (sources.base_path != sources.head_path) {
    sources.base_files.erase(sources.head_path);
    sources.head_files.erase(sources.base_path);
  }
  sources.base_kernel = other->kernel;
  sources.base_label = other->file;
  sources.head_label = request.target.file;
  sources.origin = fmt::format("{} against {}", request.target.file, other->file);
  return sources;
}

}  // namespace

Result<CheckTarget> parse_check_target(std::string_view text, std::string_view option) {
  const std::string prefix = option.empty() ? "" : fmt::format("{} ", option);
  if (is_file(std::string(text))) return CheckTarget{std::string(text), ""};
  if (auto split = bench::split_file_kernel(text)) {
    if (is_file(split->first)) return CheckTarget{split->first, split->second};
    return usage_error(fmt::format("{}{}: no such file", prefix, split->first));
  }
  return usage_error(fmt::format("{}{}: no such file", prefix, text));
}

Result<CheckSources> read_check_sources(const CheckRequest& request) {
  std::error_code ec;
  const fs::path file = fs::absolute(request.target.file, ec).lexically_normal();
  if (!request.versus.empty() && request.against.empty()) return versus_file(request, file);
  return against_revision(request, file);
}

}  // namespace kforecast::gate
