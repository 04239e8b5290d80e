// SPDX-License-Identifier: Apache-2.0
#include "context/compile_context.hpp"

#include <fmt/format.h>

#include "cuda/include_confinement.hpp"

namespace kforecast::context {
namespace {

std::string define_argument(const std::pair<std::string, std::string>& define) {
  return define.second.empty() ? fmt::format("-D{}", define.first)
                               : fmt::format("-D{}={}", define.first, define.second);
}

// Definitions, the standard and the flags, the part both compilers take.
std::vector<std::string> language_arguments(const CompileContext& context) {
  std::vector<std::string> arguments;
  for (const auto& define : context.defines) arguments.push_back(define_argument(define));
  for (const auto& name : context.undefines) arguments.push_back(fmt::format("-U{}", name));
  if (!context.standard.empty()) arguments.push_back(fmt::format("-std={}", context.standard));
  return arguments;
}

}  // namespace

std::string_view origin_name(ContextOrigin origin) {
  switch (origin) {
    case ContextOrigin::compile_database:
      return "compile database";
    case ContextOrigin::config:
      return "config";
    case ContextOrigin::inferred:
      return "inferred";
  }
  return "unknown";
}

std::vector<std::string> nvcc_arguments(const CompileContext& context) {
  std::vector<std::string> arguments;
  for (const auto& folder : context.include_dirs) arguments.push_back(fmt::format("-I{}", folder));
  for (auto& argument : language_arguments(context)) arguments.push_back(std::move(argument));
  arguments.insert(arguments.end(), context.flags.begin(), context.flags.end());
  return arguments;
}

std::vector<std::string> nvrtc_options(const CompileContext& context) {
  std::vector<std::string> options;
  for (auto& argument : language_arguments(context))
    if (cuda::allowed_compile_option(argument)) options.push_back(std::move(argument));
  for (const auto& flag : context.flags)
    if (cuda::allowed_compile_option(flag)) options.push_back(flag);
  return options;
}

}  // namespace kforecast::context
