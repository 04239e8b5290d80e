// SPDX-License-Identifier: Apache-2.0
#include "base/repository_file.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

namespace kforecast {
namespace {

std::unexpected<RepositoryFileRefusal> refuse(RepositoryFileProblem problem, std::string message) {
  return std::unexpected(RepositoryFileRefusal{problem, std::move(message)});
}

bool inside(const std::filesystem::path& path, const std::filesystem::path& root) {
  auto [root_end, path_at] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  return root_end == root.end();
}

bool names_git_folder(const std::filesystem::path& path) {
  for (const auto& part : path)
    if (part == ".git") return true;
  return false;
}

}  // namespace

std::expected<std::string, RepositoryFileRefusal> read_repository_file(const std::filesystem::path& root,
                                                                       const std::filesystem::path& relative,
                                                                       std::size_t max_bytes) {
  const std::string shown = relative.generic_string();
  if (relative.is_absolute())
    return refuse(RepositoryFileProblem::outside,
                  fmt::format("'{}' is an absolute path, outside the repository", shown));
  std::error_code ec;
  const auto real_root = std::filesystem::canonical(root, ec);
  if (ec)
    return refuse(RepositoryFileProblem::missing, fmt::format("'{}': the repository folder is not readable", shown));
  const auto lexical = (real_root / relative).lexically_normal();
  if (!inside(lexical, real_root))
    return refuse(RepositoryFileProblem::outside, fmt::format("'{}' climbs out of the repository", shown));
  if (!std::filesystem::exists(lexical, ec))
    return refuse(RepositoryFileProblem::missing, fmt::format("'{}' not found", shown));
  // canonical() follows every symlink on the way, so a link anywhere on the path that leads out is seen.
  const auto real = std::filesystem::canonical(lexical, ec);
  if (ec || !inside(real, real_root))
    return refuse(
        RepositoryFileProblem::outside,
        fmt::format("'{}' is a symbolic link (or passes through one) that leads out of the repository", shown));
  if (names_git_folder(real.lexically_relative(real_root)) || names_git_folder(lexical.lexically_relative(real_root)))
    return refuse(RepositoryFileProblem::git_internal, fmt::format("'{}' is inside .git, which is never read", shown));
  if (!std::filesystem::is_regular_file(real, ec))
    return refuse(RepositoryFileProblem::missing, fmt::format("'{}' is not a regular file", shown));
  const auto size = std::filesystem::file_size(real, ec);
  if (ec) return refuse(RepositoryFileProblem::missing, fmt::format("'{}' is not readable", shown));
  if (size > max_bytes)
    return refuse(RepositoryFileProblem::too_large,
                  fmt::format("'{}' is {} bytes, above the limit of {}", shown, size, max_bytes));
  std::ifstream in(real, std::ios::binary);
  if (!in) return refuse(RepositoryFileProblem::missing, fmt::format("'{}' is not readable", shown));
  std::string bytes;
  bytes.resize(size);
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return bytes;
}

}  // namespace kforecast
