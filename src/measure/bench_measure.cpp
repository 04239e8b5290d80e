// SPDX-License-Identifier: Apache-2.0
#include "measure/bench_measure.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "bench/kernel_source.hpp"
#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "cuda/library_search.hpp"
#include "git/repository.hpp"
#include "measure/measuring_process.hpp"

namespace kforecast::measure {
namespace {

constexpr std::size_t max_source_bytes = 16 << 20;

Result<std::string> read_text_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return usage_error(fmt::format("{}: no such file", path));
  if (std::filesystem::file_size(path, ec) > max_source_bytes)
    return usage_error(fmt::format("{}: larger than {} bytes", path, max_source_bytes));
  std::ifstream in(path, std::ios::binary);
  return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Sides {
  bench::KernelSource reference;
  std::string reference_kernel;
  bench::KernelSource candidate;
  std::string candidate_kernel;
};

Result<Sides> read_sides(const BenchPair& pair, const BenchWorld& world) {
  auto head = bench::split_file_kernel(pair.candidate);
  if (!head)
    return usage_error(fmt::format("'{}': name the kernel as FILE:KERNEL, e.g. src/gemm.cu:sgemm", pair.candidate));
  if (pair.versus.empty() && pair.against.empty())
    return usage_error(
        "name what to compare with: --vs FILE[:KERNEL] (another file), --against REV (this file at a git "
        "revision), or both (that file's kernel at the revision: a kernel renamed or moved since)");
  Sides sides;
  auto text = read_text_file(head->first);
  if (!text) return std::unexpected(text.error());
  sides.candidate = {fmt::format("{}:{}", head->first, head->second), head->first, std::move(*text)};
  sides.candidate_kernel = head->second;
  if (!pair.versus.empty() && pair.against.empty()) {
    auto base = bench::split_file_kernel(pair.versus);
    const std::string file = base ? base->first : pair.versus;
    sides.reference_kernel = base ? base->second : head->second;
    auto base_text = read_text_file(file);
    if (!base_text) return std::unexpected(base_text.error());
    sides.reference = {fmt::format("{}:{}", file, sides.reference_kernel), file, std::move(*base_text)};
    return sides;
  }
  // The reference at a revision: this file's kernel, or with --vs as well, that file's kernel
  // (a kernel renamed or moved since the revision).
  const auto versus = pair.versus.empty() ? std::nullopt : bench::split_file_kernel(pair.versus);
  const std::string reference_file = pair.versus.empty() ? head->first : versus ? versus->first : pair.versus;
  sides.reference_kernel = versus ? versus->second : head->second;
  auto repository = world.repository(std::filesystem::path(head->first).parent_path().empty()
                                         ? std::filesystem::current_path()
                                         : std::filesystem::path(head->first).parent_path());
  if (!repository) return std::unexpected(repository.error());
  std::error_code ec;
  const auto relative =
      std::filesystem::relative(std::filesystem::absolute(reference_file, ec), (*repository)->root(), ec);
  auto commit = (*repository)->resolve(pair.against);
  if (!commit) return std::unexpected(commit.error());
  auto files = (*repository)->read_files(commit->sha, {relative.generic_string()});
  if (!files) return std::unexpected(files.error());
  const auto& found = files->at(relative.generic_string());
  if (!found)
    return usage_error(fmt::format("{} does not exist at {} ({})", relative.generic_string(), pair.against,
                                   commit->sha.substr(0, 12)));
  sides.reference = {fmt::format("{}@{}:{}", reference_file, pair.against, sides.reference_kernel), reference_file,
                     *found};
  return sides;
}

}  // namespace

bench::RunnerOptions runner_options(const config::Config& config) {
  bench::RunnerOptions options;
  options.tolerance = config.number_value("bench.tolerance");
  options.confidence = config.number_value("bench.confidence");
  options.max_gpu_seconds = config.number_value("bench.max_gpu_seconds");
  return options;
}

std::expected<PreparedPair, PairProblem> prepare_pair(const BenchPair& pair, const config::Config& config,
                                                      const BenchWorld& world) {
  const auto other = [](Error error) {
    return std::unexpected(PairProblem{PairProblem::Kind::other, std::move(error)});
  };
  auto sides = read_sides(pair, world);
  if (!sides) return other(sides.error());
  PreparedPair prepared;
  prepared.include_dir = world.cuda_include_dir;
  const auto available = [&](std::string_view header) {
    return cuda::toolkit_has_header(prepared.include_dir, header);
  };
  auto reference = bench::prepare_kernel(sides->reference, sides->reference_kernel, available);
  if (!reference) return other(reference.error());
  auto candidate = bench::prepare_kernel(sides->candidate, sides->candidate_kernel, available);
  if (!candidate) return other(candidate.error());

  // Each side's own spec: its comment block, else its [[kernel]] in the config. The reference's
  // sizes, arguments and tolerances hold for both (the head under review must not choose the
  // problem it is judged on; a kernel new in the head has only its own); each side keeps its own
  // geometry, and a side without a spec of its own takes the other's.
  std::vector<bench::LaunchSpec> config_specs;
  if (!config.source_text().empty()) {
    auto specs = bench::read_config_specs(config.source_text(), config.source_name());
    if (!specs) return other(specs.error());
    config_specs = std::move(*specs);
  }
  const auto own_spec = [&](const bench::PreparedKernel& kernel, const std::string& path) {
    std::optional<bench::LaunchSpec> spec = kernel.comment_spec;
    if (!spec)
      if (const auto* found = bench::find_spec(config_specs, kernel.name_expression, path)) spec = *found;
    return spec;
  };
  std::optional<bench::LaunchSpec> candidate_spec = own_spec(*candidate, sides->candidate.path);
  std::optional<bench::LaunchSpec> reference_spec = own_spec(*reference, sides->reference.path);
  // Captured launches where --capture names them or no spec gives the launch.
  if (!pair.capture.empty() || (!candidate_spec && !reference_spec)) {
    // capture.dir is relative to the root of the candidate file's repository (`bench`), else of the
    // current directory's (`pr`, whose sides are copies outside any repository).
    const auto folders = pair.capture_folders ? *pair.capture_folders : [&] {
      std::error_code ec;
      const auto here = std::filesystem::current_path(ec);
      const auto file_folder = std::filesystem::absolute(sides->candidate.path, ec).parent_path();
      if (!world.repository) return configured_capture_folders(config, here);
      auto repository = world.repository(file_folder);
      if (!repository) repository = world.repository(here);
      return configured_capture_folders(config, repository ? (*repository)->root() : here);
    }();
    auto chosen = choose_captures(pair.capture, folders, *reference, *candidate);
    if (!chosen) return other(chosen.error());
    if (!chosen->captures.empty()) {
      prepared.reference = std::move(*reference);
      prepared.candidate = std::move(*candidate);
      prepared.replay = std::move(*chosen);
      return prepared;
    }
    if (!candidate_spec && !reference_spec)
      return std::unexpected(PairProblem{
          PairProblem::Kind::no_launch_spec,
          usage_error(
              fmt::format(
                  "no launch spec for kernel '{}' and no capture of it in {}: add a '// kforecast:' comment block "
                  "above it or a [[kernel]] table in .kforecast.toml (sizes, grid, block, args; `kforecast spec "
                  "suggest {}:{}` drafts one; `kforecast help bench` shows the format), or record its launches from "
                  "a program of the project with `kforecast capture -- COMMAND` (docs/design/capture.md){}",
                  candidate->name_expression, config.string_value("capture.dir"), sides->candidate.path,
                  candidate->function.name,
                  chosen->notes.empty() ? "" : fmt::format("; captures passed over: {}", chosen->notes.front())))
              .error()});
  }
  const bench::LaunchSpec problem = reference_spec ? *reference_spec : *candidate_spec;
  candidate_spec = bench::with_geometry_of(problem, candidate_spec ? *candidate_spec : problem);
  reference_spec = bench::with_geometry_of(problem, reference_spec ? *reference_spec : problem);
  // Every size binds to both signatures, or a spec is wrong: a usage error, found before any GPU work.
  for (const auto& size : problem.sizes)
    for (const auto& [kernel, spec] :
         {std::pair{&*reference, &*reference_spec}, std::pair{&*candidate, &*candidate_spec}})
      if (auto launch = bench::resolve_launch(*spec, size, kernel->function.parameters); !launch)
        return other(usage_error(fmt::format("{}: {}", kernel->label, launch.error().message)).error());
  prepared.reference = std::move(*reference);
  prepared.candidate = std::move(*candidate);
  prepared.reference_spec = std::move(*reference_spec);
  prepared.candidate_spec = std::move(*candidate_spec);
  return prepared;
}

Result<bench::Measurement> measure_here(const BenchPair& pair, const config::Config& config, const BenchWorld& world,
                                        const bench::RunnerOptions& options, const std::filesystem::path& builds_folder,
                                        std::string* timings) {
  auto prepared = prepare_pair(pair, config, world);
  if (!prepared) return std::unexpected(prepared.error().error);
  auto process = MeasuringProcess::open(world, builds_folder);
  if (!process) return std::unexpected(process.error());
  auto pending = (*process)->start(pair, std::move(*prepared));
  auto measurement = (*process)->measure(pending, options);
  if (timings != nullptr) {
    // Ending the context (freeing, unloading, releasing it) is this process's too.
    const auto ending = std::chrono::steady_clock::now();
    *timings = (*process)->timings();
    process->reset();
    *timings += fmt::format(", ending the context {:.3f} s",
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - ending).count());
  }
  return measurement;
}

}  // namespace kforecast::measure
