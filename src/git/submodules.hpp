// SPDX-License-Identifier: Apache-2.0
#pragma once

// Submodules as a revision records them: the gitlinks of its tree (a folder's path and the commit
// it is pinned to) and the .gitmodules file that names each one's URL. Both come from the
// repository under review, so both are untrusted: .gitmodules is parsed leniently (what it cannot
// read is left out), and nothing here fetches or runs anything.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::git {

struct Submodule {
  std::string name;  // [submodule "NAME"]
  std::string path;  // path = ...
  std::string url;   // url = ...
};

// The [submodule "..."] sections of a .gitmodules text that give a path, in order. Keys are
// case-insensitive, values are trimmed and may be quoted; comments (# and ;) and sections of
// other kinds are skipped. A path that is absolute or climbs out with ".." is left out.
std::vector<Submodule> parse_gitmodules(std::string_view text);

struct Gitlink {
  std::string path;    // the submodule's folder in the tree
  std::string commit;  // the commit the tree pins it to
};

// The gitlinks of `revision`'s tree, in the order `git ls-tree -r` lists them.
Result<std::vector<Gitlink>> list_gitlinks(const std::filesystem::path& root, std::string_view revision);

}  // namespace kforecast::git
