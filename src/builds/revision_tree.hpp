// SPDX-License-Identifier: Apache-2.0
#pragma once

// One revision's CUDA sources written to a scratch folder, for a compiler that reads files (nvcc)
// rather than text in memory (NVRTC). Only the files kforecast read from git are there (every
// CUDA source and header it scanned), so a unit that needs anything else (a generated header, a
// submodule's) fails with "missing <header>", which builds/compile_failure.hpp calls missing context.

#include <filesystem>
#include <string_view>
#include <utility>

#include "base/error.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::builds {

class RevisionTree {
 public:
  // Writes `files` under a fresh folder named after `label` ("base", "head"). Paths that are not
  // plain relative paths inside the tree are skipped (git never makes them; a patch might).
  static Result<RevisionTree> write(const kernels::SourceFiles& files, std::string_view label);

  RevisionTree(RevisionTree&& other) noexcept : m_path(std::exchange(other.m_path, {})) {}
  RevisionTree& operator=(RevisionTree&&) = delete;
  RevisionTree(const RevisionTree&) = delete;
  ~RevisionTree();

  const std::filesystem::path& path() const { return m_path; }

 private:
  explicit RevisionTree(std::filesystem::path path) : m_path(std::move(path)) {}
  std::filesystem::path m_path;
};

}  // namespace kforecast::builds
