// SPDX-License-Identifier: Apache-2.0
#pragma once

// A project's compile contexts, read once per run (context_for.hpp): the repository's
// compile_commands.json (compile.database, else found at the root or under build*/), the config's
// compile.* keys, and the build files' defines for contexts inferred from the tree; for a PyTorch
// extension, the flags torch's build adds (torch_context.hpp), with the headers of the torch the
// configured Python has installed (torch_headers.hpp). What could not be read is a note, and
// units then get what is left. `pr` builds its units with these
// contexts, and `lint` compiles its files with them.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "context/build_file_defines.hpp"
#include "context/compile_context.hpp"
#include "context/compile_database.hpp"
#include "context/configured_context.hpp"
#include "context/torch_headers.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::context {

class ProjectContexts {
 public:
  // `database`: compile.database ("": search). `arch` ("sm_90") is what a define computed from
  // the GPU takes where the build files give one.
  ProjectContexts(const std::filesystem::path& root, const std::string& database, const config::Config& config,
                  const std::string& arch);
  ProjectContexts(const ProjectContexts&) = delete;
  ProjectContexts& operator=(const ProjectContexts&) = delete;

  // The context of `unit` (repository-relative) as `sources` holds the revision: a header takes
  // the context of the unit nearest it that includes it.
  CompileContext context_of(const std::string& unit, const kernels::RevisionSources& sources) const;
  const std::vector<std::string>& notes() const { return m_notes; }
  // Why a PyTorch extension's units that include torch's headers cannot be compiled here, with
  // what to do ("" where the project is none, or its headers were found): said once, at the top.
  const std::string& torch_missing() const { return m_torch_missing; }
  bool torch_found() const { return m_torch.has_value(); }
  const std::filesystem::path& root() const { return m_root; }

 private:
  void find_torch(const config::Config& config);

  std::filesystem::path m_root;
  std::optional<CompileDatabase> m_database;
  std::optional<ConfiguredContexts> m_configured;
  BuildFileDefines m_build_defines;  // for inferred contexts
  std::optional<TorchHeaders> m_torch;
  std::string m_torch_missing;
  std::vector<std::string> m_notes;
};

}  // namespace kforecast::context
