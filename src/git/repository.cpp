// SPDX-License-Identifier: Apache-2.0
#include "git/repository.hpp"

#include <algorithm>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "git/git_process.hpp"
#include "git/object_reader.hpp"

namespace kforecast::git {
namespace {

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// Options that make `git diff` output what the parser expects whatever the user configured.
const std::vector<std::string> diff_options{"--no-color",  "--no-ext-diff",   "--no-textconv",   "--find-renames",
                                            "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", "--ignore-submodules"};

class CliRepository final : public Repository {
 public:
  CliRepository(std::filesystem::path root, ObjectReader objects)
      : m_root(std::move(root)), m_objects(std::move(objects)) {}

  const std::filesystem::path& root() const override { return m_root; }

  Result<Commit> resolve(std::string_view revision) const override {
    // A revision is data, never an option: "--output=x" must not reach git as one.
    if (revision.empty() || revision.starts_with('-'))
      return usage_error(fmt::format("'{}' is not a revision", revision));
    // Asked of the cat-file already running, as `git rev-parse --verify REV^{commit}` would
    // answer: a process less for each revision.
    const auto no_commit = [&] {
      return usage_error(fmt::format("revision '{}' names no commit in {}", revision, m_root.string()));
    };
    if (revision.find_first_of("\n\r") != std::string_view::npos) return no_commit();
    auto objects = m_objects.read({fmt::format("{}^{{commit}}", revision)});
    if (!objects) return std::unexpected(objects.error());
    const auto& commit = objects->front();
    if (!commit || commit->type != "commit") return no_commit();
    return Commit{std::string(revision), commit->id};
  }

  Result<std::string> merge_base(std::string_view a, std::string_view b) const override {
    auto result = run_git(m_root, {"merge-base", std::string(a), std::string(b)}, {}, 1);
    if (!result) return std::unexpected(result.error());
    if (result->exit_status != 0)
      return fail(ExitCode::could_not_run, fmt::format("'{}' and '{}' have no common ancestor", a, b));
    return trimmed(result->out);
  }

  std::optional<std::string> upstream() const override {
    auto result = run_git(m_root, {"rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"}, {}, 128);
    if (!result || result->exit_status != 0) return std::nullopt;
    return trimmed(result->out);
  }

  Result<std::string> diff(std::string_view base, std::string_view head) const override {
    std::vector<std::string> args{"diff"};
    args.insert(args.end(), diff_options.begin(), diff_options.end());
    args.insert(args.end(), {std::string(base), std::string(head), "--"});
    // Both trees are listed next (kforecast pr reads the sources at both revisions): the
    // cat-file walks them on this thread while git diff runs beside it.
    std::optional<Result<ProcessOutput>> result;
    std::jthread diff([&] {  // joined even when the walk throws
      try {
        result = run_git(m_root, std::move(args));
      } catch (const Fatal& fatal) {  // an exception must not leave a thread: it would end the process
        result = fail(fatal.exit_code(), fatal.what());
      }
    });
    for (const std::string_view revision : {base, head}) prefetch_tree(revision);
    diff.join();
    if (!*result) return std::unexpected(result->error());
    return std::move((*result)->out);
  }

  Result<std::string> changed_files_diff(std::string_view base, std::string_view head) const override {
    for (const std::string_view revision : {base, head}) prefetch_tree(revision);
    const auto base_tree = m_trees.find(base);
    const auto head_tree = m_trees.find(head);
    if (base_tree == m_trees.end() || head_tree == m_trees.end()) return diff(base, head);  // it reports the error
    if (auto headers = headers_from_trees(base_tree->second, head_tree->second)) return std::move(*headers);
    return diff(base, head);
  }

  Result<std::string> staged_diff() const override {
    std::vector<std::string> args{"diff", "--cached"};
    args.insert(args.end(), diff_options.begin(), diff_options.end());
    args.push_back("--");
    auto result = run_git(m_root, std::move(args));
    if (!result) return std::unexpected(result.error());
    return std::move(result->out);
  }

  Result<std::vector<std::string>> list_files(std::string_view revision) const override {
    // -z: paths exactly as stored, whatever bytes they hold.
    auto result = revision.empty() ? run_git(m_root, {"ls-files", "-z", "--cached"})
                                   : run_git(m_root, {"ls-tree", "-r", "-z", "--name-only", std::string(revision)});
    if (!result) return std::unexpected(result.error());
    std::vector<std::string> paths;
    std::string_view rest = result->out;
    while (!rest.empty()) {
      const auto end = rest.find('\0');
      paths.emplace_back(rest.substr(0, end));
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    return paths;
  }

  Result<std::vector<TreeEntry>> list_tree(std::string_view revision) const override {
    if (!revision.empty()) {
      if (const auto prefetched = m_trees.find(revision); prefetched != m_trees.end())
        return std::move(m_trees.extract(prefetched).mapped());  // taken once: no copy kept
      return walk_tree(revision);
    }
    // ls-files -s: "MODE HASH STAGE\tPATH". -z: paths as stored.
    auto result = run_git(m_root, {"ls-files", "-s", "-z"});
    if (!result) return std::unexpected(result.error());
    std::vector<TreeEntry> entries;
    std::string_view rest = result->out;
    while (!rest.empty()) {
      const auto end = rest.find('\0');
      const std::string_view record = rest.substr(0, end);
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
      const auto tab = record.find('\t');
      if (tab == std::string_view::npos) continue;
      const std::string_view fields = record.substr(0, tab);
      if (fields.starts_with("160000")) continue;  // a submodule's commit
      const auto hash_start = fields.find(' ') + 1;
      const auto hash_end = fields.find(' ', hash_start);
      entries.push_back({std::string(record.substr(tab + 1)),
                         std::string(fields.substr(hash_start, hash_end - hash_start)),
                         std::string(fields.substr(0, hash_start - 1))});
    }
    return entries;
  }

  Result<std::map<std::string, std::string, std::less<>>> read_blobs(
      const std::vector<std::string>& blobs) const override {
    std::vector<std::string> unique = blobs;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    auto contents = read_batch(unique);
    if (!contents) return std::unexpected(contents.error());
    std::map<std::string, std::string, std::less<>> out;
    for (auto& [name, text] : *contents) {
      if (!text) return fail(ExitCode::could_not_run, fmt::format("git has no object {}", name));
      out.emplace(name, std::move(*text));
    }
    return out;
  }

  Result<std::map<std::string, std::optional<std::string>, std::less<>>> read_files(
      std::string_view revision, const std::vector<std::string>& paths) const override;

  Result<std::unique_ptr<Repository>> submodule(const std::string& path) const override {
    const std::filesystem::path clone = m_root / path;
    std::error_code error;
    if (!std::filesystem::exists(clone / ".git", error))
      return fail(ExitCode::could_not_run, fmt::format("submodule {} is not checked out", path));
    auto opened = open_repository(clone);
    if (!opened) return std::unexpected(opened.error());
    // An empty folder would find the superproject itself.
    if ((*opened)->root().lexically_normal() != std::filesystem::weakly_canonical(clone, error).lexically_normal())
      return fail(ExitCode::could_not_run, fmt::format("submodule {}: {} is not its own repository", path, clone.string()));
    return opened;
  }

 private:
  // Walked through the cat-file already running: the same list as `git ls-tree -r`, without
  // starting git again.
  Result<std::vector<TreeEntry>> walk_tree(std::string_view revision) const {
    auto files = m_objects.list_tree(std::string(revision));
    if (!files) return std::unexpected(files.error());
    if (!*files)
      return fail(ExitCode::could_not_run, fmt::format("revision '{}' names no tree in {}", revision, m_root.string()));
    std::vector<TreeEntry> entries;
    entries.reserve((*files)->size());
    for (auto& file : **files) entries.push_back({std::move(file.path), std::move(file.blob), std::move(file.mode)});
    return entries;
  }

  // The file headers `git diff` writes for the changes between two tree listings, or nothing
  // where git's own diff is needed: a file removed while another was added (git may pair them
  // as a rename), a symbolic link or other non-regular file changed (git splits a type change
  // in two), or a path git would quote or that a header could not carry unambiguously.
  static std::optional<std::string> headers_from_trees(const std::vector<TreeEntry>& base,
                                                       const std::vector<TreeEntry>& head) {
    auto by_path = [](const std::vector<TreeEntry>& tree) {
      std::map<std::string_view, const TreeEntry*> map;
      for (const TreeEntry& entry : tree) map.emplace(entry.path, &entry);
      return map;
    };
    const auto old_files = by_path(base), new_files = by_path(head);
    auto plain_path = [](std::string_view path) {
      return std::ranges::all_of(path, [](char c) { return c > ' ' && c < 0x7f && c != '"' && c != '\\'; });
    };
    auto regular = [](const TreeEntry& entry) { return entry.mode == "100644" || entry.mode == "100755"; };
    bool added = false, removed = false;
    std::string out;
    auto header = [&](std::string_view path) { out += fmt::format("diff --git a/{0} b/{0}\n", path); };
    // Both maps are in byte order of the path, which is git diff's order.
    auto o = old_files.begin(), n = new_files.begin();
    while (o != old_files.end() || n != new_files.end()) {
      const bool take_old = n == new_files.end() || (o != old_files.end() && o->first < n->first);
      const bool take_new = o == old_files.end() || (n != new_files.end() && n->first < o->first);
      const TreeEntry* before = take_new ? nullptr : o->second;
      const TreeEntry* after = take_old ? nullptr : n->second;
      const TreeEntry& any = before ? *before : *after;
      if (!take_new) ++o;
      if (!take_old) ++n;
      if (before && after && before->blob == after->blob && before->mode == after->mode) continue;
      if (!plain_path(any.path) || (before && !regular(*before)) || (after && !regular(*after))) return std::nullopt;
      header(any.path);
      if (!before) {
        added = true;
        out += fmt::format("new file mode {}\nindex {}..{}\n", after->mode, std::string(after->blob.size(), '0'),
                           after->blob);
      } else if (!after) {
        removed = true;
        out += fmt::format("deleted file mode {}\nindex {}..{}\n", before->mode, before->blob,
                           std::string(before->blob.size(), '0'));
      } else if (before->mode != after->mode) {
        out += fmt::format("old mode {}\nnew mode {}\n", before->mode, after->mode);
        if (before->blob != after->blob) out += fmt::format("index {}..{}\n", before->blob, after->blob);
      } else {
        out += fmt::format("index {}..{} {}\n", before->blob, after->blob, after->mode);
      }
      if (added && removed) return std::nullopt;
    }
    return out;
  }

  // A listing kept for list_tree(); a failure is not kept, so list_tree reports it itself.
  void prefetch_tree(std::string_view revision) const {
    if (revision.empty() || m_trees.contains(revision)) return;
    if (auto entries = walk_tree(revision)) m_trees.emplace(std::string(revision), std::move(*entries));
  }

  // Object names ("HASH" or "REV:PATH") read in one batch; nullopt for what is not a blob.
  Result<std::map<std::string, std::optional<std::string>, std::less<>>> read_batch(
      const std::vector<std::string>& names) const;

  std::filesystem::path m_root;
  // Reading objects does not change the repository: the reader's state is the process's.
  mutable ObjectReader m_objects;
  mutable std::map<std::string, std::vector<TreeEntry>, std::less<>> m_trees;  // prefetched listings
};

// Every name in one exchange with the cat-file already running.
Result<std::map<std::string, std::optional<std::string>, std::less<>>> CliRepository::read_batch(
    const std::vector<std::string>& names) const {
  std::map<std::string, std::optional<std::string>, std::less<>> files;
  auto objects = m_objects.read(names);
  if (!objects) return std::unexpected(objects.error());
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto& object = (*objects)[i];
    files.emplace(names[i], object && object->type == "blob" ? std::optional<std::string>(std::move(object->contents))
                                                             : std::nullopt);
  }
  return files;
}

Result<std::map<std::string, std::optional<std::string>, std::less<>>> CliRepository::read_files(
    std::string_view revision, const std::vector<std::string>& paths) const {
  std::vector<std::string> names;
  for (const auto& path : paths) names.push_back(fmt::format("{}:{}", revision, path));
  auto batch = read_batch(names);
  if (!batch) return std::unexpected(batch.error());
  std::map<std::string, std::optional<std::string>, std::less<>> files;
  for (std::size_t i = 0; i < paths.size(); ++i) files.emplace(paths[i], std::move(batch->at(names[i])));
  return files;
}

}  // namespace

Result<std::unique_ptr<Repository>> open_repository(const std::filesystem::path& directory) {
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec))
    return usage_error(fmt::format("'{}' is not a directory", directory.string()));
  // The object reader starts up while rev-parse runs: two git processes side by side, rather
  // than one after the other.
  auto objects = ObjectReader::start(directory);
  if (!objects) return std::unexpected(objects.error());
  auto result = run_git(directory, {"rev-parse", "--show-toplevel"}, {}, 128);
  if (!result) return std::unexpected(result.error());
  if (result->exit_status != 0)
    return usage_error(fmt::format("'{}' is not inside a git work tree (use --repo DIR)", directory.string()));
  return std::make_unique<CliRepository>(trimmed(result->out), std::move(*objects));
}

}  // namespace kforecast::git
