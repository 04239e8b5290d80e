// SPDX-License-Identifier: Apache-2.0
#include "context/context_for.hpp"

#include <algorithm>
#include <array>
#include <span>

#include <fmt/format.h>

#include "context/flag_filter.hpp"
#include "context/inferred_context.hpp"

namespace kforecast::context {
namespace {

// Programs a build puts before the compiler, which pass the rest of the line on to it.
constexpr std::array<std::string_view, 4> compiler_launchers{"ccache", "sccache", "distcc", "buildcache"};

std::size_t compiler_words(const std::vector<std::string>& arguments) {
  if (arguments.size() > 1) {
    const std::string program = std::filesystem::path(arguments.front()).filename().string();
    if (std::ranges::find(compiler_launchers, program) != compiler_launchers.end()) return 2;
  }
  return 1;
}

std::optional<CompileContext> from_database(const std::string& file, const ContextSources& sources,
                                            const IncludingUnits& includers) {
  if (sources.database == nullptr) return std::nullopt;
  const auto& entries = sources.database->entries;
  if (auto own = entries.find(file); own != entries.end()) {
    CompileContext context = database_context(own->second, sources);
    context.unit = file;
    context.origin_detail = fmt::format("{} (entry for {})", sources.database->name, file);
    return context;
  }
  if (!includers) return std::nullopt;
  for (const std::string& unit : includers(file))
    if (auto entry = entries.find(unit); entry != entries.end()) {
      CompileContext context = database_context(entry->second, sources);
      context.unit = unit;
      context.origin_detail = fmt::format("{} (entry for {}, which includes {})", sources.database->name, unit, file);
      return context;
    }
  return std::nullopt;
}

}  // namespace

CompileContext database_context(const DatabaseEntry& entry, const ContextSources& sources) {
  CompileContext context;
  context.origin = ContextOrigin::compile_database;
  const std::span<const std::string> arguments(entry.arguments);
  add_arguments(arguments.subspan(std::min(compiler_words(entry.arguments), arguments.size())),
                FolderPlace{sources.repository_root, entry.directory}, sources.folders, context);
  return context;
}

CompileContext context_for(const std::string& file, const ContextSources& sources, const IncludingUnits& includers) {
  if (auto context = from_database(file, sources, includers)) return std::move(*context);
  if (sources.configured != nullptr)
    if (auto context = configured_context(
            *sources.configured, file, FolderPlace{sources.repository_root, sources.repository_root}, sources.folders))
      return std::move(*context);
  if (sources.tree != nullptr) return infer_context(*sources.tree, file, sources.build_defines);
  CompileContext context;
  context.unit = file;
  context.origin_detail = "inferred from the tree";
  return context;
}

}  // namespace kforecast::context
