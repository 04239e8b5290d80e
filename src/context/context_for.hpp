// SPDX-License-Identifier: Apache-2.0
#pragma once

// "Build like the project": the compile context of a CUDA file, from the first source that has
// one, in this order:
//   1. the compile database's entry for the file; for a file without one (a header, a .cu built
//      only by #include), the entry of the first unit that includes it and has one;
//   2. the config: compile.* and the first [[compile.paths]] table whose glob matches the file;
//   3. inference from the tree.
// The first source that gives a context gives all of it: the config does not add to a database
// entry, so that a context is always one the project's build (or its config) stated whole.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "context/build_file_defines.hpp"
#include "context/compile_context.hpp"
#include "context/compile_database.hpp"
#include "context/configured_context.hpp"
#include "context/include_folder.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::context {

struct ContextSources {
  std::filesystem::path repository_root;  // absolute
  FolderLookup folders = real_folder_lookup();
  const CompileDatabase* database = nullptr;       // null where none was found
  const ConfiguredContexts* configured = nullptr;  // null where the config was not read
  const kernels::RevisionSources* tree = nullptr;  // null: no inference
  const BuildFileDefines* build_defines = nullptr;  // defines for inference; null: none
};

// The translation units that include `file`, directly or not, in the order they are to be tried
// (nearest first). The caller has the include graph.
using IncludingUnits = std::function<std::vector<std::string>(const std::string& file)>;

// The context of `file` (repository-relative).
CompileContext context_for(const std::string& file, const ContextSources& sources, const IncludingUnits& includers);

// The context a database entry gives: its arguments, the compiler itself (and a launcher such as
// ccache before it) left out, through the allow-list.
CompileContext database_context(const DatabaseEntry& entry, const ContextSources& sources);

}  // namespace kforecast::context
