// SPDX-License-Identifier: Apache-2.0
#pragma once

// Compiled PTX kept on disk, keyed by everything that determines it (source, headers, options,
// target, NVRTC version), so re-running the same pull request compiles nothing. Entries are
// written to a temporary name and renamed, so concurrent runs never read a torn file; a cache
// that cannot be written is skipped, never an error.

#include <filesystem>
#include <optional>
#include <string>

#include "base/environment.hpp"
#include "cuda/compiler.hpp"

namespace kforecast::policy {

class PtxCache {
 public:
  explicit PtxCache(std::filesystem::path directory) : m_directory(std::move(directory)) {}

  // The key of a request, as 32 hex digits.
  static std::string key(const cuda::CompileRequest& request, const cuda::NvrtcVersion& version);

  std::optional<std::string> find(const std::string& key) const;
  void store(const std::string& key, const std::string& ptx) const;

  const std::filesystem::path& directory() const { return m_directory; }

 private:
  std::filesystem::path m_directory;
};

// $XDG_CACHE_HOME/kforecast/ptx, else $HOME/.cache/kforecast/ptx, else nullopt.
std::optional<std::filesystem::path> default_ptx_cache_directory(const EnvLookup& env);

}  // namespace kforecast::policy
