// SPDX-License-Identifier: Apache-2.0
#include "context/inferred_context.hpp"

#include <algorithm>

#include "context/flag_filter.hpp"
#include "context/system_header_names.hpp"

namespace kforecast::context {
namespace {

std::string parent_folder(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

// The folder a build's -I gave for `include` to find `found`, or nullopt where none was needed
// or the path does not end with the name.
std::optional<std::string> folder_for(const std::string& includer, const kernels::Include& include,
                                      const std::string& found) {
  const std::string& name = include.path;
  if (found != name && !(found.ends_with(name) && found[found.size() - name.size() - 1] == '/')) return std::nullopt;
  std::string folder = found.substr(0, found.size() - name.size());
  if (!folder.empty()) folder.pop_back();                                         // the '/'
  if (folder == parent_folder(includer) && (!include.angled || is_system_header_name(name)))
    return std::nullopt;  // beside its includer, or the toolkit's header of that name
  return folder.empty() ? std::string(".") : folder;
}

// "third_party/cutlass/include" for "third_party/cutlass/include/cutlass/cutlass.h": the deepest
// folder named include above the file, below the root.
std::optional<std::string> vendored_include_folder(const std::string& path) {
  const std::string marker = "/include/";
  const auto at = path.rfind(marker);
  if (at == std::string::npos) return std::nullopt;
  return path.substr(0, at + marker.size() - 1);
}

void add_once(std::vector<std::string>& folders, std::string folder) {
  if (std::ranges::find(folders, folder) == folders.end()) folders.push_back(std::move(folder));
}

}  // namespace

CompileContext infer_context(const kernels::RevisionSources& tree, const std::string& unit,
                             const BuildFileDefines* build) {
  CompileContext context;
  context.origin = ContextOrigin::inferred;
  context.origin_detail = "inferred from the tree";
  context.unit = unit;
  if (!tree.files().contains(unit)) return context;
  if (build != nullptr) {
    context.defines = build->defines;
    // The flags pass the allow-list as a compile database's would; none names a folder.
    const FolderLookup no_folders{[](const std::filesystem::path&) { return std::optional<std::filesystem::path>(); }};
    std::vector<std::string> arguments = build->flags;
    for (const std::string& name : build->undefines) arguments.push_back("-U" + name);
    add_arguments(arguments, FolderPlace{}, no_folders, context);
    if (const std::string summary = build->summary(); !summary.empty()) context.origin_detail += "; " + summary;
  }
  const std::vector<std::string> reached = tree.closure(unit);
  for (const std::string& file : reached)
    for (const kernels::Include& include : tree.scanned(file).includes)
      if (auto found = tree.resolve_include(file, include))
        if (auto folder = folder_for(file, include, *found)) add_once(context.include_dirs, std::move(*folder));
  const bool root_include =
      std::ranges::any_of(tree.files(), [](const auto& entry) { return entry.first.starts_with("include/"); });
  if (root_include) add_once(context.include_dirs, "include");
  for (const std::string& file : reached)
    if (auto folder = vendored_include_folder(file)) add_once(context.include_dirs, std::move(*folder));
  return context;
}

}  // namespace kforecast::context
