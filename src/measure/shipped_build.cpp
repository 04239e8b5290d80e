// SPDX-License-Identifier: Apache-2.0
#include "measure/shipped_build.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "base/json_string.hpp"
#include "cubin/cubin_kernel.hpp"
#include "builds/unit_code_compare.hpp"

namespace kforecast::measure {
namespace {

namespace fs = std::filesystem;

std::string strings_json(const std::vector<std::string>& values) {
  std::string out = "[";
  for (const auto& value : values) out += (out.size() > 1 ? ", " : "") + json_string(value);
  return out + "]";
}

// "tiled< 64 >" and "tiled<64>" name the same instantiation.
std::string without_spaces(std::string_view text) {
  std::string out;
  for (char c : text)
    if (c != ' ') out.push_back(c);
  return out;
}

}  // namespace

std::string project_build_json(const ProjectBuild& build) {
  return fmt::format(
      "{{\"reference_tree\": {}, \"candidate_tree\": {}, \"reference_arguments\": {}, \"candidate_arguments\": {}}}\n",
      json_string(build.reference_tree), json_string(build.candidate_tree), strings_json(build.reference_arguments),
      strings_json(build.candidate_arguments));
}

Result<ProjectBuild> parse_project_build(std::string_view json) {
  const auto document = json_document::parse(json);
  if (!document) return usage_error("the project build file is not JSON");
  const Json& root = *document;
  ProjectBuild build;
  const auto text = [&](const char* key, std::string& out) -> bool {
    const Json* value = json_document::find(root, key);
    if (value == nullptr || !value->is_string()) return false;
    out = value->get<std::string>();
    return true;
  };
  const auto list = [&](const char* key, std::vector<std::string>& out) -> bool {
    const Json* array = json_document::find(root, key);
    if (array == nullptr || !array->is_array()) return false;
    for (const Json& element : *array) {
      if (!element.is_string()) return false;
      out.push_back(element.get<std::string>());
    }
    return true;
  };
  if (!text("reference_tree", build.reference_tree) || !text("candidate_tree", build.candidate_tree) ||
      !list("reference_arguments", build.reference_arguments) || !list("candidate_arguments", build.candidate_arguments))
    return usage_error(
        "the project build file needs reference_tree and candidate_tree (strings) and reference_arguments and "
        "candidate_arguments (arrays of strings)");
  return build;
}

std::string measuring_unit_text(const std::string& file, const std::string& name_expression) {
  // A kernel template's instantiation is named by taking its address; `auto` takes whatever its
  // parameters are. A file-scope static keeps it in this unit only.
  return fmt::format("#include \"{}\"\nstatic const auto kforecast_measured_kernel = &{};\n", file, name_expression);
}

Result<ShippedKernel> build_shipped_kernel(const cuda::UnitCompiler& compiler, const std::string& tree,
                                           const std::string& file, const bench::PreparedKernel& kernel,
                                           const std::vector<std::string>& arguments, const std::string& arch) {
  // The unit sits at the tree's root, so the file's own path includes it and the context's
  // relative -I folders mean what they mean in the project.
  // A name of this build's own: the same kernel may be built twice at once in one tree (both sides
  // of an A/A pair, a kernel two pairs of a batch share), and each compile needs its unit until
  // it ends.
  static std::atomic<unsigned> builds{0};
  const std::string unit = fmt::format(".kforecast-measure-{}-{}.cu", ::getpid(), builds.fetch_add(1));
  const fs::path unit_path = fs::path(tree) / unit;
  {
    std::ofstream out(unit_path);
    out << measuring_unit_text(file, kernel.name_expression);
    if (!out) return fail(ExitCode::could_not_run, fmt::format("cannot write {}", unit_path.string()));
  }
  auto built = compiler.compile({tree, unit, arguments, arch});
  std::error_code ec;
  fs::remove(unit_path, ec);
  if (!built) return std::unexpected(built.error());
  auto kernels = cubin::read_cubin_kernels(built->cubin);
  if (!kernels) return std::unexpected(kernels.error());
  const std::string wanted = without_spaces(builds::comparable_kernel_name(kernel.name_expression));
  const cubin::CubinKernel* found = nullptr;
  for (const auto& candidate : *kernels) {
    const std::string name = without_spaces(builds::comparable_kernel_name(candidate.name));
    const std::string with_arguments = without_spaces(builds::comparable_kernel_name(candidate.name + candidate.template_arguments));
    if (with_arguments == wanted || (candidate.template_arguments.empty() && name == wanted)) {
      found = &candidate;
      break;
    }
  }
  if (found == nullptr)
    return fail(ExitCode::could_not_run,
                fmt::format("{} built {} but its cubin holds no kernel named {}", compiler.name(), file,
                            kernel.name_expression));
  std::string flags;
  for (const auto& argument : arguments) flags += " " + argument;
  return ShippedKernel{{kernel.label, std::move(built->cubin), found->symbol, kernel.function.parameters},
                       fmt::format("{} for {}:{}", compiler.name(), arch, flags.empty() ? " no project flags" : flags)};
}

}  // namespace kforecast::measure
