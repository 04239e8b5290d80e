// SPDX-License-Identifier: Apache-2.0
#include "builds/revision_tree.hpp"

#include <stdlib.h>

#include <fstream>

#include <fmt/format.h>

namespace kforecast::builds {
namespace {

namespace fs = std::filesystem;

bool plain_relative(const std::string& path) {
  if (path.empty() || path.starts_with('/')) return false;
  for (const auto& part : fs::path(path))
    if (part == ".." || part == "." || part.empty()) return false;
  return true;
}

}  // namespace

Result<RevisionTree> RevisionTree::write(const kernels::SourceFiles& files, std::string_view label) {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / fmt::format("kforecast-{}-XXXXXX", label)).string();
  if (ec) pattern = fmt::format("/tmp/kforecast-{}-XXXXXX", label);
  if (::mkdtemp(pattern.data()) == nullptr)
    return fail(ExitCode::could_not_run, fmt::format("cannot create a folder for the {} revision's sources", label));
  RevisionTree tree{fs::path(pattern)};
  for (const auto& [path, text] : files) {
    if (!plain_relative(path)) continue;
    const fs::path target = tree.m_path / path;
    fs::create_directories(target.parent_path(), ec);
    std::ofstream out(target, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out)
      return fail(ExitCode::could_not_run,
                  fmt::format("cannot write the {} revision's {} to {}", label, path, tree.m_path.string()));
  }
  return tree;
}

RevisionTree::~RevisionTree() {
  std::error_code ec;
  if (!m_path.empty()) fs::remove_all(m_path, ec);
}

}  // namespace kforecast::builds
