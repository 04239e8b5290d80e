// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where a repository's compile database is: the path the config's compile.database names, else
// compile_commands.json at the repository root, else in a build* folder at most two levels down
// (build/, build/release/, build-kf/), the first in name order.

#include <filesystem>
#include <optional>
#include <string_view>

#include "base/error.hpp"
#include "context/compile_database.hpp"

namespace kforecast::context {

// The database's path relative to the repository root (or absolute where the config named one
// outside it), or nullopt where there is none. A configured path that does not exist is an Error.
Result<std::optional<std::filesystem::path>> find_compile_database(const std::filesystem::path& repository_root,
                                                                   std::string_view configured_path);

// Finds and reads the database; nullopt where there is none. A database found inside the
// repository is read as a repository file (no symlink out, nothing under .git); one the config
// names outside it is the workflow's own and is read as it is.
Result<std::optional<CompileDatabase>> load_compile_database(const std::filesystem::path& repository_root,
                                                             std::string_view configured_path);

}  // namespace kforecast::context
