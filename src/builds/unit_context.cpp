// SPDX-License-Identifier: Apache-2.0
#include "builds/unit_context.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kforecast::builds {

UnitContexts::UnitContexts(const CompileSettings& settings, const config::Config& config, const std::string& arch)
    : m_contexts(settings.repository_root, settings.database, config, arch) {}

UnitContextLookup UnitContexts::lookup() const {
  return [this](const std::string& unit, const kernels::RevisionSources& sources) {
    const auto found = m_contexts.context_of(unit, sources);
    UnitContext context{context::nvcc_arguments(found), found.origin_detail, found.unavailable};
    if (found.origin == context::ContextOrigin::inferred)
      context.origin += " (flags guessed: give kforecast the project's compile_commands.json for its own)";
    if (!found.refused.empty()) context.origin += fmt::format("; left out: {}", fmt::join(found.refused, ", "));
    return context;
  };
}

}  // namespace kforecast::builds
