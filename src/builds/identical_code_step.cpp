// SPDX-License-Identifier: Apache-2.0
#include "builds/identical_code_step.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "builds/compile_failure.hpp"
#include "cuda/library_search.hpp"
#include "kernels/device_source.hpp"

namespace kforecast::builds {
namespace {

using kernels::RevisionSources;

}  // namespace

// The unit for `path` at one revision: its device-only text, and every local header it reaches
// under each spelling its includers use.
policy::CompileUnit compile_unit(const RevisionSources& sources, const std::string& path,
                                 const IdenticalCodeContext& context) {
  // An angled include stays where the toolkit has it or the repository does (<mylib/util.h> of
  // the project's include folder); any other is blanked, since the compiler cannot open it.
  auto device_text = [&](const std::string& file) {
    const auto available = [&](std::string_view header) {
      return cuda::toolkit_has_header(context.cuda_include_dir, header) ||
             sources.resolve_include(file, {std::string(header), true, 0}).has_value();
    };
    return kernels::device_source(sources.files().at(file), sources.scanned(file), available).text;
  };
  // Host functions that device code names stay in the unit; -default-device compiles them as
  // device functions.
  policy::CompileUnit unit{path, device_text(path), {}, {}, {"-default-device"}};
  unit.include_dirs = cuda::toolkit_header_dirs(context.cuda_include_dir);
  // Each local header under the name its includer wrote, which is the name the compiler looks for.
  std::map<std::string, bool> named;
  for (const auto& file : sources.closure(path))
    for (const auto& include : sources.scanned(file).includes)
      if (auto header = sources.resolve_include(file, include); header && named.emplace(include.path, true).second)
        unit.headers.push_back({include.path, device_text(*header)});
  return unit;
}

namespace {

// The NVRTC name expressions for a kernel: its qualified name, or each explicit instantiation of
// a template ("tiled<64>"), qualified the same way. `Naming::by_type` spells a plain kernel as a
// cast to its pointer type, for names that CUDA's headers overload (norm, erf, ...).
enum class Naming { plain, by_type };

std::vector<std::string> name_expressions(const kernels::Function& function, Naming naming) {
  if (function.template_parameters.empty()) {
    if (naming == Naming::plain) return {function.qualified_name};
    std::string types;
    for (const auto& parameter : function.parameters) types += (types.empty() ? "" : ", ") + parameter.type;
    return {fmt::format("static_cast<void (*)({})>({})", types, function.qualified_name)};
  }
  const auto scope_end = function.qualified_name.rfind("::");
  const std::string scope = scope_end == std::string::npos ? "" : function.qualified_name.substr(0, scope_end + 2);
  std::vector<std::string> expressions;
  for (const auto& instantiation : function.instantiations) {
    const auto open = instantiation.find('<');
    if (open == std::string::npos) continue;  // deduced arguments: no expression to name it by
    expressions.push_back(scope + function.name + instantiation.substr(open, instantiation.rfind('>') - open + 1));
  }
  return expressions;
}

// Whether a failed compile failed only at naming the kernel (NVRTC reports name lookups from a
// pseudo-file "__nv_name_map"): then another spelling may work. Any error in the sources
// themselves means the unit does not compile, whatever the name.
bool failed_only_at_naming(const std::string& detail) {
  if (detail.find("__nv_name_map") == std::string::npos) return false;
  for (std::size_t at = detail.find("): error"); at != std::string::npos; at = detail.find("): error", at + 1)) {
    const std::size_t line_start = detail.rfind('\n', at);
    const std::string_view line = std::string_view(detail).substr(line_start == std::string::npos ? 0 : line_start + 1);
    if (!line.starts_with("__nv_name_map(")) return false;
  }
  return true;
}

// A kernel's base and head name expressions, paired: its one plain or typed name, or its explicit
// instantiations matched by their template arguments (tiled<64> with tiled<64>).
struct NamedKernel {
  std::vector<policy::KernelToCompare> pairs;
  std::vector<std::string> display;  // what the report calls each pair
};

NamedKernel pair_names(const kernels::Function& base_function, const kernels::Function& head_function, Naming naming) {
  NamedKernel named;
  const auto base_names = name_expressions(base_function, naming);
  for (const auto& head_name : name_expressions(head_function, naming)) {
    const bool is_template = !head_function.template_parameters.empty();
    const std::string arguments = is_template ? head_name.substr(head_name.find('<')) : "";
    const auto base_match = std::ranges::find_if(base_names, [&](const std::string& name) {
      return is_template ? name.ends_with(arguments) : base_names.size() == 1;
    });
    if (base_match == base_names.end()) continue;
    named.pairs.push_back({*base_match, head_name});
    named.display.push_back(is_template ? head_name : head_function.qualified_name);
  }
  return named;
}

// The kernels of one (base file, head file) pair, compiled together: one unit per side.
struct UnitGroup {
  std::string base_file, head_file;
  std::vector<std::size_t> kernels;  // indices into the changed kernels
};

}  // namespace

std::vector<KernelCodeVerdict> compare_changed_kernels(const RevisionSources& base, const RevisionSources& head,
                                                       const std::vector<kernel_changes::ChangedKernel>& changed,
                                                       const IdenticalCodeContext& context) {
  std::vector<KernelCodeVerdict> verdicts(changed.size());
  auto base_function = [&](std::size_t i) -> const kernels::Function& {
    return base.scanned(changed[i].base->file).functions[changed[i].base->function_index];
  };
  auto head_function = [&](std::size_t i) -> const kernels::Function& {
    return head.scanned(changed[i].head->file).functions[changed[i].head->function_index];
  };
  std::vector<UnitGroup> groups;
  for (std::size_t i = 0; i < changed.size(); ++i) {
    if (!changed[i].base || !changed[i].head) continue;
    if (pair_names(base_function(i), head_function(i), Naming::plain).pairs.empty()) {
      verdicts[i].note =
          head_function(i).template_parameters.empty()
              ? "its name could not be given to NVRTC: code not compared"
              : "a template without the same explicit instantiations at both revisions: code not compared";
      continue;
    }
    auto group = std::ranges::find_if(groups, [&](const UnitGroup& g) {
      return g.base_file == changed[i].base->file && g.head_file == changed[i].head->file;
    });
    if (group == groups.end()) group = groups.insert(groups.end(), {changed[i].base->file, changed[i].head->file, {}});
    group->kernels.push_back(i);
  }

  for (std::size_t g = 0; g < groups.size(); ++g) {
    const UnitGroup& group = groups[g];
    if (context.progress) context.progress(g, groups.size());
    if (context.deadline != nullptr && context.deadline->passed()) {
      for (std::size_t i : group.kernels) verdicts[i].note = context.deadline->reason() + ": code not compared";
      continue;
    }
    const auto base_unit = compile_unit(base, group.base_file, context);
    const auto head_unit = compile_unit(head, group.head_file, context);
    for (Naming naming : {Naming::plain, Naming::by_type}) {
      // Every kernel of the unit in one compile per side; results come back in pair order.
      std::vector<policy::KernelToCompare> pairs;
      std::vector<std::pair<std::size_t, std::size_t>> owner;  // (kernel, first pair) per kernel
      for (std::size_t i : group.kernels) {
        NamedKernel named = pair_names(base_function(i), head_function(i), naming);
        owner.push_back({i, pairs.size()});
        verdicts[i].names = std::move(named.display);
        pairs.insert(pairs.end(), named.pairs.begin(), named.pairs.end());
      }
      const auto results = policy::compare_kernel_code(context.compiler, base_unit, head_unit, pairs,
                                                       {.arch = context.arch, .cache = context.cache});
      // NVRTC could not resolve a name (CUDA's headers overload it): try the typed spelling.
      const bool unnamed =
          std::ranges::any_of(results, [](const auto& result) { return failed_only_at_naming(result.detail); });
      if (unnamed && naming == Naming::plain) continue;
      for (std::size_t k = 0; k < owner.size(); ++k) {
        const auto [i, first] = owner[k];
        const std::size_t last = k + 1 < owner.size() ? owner[k + 1].second : results.size();
        if (unnamed) {
          verdicts[i].note = "its name could not be given to NVRTC: code not compared";
          continue;
        }
        policy::CodeComparison outcome = policy::CodeComparison::identical;
        for (std::size_t r = first; r < last; ++r) {
          if (results[r].comparison == policy::CodeComparison::identical) continue;
          outcome = results[r].comparison;
          if (!results[r].detail.empty()) {
            verdicts[i].note = first_lines(results[r].detail, 6);
            verdicts[i].missing_context = missing_context(results[r].detail).value_or("");
          }
          if (outcome != policy::CodeComparison::different) break;
        }
        verdicts[i].outcome = outcome;
      }
      break;
    }
  }
  if (context.progress && !groups.empty()) context.progress(groups.size(), groups.size());
  return verdicts;
}

}  // namespace kforecast::builds
