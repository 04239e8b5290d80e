// SPDX-License-Identifier: Apache-2.0
#include "context/database_location.hpp"

#include <algorithm>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "base/repository_file.hpp"
#include "base/text_file.hpp"

namespace kforecast::context {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view database_file = "compile_commands.json";
constexpr std::size_t max_database_bytes = std::size_t{256} << 20;

bool is_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

// The sub-folders of `folder` (not following symlinks out of the tree), in name order.
std::vector<fs::path> folders_in(const fs::path& folder) {
  std::vector<fs::path> folders;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
    if (it->is_directory(error) && !it->is_symlink(error)) folders.push_back(it->path().filename());
  std::ranges::sort(folders);
  return folders;
}

}  // namespace

Result<std::optional<fs::path>> find_compile_database(const fs::path& repository_root,
                                                      std::string_view configured_path) {
  if (!configured_path.empty()) {
    const fs::path configured(configured_path);
    if (!is_file(configured.is_absolute() ? configured : repository_root / configured))
      return usage_error(fmt::format(
          "compile.database names '{}', which is not a file (a path relative to the repository root); write it "
          "with the build before kforecast runs, or remove the key to search build*/ folders",
          configured_path));
    return std::optional<fs::path>(configured.lexically_normal());
  }
  if (is_file(repository_root / database_file)) return std::optional<fs::path>(fs::path(database_file));
  for (const fs::path& top : folders_in(repository_root)) {
    if (!top.native().starts_with("build")) continue;
    if (is_file(repository_root / top / database_file)) return std::optional<fs::path>(top / database_file);
    for (const fs::path& below : folders_in(repository_root / top))
      if (is_file(repository_root / top / below / database_file))
        return std::optional<fs::path>(top / below / database_file);
  }
  return std::optional<fs::path>();
}

Result<std::optional<CompileDatabase>> load_compile_database(const fs::path& repository_root,
                                                             std::string_view configured_path) {
  auto found = find_compile_database(repository_root, configured_path);
  if (!found) return std::unexpected(found.error());
  if (!*found) return std::optional<CompileDatabase>();
  const fs::path& path = **found;
  std::string text;
  if (path.is_absolute()) {
    auto bytes = read_text_file(path, "compile database", max_database_bytes);
    if (!bytes) return std::unexpected(bytes.error());
    text = std::move(*bytes);
  } else {
    auto bytes = read_repository_file(repository_root, path, max_database_bytes);
    if (!bytes) return usage_error(bytes.error().message);
    text = std::move(*bytes);
  }
  const fs::path absolute = path.is_absolute() ? path : repository_root / path;
  auto database = parse_compile_database(text, path.generic_string(),
                                         DatabasePlace{repository_root, absolute.parent_path().lexically_normal()});
  if (!database) return std::unexpected(database.error());
  return std::optional<CompileDatabase>(std::move(*database));
}

}  // namespace kforecast::context
