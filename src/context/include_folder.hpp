// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which include folders a project's build may hand the compiler. The folders come from a pull
// request's head or from a compile database the workflow made from it, so they are hostile: a
// folder outside the repository is how `#include <passwd>` reads /etc/passwd, and one under
// .git is how a header reads the checkout's token. Allowed: folders inside the repository (not
// under .git), and existing system folders under /usr or /opt (a toolkit, a system library).

#include <expected>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace kforecast::context {

// The file system as the folder check needs it; tests give a fake.
struct FolderLookup {
  // The folder's path with every symlink resolved, or nullopt where it is not an existing folder.
  std::function<std::optional<std::filesystem::path>(const std::filesystem::path&)> real_folder;
};
FolderLookup real_folder_lookup();

struct FolderPlace {
  std::filesystem::path repository_root;    // absolute
  std::filesystem::path working_directory;  // what a relative folder is relative to; absolute
};

// The folder as a CompileContext holds it (repository-relative, "." for the root, or an
// absolute system folder), or why it is refused ("outside the repository").
std::expected<std::string, std::string> admit_include_folder(std::string_view folder, const FolderPlace& place,
                                                             const FolderLookup& lookup);

}  // namespace kforecast::context
