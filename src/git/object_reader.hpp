// SPDX-License-Identifier: Apache-2.0
#pragma once

// One long-lived `git cat-file --batch` for every object a command reads: revisions resolved,
// trees listed, blobs read. Starting git costs more than a millisecond each time, far more
// than answering one more request, so a command starts this once and asks it everything.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/process_session.hpp"

namespace kforecast::git {

struct GitObject {
  std::string id;    // the full hash
  std::string type;  // "blob", "tree", "commit", "tag"
  std::string contents;
};

// A file in a tree: its path from the tree's root, its blob hash and its mode as git writes it
// ("100644", "100755", "120000" for a symbolic link).
struct TreeFile {
  std::string path;
  std::string blob;
  std::string mode;
};

class ObjectReader {
 public:
  // Starts `git cat-file --batch` in `directory` (any directory of the work tree) and returns
  // at once; git starts up while the caller does other work.
  static Result<ObjectReader> start(const std::filesystem::path& directory);

  // The objects that `names` name ("HASH", "REV:PATH", "REV^{commit}"), in order; nullopt for a
  // name git does not know (or finds ambiguous). A name with a line break is an Error.
  Result<std::vector<std::optional<GitObject>>> read(const std::vector<std::string>& names);

  // Every file of the tree that `tree_ish` names, recursively, in `git ls-tree -r` order: blobs
  // and symbolic links, not submodules. nullopt when `tree_ish` names no tree.
  Result<std::optional<std::vector<TreeFile>>> list_tree(const std::string& tree_ish);

 private:
  explicit ObjectReader(std::unique_ptr<ProcessSession> session) : m_session(std::move(session)) {}
  std::unique_ptr<ProcessSession> m_session;
};

}  // namespace kforecast::git
