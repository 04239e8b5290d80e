// SPDX-License-Identifier: Apache-2.0
#pragma once

// The embedded forecaster's compiler facts kept on disk, one small text file per kernel text, so
// that a re-run of `kforecast pr` (or eval, or lint) asks NVRTC nothing for a text it has seen.
// The key covers everything that determines the facts: the compile request (the exact text,
// options, target), the kernel's name, NVRTC's version and the entry format's version.
// Entries are written to a temporary name and renamed, so concurrent runs never read a torn
// file; an entry that cannot be read (corrupt, truncated, another format) is a miss and is
// written again; a cache that cannot be written is skipped, never an error.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "cuda/compiler.hpp"
#include "embedded/kernel_features.hpp"

namespace kforecast::embedded {

class FactsCache {
 public:
  explicit FactsCache(std::filesystem::path directory) : m_directory(std::move(directory)) {}

  // The key, as 32 hex digits, of the facts `request` gives for `kernel` with NVRTC `version`.
  static std::string key(const cuda::CompileRequest& request, std::string_view kernel,
                         const cuda::NvrtcVersion& version);

  // The facts, or the compile error NVRTC gave for the same request (a source that does not
  // compile does not start compiling on a re-run); nullopt on a miss.
  std::optional<Result<CompilerFacts>> find(const std::string& key) const;
  void store(const std::string& key, const CompilerFacts& facts) const;
  void store_failure(const std::string& key, std::string_view message) const;

  std::filesystem::path entry_path(const std::string& key) const { return m_directory / (key + ".facts"); }
  const std::filesystem::path& directory() const { return m_directory; }

 private:
  void write_entry(const std::string& key, const std::string& text) const;
  std::filesystem::path m_directory;
};

// The entry format ("kforecast-facts 2", one "field value" per line, "end" last). The reader is
// given untrusted bytes (a file anyone could have edited; a fuzz target): anything it does not
// fully understand is nullopt.
std::string write_facts_entry(const CompilerFacts& facts);
std::string write_facts_failure(std::string_view message);
std::optional<Result<CompilerFacts>> read_facts_entry(std::string_view text);

}  // namespace kforecast::embedded
