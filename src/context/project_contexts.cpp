// SPDX-License-Identifier: Apache-2.0
#include "context/project_contexts.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "context/context_for.hpp"
#include "context/database_location.hpp"
#include "context/torch_context.hpp"

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
  if (!m_database && m_build_defines.torch) find_torch(config);
}

void ProjectContexts::find_torch(const config::Config& config) {
  const TorchBuild& build = *m_build_defines.torch;
  const std::string what = build.kind == TorchBuild::Kind::setuptools
                               ? fmt::format("{} builds a PyTorch CUDAExtension", build.file)
                               : fmt::format("{} builds with find_package(Torch)", build.file);
  auto found = find_torch_headers({config.string_value("compile.python"), config.string_value("compile.torch_include")});
  if (!found) {
    m_torch_missing = fmt::format("PyTorch's headers not found ({}): {}", what, found.error());
    return;
  }
  m_torch = std::move(*found);
  m_notes.push_back(fmt::format("PyTorch extension ({}): units compiled with torch's build flags and the headers of {}{}", what,
                                m_torch->found_by,
                                m_torch->python_include.empty()
                                    ? " (Python.h not found: install the Python development package, python3-dev)"
                                    : ""));
}

CompileContext ProjectContexts::context_of(const std::string& unit, const kernels::RevisionSources& sources) const {
  const ContextSources where{m_root, real_folder_lookup(), m_database ? &*m_database : nullptr,
                             m_configured ? &*m_configured : nullptr, &sources, &m_build_defines};
  CompileContext context =
      context_for(unit, where, [&sources](const std::string& file) { return including_units(sources, file); });
  if (context.origin != ContextOrigin::inferred || !m_build_defines.torch) return context;
  if (m_torch)
    add_torch_build(context, *m_build_defines.torch, *m_torch);
  else if (const auto header = torch_header_reached(sources, context.unit))
    context.unavailable = fmt::format("it includes <{}>, and PyTorch's headers were not found (the run's warning says how to add them)", *header);
  return context;
}

}  // namespace kforecast::context
