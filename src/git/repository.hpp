// SPDX-License-Identifier: Apache-2.0
#pragma once

// The git seam. The real implementation runs the `git` binary (no library): the user's own git,
// with their configuration, sees exactly what kforecast sees. Later stages take a Repository&,
// so their tests can substitute an in-memory one.

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::git {

// A revision as given ("main", "HEAD~1") and the commit it names.
struct Commit {
  std::string spelled;
  std::string sha;
};

// A file at a revision: its path and the hash of its contents (equal hashes, equal contents), and
// its mode as git writes it ("100644"; empty where it was not read).
struct TreeEntry {
  std::string path;
  std::string blob;
  std::string mode;
};

class Repository {
 public:
  virtual ~Repository() = default;

  // The work tree's top-level directory.
  virtual const std::filesystem::path& root() const = 0;

  // The commit a revision names; an Error naming the revision when it names none.
  virtual Result<Commit> resolve(std::string_view revision) const = 0;

  // The best common ancestor of two commits.
  virtual Result<std::string> merge_base(std::string_view a, std::string_view b) const = 0;

  // The upstream of the current branch ("origin/main"), if one is configured.
  virtual std::optional<std::string> upstream() const = 0;

  // The unified diff between two commits (renames detected, a/ and b/ prefixes, no colour,
  // whatever the user's configuration says).
  virtual Result<std::string> diff(std::string_view base, std::string_view head) const = 0;

  // Which files differ between two commits, as a diff that `diff::parse_unified_diff` reads: the
  // same files, kinds, modes and blobs as diff() gives, but no hunks (the blob hashes are in
  // full). It is made from the two trees, without starting git, when no rename is possible
  // (no file was removed while another was added) and every changed path is plain printable
  // ASCII; otherwise it is diff()'s own output, hunks and all. For callers that need only the
  // changed files, not the changed lines: `git diff` is a whole process start.
  virtual Result<std::string> changed_files_diff(std::string_view base, std::string_view head) const = 0;

  // The unified diff of the index against HEAD (what `git commit` would record).
  virtual Result<std::string> staged_diff() const = 0;

  // Every file path at `revision` (a commit, or "" for the index), in git's order.
  virtual Result<std::vector<std::string>> list_files(std::string_view revision) const = 0;

  // The same with each file's blob hash (submodules and other non-files left out).
  virtual Result<std::vector<TreeEntry>> list_tree(std::string_view revision) const = 0;

  // The contents of blobs by hash, read in one batch; a hash git does not have is an Error.
  virtual Result<std::map<std::string, std::string, std::less<>>> read_blobs(
      const std::vector<std::string>& blobs) const = 0;

  // Contents of `paths` at `revision` (a commit, or "" for the index), read in one batch. A path
  // absent there maps to nullopt.
  virtual Result<std::map<std::string, std::optional<std::string>, std::less<>>> read_files(
      std::string_view revision, const std::vector<std::string>& paths) const = 0;

  // The clone of the submodule checked out at `path` (repository-relative, as a gitlink names
  // it), or an Error where none is checked out there.
  virtual Result<std::unique_ptr<Repository>> submodule(const std::string& path) const = 0;
};

// Opens the repository whose work tree contains `directory`, by asking git. Errors say whether
// git is missing or the directory is not in a repository.
Result<std::unique_ptr<Repository>> open_repository(const std::filesystem::path& directory);

// How a library below cli opens a repository: the caller hands it one (open_repository, or a
// test's fake), so that no stage runs git behind its caller's back.
using RepositoryOpener = std::function<Result<std::unique_ptr<Repository>>(const std::filesystem::path& directory)>;

}  // namespace kforecast::git
