// SPDX-License-Identifier: Apache-2.0
#include "context/torch_context.hpp"

#include <algorithm>
#include <array>

namespace kforecast::context {
namespace {

void add_folder(CompileContext& context, const std::filesystem::path& folder) {
  if (folder.empty()) return;
  if (std::ranges::find(context.include_dirs, folder.string()) == context.include_dirs.end())
    context.include_dirs.push_back(folder.string());
}

// A define torch's build adds, unless the project's build already gives the name a value.
void add_define(CompileContext& context, std::string name, std::string value = {}) {
  if (std::ranges::find(context.defines, name, &std::pair<std::string, std::string>::first) == context.defines.end())
    context.defines.emplace_back(std::move(name), std::move(value));
}

// A flag's name as nvcc reads it, whatever the spelling: "--expt-extended-lambda" and
// "-extended-lambda" are one flag.
std::string_view flag_name(std::string_view flag) {
  flag.remove_prefix(std::min(flag.find_first_not_of('-'), flag.size()));
  if (flag == "expt-extended-lambda") return "extended-lambda";
  return flag;
}

void add_flag(CompileContext& context, const std::string& flag) {
  if (std::ranges::none_of(context.flags, [&](const std::string& given) { return flag_name(given) == flag_name(flag); }))
    context.flags.push_back(flag);
}

}  // namespace

std::optional<std::string> torch_header_reached(const kernels::RevisionSources& tree, const std::string& unit) {
  static constexpr std::array<std::string_view, 6> torch_folders{"torch/", "ATen/", "c10/", "caffe2/", "pybind11/",
                                                                  "THC/"};
  if (!tree.files().contains(unit)) return std::nullopt;
  for (const std::string& file : tree.closure(unit))
    for (const kernels::Include& include : tree.scanned(file).includes)
      if (std::ranges::any_of(torch_folders, [&](std::string_view folder) { return include.path.starts_with(folder); }) &&
          !tree.resolve_include(file, include))
        return include.path;
  return std::nullopt;
}

void add_torch_build(CompileContext& context, const TorchBuild& build, const TorchHeaders& headers) {
  add_folder(context, headers.include);
  add_folder(context, headers.include / "torch" / "csrc" / "api" / "include");
  add_folder(context, headers.python_include);
  for (const auto& folder : headers.library_includes) add_folder(context, folder);
  add_flag(context, "--expt-relaxed-constexpr");
  if (build.kind == TorchBuild::Kind::setuptools) {
    // The half-precision guards come first in torch's command line, so the project's own -U
    // flags (context.undefines, given after every -D) undo them as they do in its build.
    std::vector<std::pair<std::string, std::string>> guards;
    for (const char* name : {"__CUDA_NO_HALF_OPERATORS__", "__CUDA_NO_HALF_CONVERSIONS__",
                             "__CUDA_NO_BFLOAT16_CONVERSIONS__", "__CUDA_NO_HALF2_OPERATORS__"})
      guards.emplace_back(name, "");
    for (auto& define : context.defines)
      if (std::ranges::find(guards, define.first, &std::pair<std::string, std::string>::first) == guards.end())
        guards.push_back(std::move(define));
    context.defines = std::move(guards);
    add_define(context, "TORCH_API_INCLUDE_EXTENSION_H");
    if (!build.extension_name.empty()) add_define(context, "TORCH_EXTENSION_NAME", build.extension_name);
  } else {
    add_flag(context, "--expt-extended-lambda");
    for (const char* name : {"USE_DISTRIBUTED", "USE_C10D_GLOO", "USE_RPC", "USE_TENSORPIPE"}) add_define(context, name);
  }
  if (context.standard.empty()) context.standard = torch_at_least(headers.version, 2, 10) ? "c++20" : "c++17";
  context.origin_detail += "; PyTorch's build flags (" + headers.found_by + ")";
}

}  // namespace kforecast::context
