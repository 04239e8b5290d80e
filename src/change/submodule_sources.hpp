// SPDX-License-Identifier: Apache-2.0
#pragma once

// The headers a revision's files include from its submodules (CUTLASS, glm, fmt pinned as
// gitlinks), for compiling units as the project's build does. kforecast reads a revision from git,
// where a submodule is only a commit hash; its files are in the submodule's own clone, which
// `git submodule update --init` (actions/checkout with `submodules: recursive`) leaves in the work
// tree. The headers are read from that clone at the commit each revision pins, so base and head
// each get their own version of the library.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "git/repository.hpp"
#include "git/submodules.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::change {

// One submodule commit's headers: path inside it -> blob, and by last path component.
struct SubmoduleListing {
  std::map<std::string, std::string> blobs;
  std::map<std::string, std::vector<std::string>> by_name;
};

// What one revision's reading leaves for the other's: base and head mostly pin the same commits,
// and each clone, listing and header is then opened, listed and read once.
struct SubmoduleMemo {
  std::map<std::string, std::shared_ptr<const git::Repository>> clones;  // by submodule path
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const SubmoduleListing>> listings;  // (path, commit)
  std::map<std::string, std::string> texts;  // by blob
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const git::Repository>> fetched;  // (URL, commit)
};

// What compile.submodules = "fetch" is given: brings a URL's commit and opens the repository
// holding it (git/submodule_fetch.hpp).
using SubmoduleFetcher = std::function<Result<std::unique_ptr<git::Repository>>(const std::string& url,
                                                                               const std::string& commit)>;

// Fetching a pinned commit that no clone in the checkout holds (compile.submodules = "fetch").
// `trusted` is the base revision's .gitmodules: the only URLs fetched from, so a pull request can
// neither choose the server nor add one; `fetch` brings a URL's commit and opens the repository
// holding it (git/submodule_fetch.hpp, given by the caller).
struct SubmoduleFetch {
  std::vector<git::Submodule> trusted;
  SubmoduleFetcher fetch;
};

struct SubmoduleLimits {
  std::size_t max_files = 20000;                    // headers read, over all submodules
  std::size_t max_bytes = std::size_t{256} << 20;  // their text
};

// Adds to `files` the headers `files` include (directly, or through headers read so) that none of
// them holds and that a submodule pinned at `revision` does: under the submodule's folder, as the
// project's checkout has them. An include is matched as the build's -I folders would find it:
// beside its includer, or the submodule file whose path ends with the name (one under an include/
// folder first, then the shortest). Returns a note for each submodule that could not be read (not
// checked out, or its clone lacks the pinned commit), naming it, its URL and the fix; `label`
// ("base", "head") says which revision. With `fetch`, such a submodule's commit is fetched from
// its trusted URL instead, and the note says so (or why it could not be).
std::vector<std::string> add_submodule_headers(const git::Repository& repository, std::string_view revision,
                                               std::string_view label, kernels::SourceFiles& files,
                                               SubmoduleMemo& memo, const SubmoduleLimits& limits = {},
                                               const SubmoduleFetch* fetch = nullptr);

}  // namespace kforecast::change
