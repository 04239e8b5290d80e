// SPDX-License-Identifier: Apache-2.0
#include "lint_run/lint_launch_facts.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "embedded/occupancy.hpp"
#include "hardware/arch_limits.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::lint_run {
namespace {

struct Evaluated {
  bench::ResolvedLaunch launch;
  std::int64_t threads = 0;
  std::optional<embedded::Occupancy> occupancy;
};

// "sm_90 (H100), 40 registers per thread from NVRTC, 2048 bytes of static shared memory".
struct Resources {
  embedded::BlockResources block;
  std::string basis;
};

Resources resources_for(const lint::KernelFacts* facts, std::int64_t threads, std::int64_t dynamic_shared,
                        const embedded::Gpu& gpu) {
  Resources resources;
  resources.block.threads = static_cast<int>(std::min<std::int64_t>(threads, 1 << 30));
  std::string registers;
  if (facts != nullptr && facts->compiler) {
    resources.block.registers_per_thread = facts->compiler->registers;
    resources.block.shared_bytes = facts->compiler->shared_bytes + dynamic_shared;
    registers = fmt::format("{} registers per thread and {} bytes of static shared memory from NVRTC ({})",
                            facts->compiler->registers, facts->compiler->shared_bytes, facts->compiler->arch);
  } else {
    resources.block.registers_per_thread = assumed_registers;
    resources.block.shared_bytes = dynamic_shared;
    registers = fmt::format("assuming {} registers per thread and no static shared memory: no compiler facts",
                            assumed_registers);
  }
  resources.basis = fmt::format("{} (sm_{}), {}", gpu.name, gpu.compute_capability, registers);
  return resources;
}

lint::Diagnostic spec_diagnostic(const LaunchFile& file, const kernels::Function& function, std::string message) {
  return {file.shown,         function.signature.first_line, 1, &launch_spec_rule(), launch_spec_rule().severity,
          std::move(message), function.qualified_name,       {}};
}

}  // namespace

const lint::Rule& launch_spec_rule() {
  static const lint::Rule rule{
      "launch-spec",
      lint::Severity::warning,
      "a kernel's launch spec does not read or does not fit the kernel",
      "{match}",
      "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#execution-configuration",
      "",
      "",
      {},
      "built-in"};
  return rule;
}

Result<LaunchFactsResult> gather_launch_facts(const std::vector<LaunchFile>& files, const LaunchSettings& settings) {
  LaunchFactsResult result;
  std::vector<bench::LaunchSpec> config_specs;
  if (!settings.config_text.empty()) {
    auto specs = bench::read_config_specs(settings.config_text, settings.config_name);
    if (!specs) return std::unexpected(specs.error());
    config_specs = std::move(*specs);
  }
  const auto gpu = embedded::find_gpu(settings.hardware);
  const auto limits = gpu ? hardware::arch_limits(gpu->compute_capability) : std::nullopt;
  if (!limits)
    result.notes.push_back(
        fmt::format("occupancy not computed: forecast.hardware '{}' is not in the GPU table", settings.hardware));

  for (const auto& file : files) {
    const auto scanned = kernels::scan_cuda_source(file.text);
    for (const auto& function : scanned.functions) {
      if (function.kind != kernels::FunctionKind::global || !function.has_body || function.from_macro) continue;
      auto comment =
          bench::read_comment_spec(file.text, function.signature.first_line, function.qualified_name, file.relative);
      if (!comment) {
        result.diagnostics.push_back(spec_diagnostic(
            file, function,
            fmt::format("the launch spec above kernel '{}' does not read, so the launch rules skip it: {}",
                        function.qualified_name, comment.error().message)));
        continue;
      }
      const bench::LaunchSpec* spec = *comment ? &**comment : nullptr;
      if (spec == nullptr) spec = bench::find_spec(config_specs, function.qualified_name, file.relative);
      if (spec == nullptr) continue;
      if (!function.template_parameters.empty()) {
        result.notes.push_back(fmt::format("{}: {} is a template: the launch rules do not evaluate its spec yet",
                                           file.shown, function.qualified_name));
        continue;
      }
      const lint::KernelFacts* compiler = nullptr;
      if (file.compiler != nullptr)
        if (auto it = file.compiler->find(function.qualified_name); it != file.compiler->end()) compiler = &it->second;

      std::vector<Evaluated> evaluated;
      std::string problem;
      for (const auto& size : spec->sizes) {
        auto launch = bench::resolve_launch(*spec, size, function.parameters);
        if (!launch) {
          problem = launch.error().message;
          break;
        }
        Evaluated each{*launch, std::int64_t{launch->block[0]} * launch->block[1] * launch->block[2], std::nullopt};
        if (limits)
          each.occupancy = embedded::theoretical_occupancy(
              *limits, resources_for(compiler, each.threads, launch->shared_bytes, *gpu).block);
        evaluated.push_back(std::move(each));
      }
      if (!problem.empty() || evaluated.empty()) {
        result.diagnostics.push_back(spec_diagnostic(
            file, function,
            fmt::format("the launch spec for kernel '{}' ({}) does not fit it, so the launch rules skip it: {}",
                        function.qualified_name, spec->origin, problem.empty() ? "it gives no sizes" : problem)));
        continue;
      }
      // The size that speaks for the kernel: the largest block (what __launch_bounds__ must
      // allow), and among equal blocks the lowest occupancy.
      const auto worst = std::ranges::max_element(evaluated, [](const Evaluated& a, const Evaluated& b) {
        const double occupancy_a = a.occupancy ? a.occupancy->fraction : 1.0;
        const double occupancy_b = b.occupancy ? b.occupancy->fraction : 1.0;
        return std::tie(a.threads, occupancy_b) < std::tie(b.threads, occupancy_a);
      });
      lint::LaunchFacts facts{worst->threads, worst->launch.shared_bytes, spec->origin, std::nullopt, {}};
      if (worst->occupancy) {
        facts.occupancy = worst->occupancy->fraction;
        facts.occupancy_basis = resources_for(compiler, worst->threads, worst->launch.shared_bytes, *gpu).basis;
        if (worst->occupancy->blocks_per_sm == 0) facts.occupancy_basis += "; a block of this size cannot run at all";
      }
      result.by_path[file.relative][function.qualified_name].launch = std::move(facts);
      const auto& first = evaluated.front().launch;
      embedded::LaunchGeometry geometry;
      for (std::size_t i = 0; i < 3; ++i) {
        geometry.grid[i] = first.grid[i];
        geometry.block[i] = first.block[i];
      }
      geometry.shared_bytes = first.shared_bytes;
      result.geometry[{file.relative, function.qualified_name}] = geometry;
    }
  }
  return result;
}

}  // namespace kforecast::lint_run
