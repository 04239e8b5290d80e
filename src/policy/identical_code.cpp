// SPDX-License-Identifier: Apache-2.0
#include "policy/identical_code.hpp"

#include <future>
#include <map>

#include <fmt/format.h>

#include "policy/ptx_code.hpp"

namespace kforecast::policy {
namespace {

// A cache entry is the PTX, this marker, and one lowered name per line.
constexpr std::string_view lowered_names_marker = "\n//// kforecast lowered names\n";

// The compiled code of one side: per name expression, its canonical code (or why there is none).
struct CompiledSide {
  std::optional<std::string> error;  // the unit did not compile
  std::map<std::string, std::optional<std::string>> code;
};

// PTX is what is compared, so the unit is compiled for the virtual architecture of the target
// (compute_XX): same front end and optimiser, no ptxas run needed.
std::string virtual_arch(const std::string& arch) {
  return arch.starts_with("sm_") ? "compute_" + arch.substr(3) : arch;
}

CompiledSide compile_side(const cuda::Compiler& compiler, const CompileUnit& unit,
                          const std::vector<std::string>& expressions, const CompareOptions& options) {
  cuda::CompileRequest request{.source = unit.source,
                               .file_name = unit.file_name,
                               .arch = virtual_arch(options.arch),
                               .include_dirs = unit.include_dirs,
                               .options = unit.options,
                               .name_expressions = expressions,
                               .headers = unit.headers};
  CompiledSide side;
  // The cache holds PTX plus the lowered names, which PTX alone does not give back.
  const std::string key = options.cache ? PtxCache::key(request, compiler.version()) : std::string();
  std::optional<std::string> cached = options.cache ? options.cache->find(key) : std::nullopt;
  std::string ptx;
  std::vector<std::string> lowered;
  if (cached) {
    const auto separator = cached->find(lowered_names_marker);
    ptx = cached->substr(0, separator);
    std::string_view names = separator == std::string::npos
                                 ? std::string_view()
                                 : std::string_view(*cached).substr(separator + lowered_names_marker.size());
    while (!names.empty()) {
      const auto end = names.find('\n');
      lowered.emplace_back(names.substr(0, end));
      names.remove_prefix(end == std::string_view::npos ? names.size() : end + 1);
    }
  }
  if (!cached || lowered.size() != expressions.size()) {
    auto output = compiler.compile(request);
    if (!output) {
      side.error = output.error().message;
      return side;
    }
    ptx = std::move(output->ptx);
    lowered.clear();
    for (const auto& name : output->lowered_names) lowered.push_back(name.lowered);
    if (options.cache) {
      std::string entry = ptx + std::string(lowered_names_marker);
      for (const auto& name : lowered) entry += name + "\n";
      options.cache->store(key, entry);
    }
  }
  const PtxModule module = parse_ptx(ptx);
  for (std::size_t i = 0; i < expressions.size(); ++i)
    side.code[expressions[i]] = i < lowered.size() ? canonical_kernel_code(module, lowered[i]) : std::nullopt;
  return side;
}

}  // namespace

std::vector<KernelCodeResult> compare_kernel_code(const cuda::Compiler& compiler, const CompileUnit& base,
                                                  const CompileUnit& head, std::span<const KernelToCompare> kernels,
                                                  const CompareOptions& options) {
  std::vector<std::string> base_expressions, head_expressions;
  for (const auto& kernel : kernels) {
    base_expressions.push_back(kernel.base_expression);
    head_expressions.push_back(kernel.head_expression);
  }
  auto base_future = std::async(std::launch::async, compile_side, std::cref(compiler), std::cref(base),
                                std::cref(base_expressions), std::cref(options));
  const CompiledSide head_side = compile_side(compiler, head, head_expressions, options);
  const CompiledSide base_side = base_future.get();

  std::vector<KernelCodeResult> results;
  for (const auto& kernel : kernels) {
    if (head_side.error && base_side.error) {
      results.push_back({CodeComparison::both_failed, *head_side.error});
    } else if (head_side.error) {
      results.push_back({CodeComparison::head_failed, *head_side.error});
    } else if (base_side.error) {
      results.push_back({CodeComparison::base_failed, *base_side.error});
    } else {
      const auto& base_code = base_side.code.at(kernel.base_expression);
      const auto& head_code = head_side.code.at(kernel.head_expression);
      if (!base_code || !head_code)
        results.push_back(
            {CodeComparison::different,
             fmt::format("no PTX entry for '{}' in the {} compile",
                         !head_code ? kernel.head_expression : kernel.base_expression, !head_code ? "head" : "base")});
      else
        results.push_back({*base_code == *head_code ? CodeComparison::identical : CodeComparison::different, {}});
    }
  }
  return results;
}

}  // namespace kforecast::policy
