// SPDX-License-Identifier: Apache-2.0
#pragma once

// The compile context each unit is built with (context/context_for.hpp): the repository's
// compile_commands.json, else the config's compile.* keys, else inferred from the tree. Read once
// per run; what could not be read is a note, and the units are then built with what is left.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "context/project_contexts.hpp"
#include "builds/unit_builds.hpp"

namespace kforecast::builds {

// compile.* and cuda.nvcc: building the units a change affects as the project does
// (builds/unit_builds.hpp, builds/unit_context.hpp).
struct CompileSettings {
  std::filesystem::path repository_root;  // where compile_commands.json is looked for
  std::string database;                   // compile.database; "": search the root and build*/
  std::chrono::seconds budget{600};       // compile.budget_seconds
  std::size_t jobs = 0;                   // compile.jobs; 0: one per core
  std::size_t max_units = 32;             // compile.max_units
  std::string nvcc;                       // cuda.nvcc; "": search
};


class UnitContexts {
 public:
  // `arch` ("sm_90") is what a define computed from the GPU takes where the build files give one.
  UnitContexts(const CompileSettings& settings, const config::Config& config, const std::string& arch);
  UnitContexts(const UnitContexts&) = delete;
  UnitContexts& operator=(const UnitContexts&) = delete;

  // The lookup unit_builds calls; it refers to this object, which must outlive it.
  UnitContextLookup lookup() const;
  const std::vector<std::string>& notes() const { return m_contexts.notes(); }
  const std::string& torch_missing() const { return m_contexts.torch_missing(); }

 private:
  context::ProjectContexts m_contexts;
};

}  // namespace kforecast::builds
