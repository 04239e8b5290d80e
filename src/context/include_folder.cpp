// SPDX-License-Identifier: Apache-2.0
#include "context/include_folder.hpp"

#include <algorithm>
#include <system_error>

namespace kforecast::context {
namespace fs = std::filesystem;

namespace {

bool has_git_component(const fs::path& path) {
  return std::ranges::any_of(path, [](const fs::path& part) { return part == ".git"; });
}

// Whether `path` (absolute, normal) is `folder` or below it.
bool is_under(const fs::path& path, const fs::path& folder) {
  const fs::path relative = path.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

bool is_system_folder(const fs::path& path) { return is_under(path, "/usr") || is_under(path, "/opt"); }

}  // namespace

FolderLookup real_folder_lookup() {
  return {[](const fs::path& folder) -> std::optional<fs::path> {
    std::error_code error;
    if (!fs::is_directory(folder, error)) return std::nullopt;
    fs::path real = fs::canonical(folder, error);
    if (error) return std::nullopt;
    return real;
  }};
}

std::expected<std::string, std::string> admit_include_folder(std::string_view folder, const FolderPlace& place,
                                                             const FolderLookup& lookup) {
  if (folder.empty()) return std::unexpected("an empty folder name");
  const fs::path given(folder);
  const fs::path path = (given.is_absolute() ? given : place.working_directory / given).lexically_normal();
  if (has_git_component(path)) return std::unexpected("inside .git");
  const fs::path root = place.repository_root.lexically_normal();
  if (is_under(path, root)) {
    std::string relative = path.lexically_relative(root).generic_string();
    while (relative.size() > 1 && relative.ends_with('/')) relative.pop_back();
    return relative;
  }
  if (!is_system_folder(path))
    return std::unexpected("outside the repository, and not a system folder under /usr or /opt");
  // A symlink under /usr could lead anywhere; the folder it really is must be a system one too.
  const auto real = lookup.real_folder(path);
  if (!real) return std::unexpected("not an existing folder");
  if (!is_system_folder(*real) || has_git_component(*real))
    return std::unexpected("leads outside /usr and /opt through a symbolic link");
  std::string text = path.generic_string();
  while (text.size() > 1 && text.ends_with('/')) text.pop_back();
  return text;
}

}  // namespace kforecast::context
