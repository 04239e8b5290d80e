// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading a file of the repository's work tree that a pull request may have planted: a symlink
// to /proc/self/environ or to ~/.ssh, a path through .git (whose config holds the checkout's
// token on CI runners). Only regular files inside the repository are read.

#include <cstddef>
#include <filesystem>
#include <string>

#include "base/error.hpp"

namespace kforecast {

enum class RepositoryFileProblem {
  missing,       // nothing there, or not a regular file
  outside,       // the path, or a symlink on it, leads out of the repository
  git_internal,  // under .git
  too_large,
};

struct RepositoryFileRefusal {
  RepositoryFileProblem problem = RepositoryFileProblem::missing;
  std::string message;  // names the file and why; no byte of its contents
};

// The bytes of `relative` (a path inside `root`; an absolute one is refused) where it is a
// regular file inside the repository, at most `max_bytes` long.
std::expected<std::string, RepositoryFileRefusal> read_repository_file(const std::filesystem::path& root,
                                                                       const std::filesystem::path& relative,
                                                                       std::size_t max_bytes);

}  // namespace kforecast
