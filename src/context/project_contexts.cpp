// SPDX-License-Identifier: Apache-2.0
#include "context/project_contexts.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "context/context_for.hpp"
#include "context/database_location.hpp"

namespace kforecast::context {
namespace {

// The units of `sources` whose includes reach `file`, the files that include it first.
std::vector<std::string> including_units(const kernels::RevisionSources& sources, const std::string& file) {
  std::vector<std::string> direct, further;
  for (const auto& [path, text] : sources.files()) {
    if (!path.ends_with(".cu") || path == file) continue;
    const auto& includes = sources.includes(path);
    if (std::ranges::find(includes, file) != includes.end()) {
      direct.push_back(path);
      continue;
    }
    const auto closure = sources.closure(path);
    if (std::ranges::find(closure, file) != closure.end()) further.push_back(path);
  }
  direct.insert(direct.end(), further.begin(), further.end());
  return direct;
}

}  // namespace

ProjectContexts::ProjectContexts(const std::filesystem::path& root, const std::string& database,
                                 const config::Config& config, const std::string& arch)
    : m_root(root), m_build_defines(read_build_file_defines(repository_file_reader(root), architecture_number(arch))) {
  if (auto loaded = load_compile_database(m_root, database); !loaded)
    m_notes.push_back(fmt::format("compile database not used: {}", loaded.error().message));
  else if (*loaded)
    m_database = std::move(**loaded);
  if (auto configured = read_configured_contexts(config); !configured)
    m_notes.push_back(fmt::format("compile.* settings not used: {}", configured.error().message));
  else
    m_configured = std::move(*configured);
  if (m_database) {
    m_notes.push_back(fmt::format("compile context from {} ({} entries)", m_database->name, m_database->entries.size()));
    for (const auto& note : m_database->notes) m_notes.push_back(note);
  } else if (const std::string summary = m_build_defines.summary(); !summary.empty()) {
    m_notes.push_back(fmt::format("for contexts inferred from the tree, {}", summary));
    for (const auto& note : m_build_defines.notes) m_notes.push_back(note);
  }
}

CompileContext ProjectContexts::context_of(const std::string& unit, const kernels::RevisionSources& sources) const {
  const ContextSources where{m_root, real_folder_lookup(), m_database ? &*m_database : nullptr,
                             m_configured ? &*m_configured : nullptr, &sources, &m_build_defines};
  return context_for(unit, where, [&sources](const std::string& file) { return including_units(sources, file); });
}

}  // namespace kforecast::context
