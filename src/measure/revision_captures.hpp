// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where `pr` looks for a kernel's captures: in the revisions it compares, not in whatever the work
// tree holds. A capture.dir inside the repository (committed captures) is read at the base
// revision for a kernel the base has (the base's program chooses the problem, as the base's spec
// would, and both sides replay it) and at the head for a kernel only the head names; each
// revision's folder is written under a scratch folder from git's objects, with the files of the
// work tree's folder git does not track (captures recorded or restored there: no commit of a pull
// request puts them there), where the revision has no file of the same path. A capture.dir outside
// the repository (a cache a CI job fills) is used as it is for both. A side that is not a commit
// (the index, the working tree of `pr --diff`) is read from the work tree, and its origin says so.

#include <filesystem>
#include <string_view>

#include "base/error.hpp"
#include "config/config.hpp"
#include "git/repository.hpp"
#include "measure/capture_choice.hpp"

namespace kforecast::measure {

// `repository_root`: the work tree's top folder (capture.dir is relative to it). `base`, `head`:
// the revisions as the run names them (commits, or "index", "working tree", "patch base").
// Errors where git cannot list or read a revision's capture files.
Result<CaptureFolders> revision_capture_folders(const config::Config& config,
                                                const std::filesystem::path& repository_root, std::string_view base,
                                                std::string_view head, const std::filesystem::path& scratch,
                                                const git::RepositoryOpener& repository_at);

// `configured` where set (pr, check), else the repository holding the current folder (a plan's
// shard, which runs in a checkout), else the current folder.
std::filesystem::path capture_repository_root(const std::filesystem::path& configured,
                                              const git::RepositoryOpener& repository_at);

// Whether a revision as the run names it is a commit hash (not "index", "working tree", ...).
bool names_a_commit(std::string_view revision);

}  // namespace kforecast::measure
