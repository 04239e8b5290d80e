// SPDX-License-Identifier: Apache-2.0
#include "measure/revision_captures.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "git/repository.hpp"

namespace kforecast::measure {
namespace {

namespace fs = std::filesystem;

// `folder` relative to `root` when it lies inside it ("" for the root itself), else nullopt.
std::optional<fs::path> inside(const fs::path& folder, const fs::path& root) {
  std::error_code ec;
  const fs::path relative = fs::weakly_canonical(folder, ec).lexically_relative(fs::weakly_canonical(root, ec));
  if (ec || relative.empty() || *relative.begin() == "..") return std::nullopt;
  return relative == "." ? fs::path() : relative;
}

bool plain_relative(const fs::path& path) {
  if (path.empty() || path.is_absolute()) return false;
  return std::ranges::none_of(path, [](const fs::path& part) { return part == ".." || part == "." || part.empty(); });
}

// The files under `relative` at `commit`, written below `target` (which then stands for
// `relative`); how many. A folder absent at that commit writes nothing: no captures there.
Result<std::size_t> write_folder_at(const git::Repository& repository, std::string_view commit,
                                    const fs::path& relative, const fs::path& target) {
  auto tree = repository.list_tree(commit);
  if (!tree) return std::unexpected(tree.error());
  const std::string prefix = relative.generic_string() + "/";
  std::vector<std::pair<fs::path, std::string>> wanted;  // path below the folder, blob
  std::vector<std::string> blobs;
  for (const auto& entry : *tree) {
    if (!entry.path.starts_with(prefix) || entry.mode == "120000") continue;  // no symbolic links
    const fs::path below = entry.path.substr(prefix.size());
    if (!plain_relative(below)) continue;
    wanted.emplace_back(below, entry.blob);
    blobs.push_back(entry.blob);
  }
  std::error_code ec;
  fs::create_directories(target, ec);
  if (ec) return fail(ExitCode::could_not_run, fmt::format("cannot create {}: {}", target.string(), ec.message()));
  if (wanted.empty()) return 0;
  auto texts = repository.read_blobs(blobs);
  if (!texts) return std::unexpected(texts.error());
  for (const auto& [below, blob] : wanted) {
    const fs::path file = target / below;
    fs::create_directories(file.parent_path(), ec);
    const auto& text = texts->at(blob);
    std::ofstream out(file, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) return fail(ExitCode::could_not_run, fmt::format("cannot write {}", file.string()));
  }
  return wanted.size();
}

// Regular files below `folder` in the work tree that git does not track (recorded here by
// `kforecast capture`, or restored from a CI cache; `.kforecast/` is usually ignored): no commit
// of a pull request puts them there, so both sides may use them. Paths below `folder`.
Result<std::vector<fs::path>> untracked_below(const git::Repository& repository, const fs::path& folder,
                                              const fs::path& relative) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return files;
  auto tracked_list = repository.list_files("");
  if (!tracked_list) return std::unexpected(tracked_list.error());
  const std::string prefix = relative.generic_string() + "/";
  std::set<std::string, std::less<>> tracked;
  for (const auto& path : *tracked_list)
    if (path.starts_with(prefix)) tracked.insert(path.substr(prefix.size()));
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    const fs::path below = it->path().lexically_relative(folder);
    if (plain_relative(below) && !tracked.contains(below.generic_string())) files.push_back(below);
  }
  return files;
}

// Copies `files` (below `from`) below `to`, leaving a file the revision has alone; how many.
Result<std::size_t> copy_untracked(const std::vector<fs::path>& files, const fs::path& from, const fs::path& to) {
  std::size_t copied = 0;
  std::error_code ec;
  for (const auto& below : files) {
    if (fs::exists(to / below, ec)) continue;
    fs::create_directories((to / below).parent_path(), ec);
    if (!fs::copy_file(from / below, to / below, ec))
      return fail(ExitCode::could_not_run,
                  fmt::format("cannot copy {}: {}", (from / below).string(), ec ? ec.message() : "not copied"));
    ++copied;
  }
  return copied;
}

}  // namespace

fs::path capture_repository_root(const fs::path& configured, const git::RepositoryOpener& repository_at) {
  if (!configured.empty()) return configured;
  std::error_code ec;
  fs::path here = fs::current_path(ec);
  if (repository_at)
    if (auto repository = repository_at(here)) return (*repository)->root();
  return here;
}

bool names_a_commit(std::string_view revision) {
  return revision.size() >= 7 && revision.size() <= 64 &&
         std::ranges::all_of(revision, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

Result<CaptureFolders> revision_capture_folders(const config::Config& config, const fs::path& repository_root,
                                                std::string_view base, std::string_view head,
                                                const fs::path& scratch, const git::RepositoryOpener& repository_at) {
  const std::string setting = config.string_value("capture.dir");
  fs::path dir = setting;
  if (dir.is_relative()) dir = repository_root / dir;
  const auto relative = inside(dir, repository_root);
  if (!relative || relative->empty()) {
    const std::string origin = fmt::format("capture.dir {} (outside the repository: used as it is)", dir.string());
    return CaptureFolders{dir, dir, origin, origin};
  }
  auto repository = repository_at ? repository_at(repository_root)
                                    : Result<std::unique_ptr<git::Repository>>(usage_error("no repository opener"));
  if (!repository) {
    // No repository to read the revisions from (a shard run outside a checkout): the folder as
    // it is, and said so.
    const std::string origin =
        fmt::format("{} as found here (no git repository to read the revisions from)", relative->generic_string());
    return CaptureFolders{dir, dir, origin, origin};
  }
  std::optional<Result<std::vector<fs::path>>> untracked;  // read once, for the first commit
  const auto side = [&](std::string_view revision, std::string_view name) -> Result<std::pair<fs::path, std::string>> {
    const std::string shown = relative->generic_string();
    if (!names_a_commit(revision))
      return std::pair{dir, fmt::format("the work tree's {} (the {} is the {}, not a commit)", shown, name, revision)};
    const fs::path target = scratch / "captures" / std::string(name) / *relative;
    const auto problem = [&](const Error& error) {
      return fail(ExitCode::could_not_run, fmt::format("cannot read capture.dir {} at the {} revision {}: {}", shown,
                                                       name, revision.substr(0, 12), error.message));
    };
    auto committed = write_folder_at(**repository, revision, *relative, target);
    if (!committed) return problem(committed.error());
    if (!untracked) untracked = untracked_below(**repository, dir, *relative);
    if (!*untracked) return problem(untracked->error());
    auto copied = copy_untracked(**untracked, dir, target);
    if (!copied) return problem(copied.error());
    const std::string at = fmt::format("the {} revision {}'s {}", name, revision.substr(0, 12), shown);
    if (*copied == 0) return std::pair{target, at};
    if (*committed == 0)
      return std::pair{target, fmt::format("the work tree's untracked {} (recorded or restored here, in no commit)",
                                           shown)};
    return std::pair{target, fmt::format("{}, with the work tree's untracked files there", at)};
  };
  auto at_base = side(base, "base");
  if (!at_base) return std::unexpected(at_base.error());
  auto at_head = side(head, "head");
  if (!at_head) return std::unexpected(at_head.error());
  return CaptureFolders{at_base->first, at_head->first, at_base->second, at_head->second};
}

}  // namespace kforecast::measure
