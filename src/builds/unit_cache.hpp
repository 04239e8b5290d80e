// SPDX-License-Identifier: Apache-2.0
#pragma once

// Units compiled by earlier runs, answered without running the compiler or its preprocessor (what
// ccache calls direct mode). An entry is found by the unit's key (the compiler and its version,
// the architecture, the context's arguments, the unit's path and text) and holds the project
// headers the compile read, each with a hash of its text: it answers only while every one of them
// still has that text at the revision asked about. A unit that failed is kept too (its log), with
// the headers kforecast itself resolved for it, since a failed compile writes no dependency file.
// Toolkit and system headers are covered by the compiler's version, not hashed one by one.
//
// The hash is not cryptographic: a cache shared between pull requests of people who do not trust
// each other could be poisoned by a crafted collision. CI runners start empty unless a workflow
// restores the cache; docs/compile-context.md says so.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/environment.hpp"
#include "cuda/nvcc_unit.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::builds {

struct CachedUnit {
  bool compiled = false;               // false: the log is the compile error
  std::vector<std::byte> cubin;
  std::string log;
  std::vector<std::string> headers;    // project headers the answer depends on
};

class UnitCache {
 public:
  explicit UnitCache(std::filesystem::path directory) : m_directory(std::move(directory)) {}

  // Everything but the headers that decides the compile's answer.
  static std::string unit_key(const std::string& compiler, const cuda::UnitBuildRequest& request,
                              std::string_view unit_text);

  // The entry for `unit_key` whose every header has the same text in `files`, if any.
  std::optional<CachedUnit> find(const std::string& unit_key, const kernels::SourceFiles& files) const;

  // Keeps `unit` for `unit_key`, its headers hashed as `files` has them. Best effort: a cache
  // that cannot be written only makes the next run slower.
  void store(const std::string& unit_key, const CachedUnit& unit, const kernels::SourceFiles& files) const;

 private:
  std::filesystem::path m_directory;
};

// $XDG_CACHE_HOME/kforecast/units, else ~/.cache/kforecast/units; nullopt where neither is set.
std::optional<std::filesystem::path> default_unit_cache_directory(const EnvLookup& env);

}  // namespace kforecast::builds
