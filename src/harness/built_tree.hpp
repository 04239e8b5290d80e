// SPDX-License-Identifier: Apache-2.0
#pragma once

// A revision checked out and built for a harness: `git worktree add --detach` into kforecast's
// cache, keyed by the revision's tree hash and the build command, and built there once with the
// harness's build command (ShellRunner, under its timeout). A later run of the same tree and build
// finds the marker the build left and reuses the tree, built. A build that fails leaves its log
// beside the tree and an Error quoting its end; the next run builds again.

#include <filesystem>
#include <string>

#include "base/error.hpp"
#include "harness/harness_config.hpp"
#include "harness/shell_runner.hpp"

namespace kforecast::harness {

struct TreeRequest {
  std::filesystem::path repository;  // the checkout whose objects hold the commit
  std::string commit;                // a commit (a hash, or any name git resolves)
  std::string side;                  // "base" or "head", for messages
  std::filesystem::path cache;       // e.g. ~/.cache/kforecast/harness
};

struct BuiltTree {
  std::filesystem::path path;
  bool reused = false;  // built by an earlier run
  std::string tree_hash;
};

Result<BuiltTree> built_tree(const TreeRequest& request, const Harness& harness, const ShellRunner& shell);

// The last `lines` lines of `text`, for an error message that quotes a log.
std::string last_lines(std::string_view text, std::size_t lines);

}  // namespace kforecast::harness
