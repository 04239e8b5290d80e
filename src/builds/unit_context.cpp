// SPDX-License-Identifier: Apache-2.0
#include "builds/unit_context.hpp"

#include <fmt/format.h>

#include "context/context_for.hpp"
#include "context/database_location.hpp"

namespace kforecast::builds {
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

UnitContexts::UnitContexts(const CompileSettings& settings, const config::Config& config, const std::string& arch)
    : m_root(settings.repository_root),
      m_build_defines(context::read_build_file_defines(context::repository_file_reader(m_root),
                                                       context::architecture_number(arch))) {
  if (auto database = context::load_compile_database(m_root, settings.database); !database)
    m_notes.push_back(fmt::format("compile database not used: {}", database.error().message));
  else if (*database)
    m_database = std::move(**database);
  if (auto configured = context::read_configured_contexts(config); !configured)
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

UnitContextLookup UnitContexts::lookup() const {
  return [this](const std::string& unit, const kernels::RevisionSources& sources) {
    const context::ContextSources where{m_root, context::real_folder_lookup(), m_database ? &*m_database : nullptr,
                                        m_configured ? &*m_configured : nullptr, &sources,
                                        &m_build_defines};
    const auto found = context::context_for(
        unit, where, [&sources](const std::string& file) { return including_units(sources, file); });
    UnitContext context{context::nvcc_arguments(found), found.origin_detail};
    if (found.origin == context::ContextOrigin::inferred)
      context.origin += " (flags guessed: give kforecast the project's compile_commands.json for its own)";
    if (!found.refused.empty()) context.origin += fmt::format("; left out: {}", fmt::join(found.refused, ", "));
    return context;
  };
}

}  // namespace kforecast::builds
