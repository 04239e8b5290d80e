// SPDX-License-Identifier: Apache-2.0
#include "measure/bench_measure.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <variant>

#include <fmt/format.h>

#include "cuda/library_search.hpp"
#include "measure/shipped_build.hpp"

#include "bench/kernel_source.hpp"
#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "capture/replay_launch.hpp"
#include "cubin/cubin_kernel.hpp"
#include "cubin/parameter_layout.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvml.hpp"
#include "cuda/nvrtc.hpp"
#include "git/repository.hpp"

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

struct ReplayedSizes {
  std::vector<bench::ResolvedSize> sizes;
  std::vector<std::string> notes;  // where each size's launch came from, first
};

// The parameter layout ptxas gave a compiled kernel, or a note saying why it is not known.
std::variant<std::vector<cubin::ParameterSlot>, std::string> compiled_layout(const bench::CompiledKernel& kernel) {
  auto kernels = cubin::read_cubin_kernels(kernel.cubin);
  if (!kernels)
    return fmt::format("the {}'s parameter layout was not checked against the capture: its cubin cannot be read: {}",
                       kernel.label, kernels.error().message);
  const auto found = std::ranges::find(*kernels, kernel.lowered_name, &cubin::CubinKernel::symbol);
  if (found == kernels->end())
    return fmt::format("the {}'s parameter layout was not checked against the capture: {} is not in its cubin",
                       kernel.label, kernel.lowered_name);
  return cubin::parameter_layout(*found);
}

// One size per capture, both kernels on the same captured inputs.
Result<ReplayedSizes> replay_sizes(const ChosenCaptures& chosen, const bench::CompiledKernel& reference,
                                   const bench::CompiledKernel& candidate) {
  ReplayedSizes replayed;
  const auto reference_layout = compiled_layout(reference);
  const auto candidate_layout = compiled_layout(candidate);
  for (const auto* layout : {&reference_layout, &candidate_layout})
    if (const auto* note = std::get_if<std::string>(layout)) replayed.notes.push_back(*note);
  for (const auto& [file, recorded] : chosen.captures) {
    for (auto [kernel, layout] : {std::pair{&reference, &reference_layout}, std::pair{&candidate, &candidate_layout}})
      if (const auto* slots = std::get_if<std::vector<cubin::ParameterSlot>>(layout))
        if (auto fits = capture::check_parameter_layout(recorded, *slots, kernel->label); !fits)
          return std::unexpected(fits.error());
    bench::ResolvedSize size;
    auto base = capture::replay_launch(recorded, file, reference.parameters, reference.label);
    if (!base) return std::unexpected(base.error());
    auto head = capture::replay_launch(recorded, file, candidate.parameters, candidate.label, &*base);
    if (!head) return std::unexpected(head.error());
    size.reference = std::move(*base);
    size.candidate = std::move(*head);
    replayed.sizes.push_back(std::move(size));
    replayed.notes.push_back(capture::launch_source(recorded, file));
    if (reference.lowered_name != recorded.kernel.mangled)
      replayed.notes.push_back(fmt::format("{} was recorded for {}; the reference built here is {}", file.generic_string(),
                                           recorded.kernel.mangled, reference.lowered_name));
  }
  for (const auto& note : chosen.notes) replayed.notes.push_back(note);
  return replayed;
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
                                        const bench::RunnerOptions& options) {
  auto prepared = prepare_pair(pair, config, world);
  if (!prepared) return std::unexpected(prepared.error().error);
  const std::string& include_dir = prepared->include_dir;
  const auto* reference = &prepared->reference;
  const auto* candidate = &prepared->candidate;

  auto driver = world.driver();
  if (!driver) return std::unexpected(driver.error().to_error());
  auto gpu = bench::Gpu::open(**driver, 0);
  if (!gpu) return std::unexpected(gpu.error());
  std::error_code ec;
  auto repository = world.repository(std::filesystem::current_path(ec));
  auto compiler = world.nvrtc(repository ? (*repository)->root() : std::filesystem::current_path(ec));
  if (!compiler) return std::unexpected(compiler.error().to_error());
  const std::string arch = (*gpu)->device().arch();
  const auto driver_text = [&] {
    auto version = cuda::nvidia_driver_version();
    return fmt::format("{} (CUDA {})", version.value_or("unknown"), (*driver)->version().text());
  };

  // The project's compiler, where the parent handed the trees and contexts to build with.
  std::optional<ProjectBuild> project_build;
  std::unique_ptr<cuda::UnitCompiler> nvcc;
  std::vector<std::string> build_notes;
  if (!pair.project_build.empty()) {
    auto text = read_text_file(pair.project_build);
    if (!text) return std::unexpected(text.error());
    auto parsed = parse_project_build(*text);
    if (!parsed) return std::unexpected(parsed.error());
    project_build = std::move(*parsed);
    if (auto loaded = world.nvcc ? world.nvcc() : std::unexpected(std::string("no nvcc is offered here")))
      nvcc = std::move(*loaded);
    else
      build_notes.push_back(fmt::format("both sides built by NVRTC, not as the project builds them: {}", loaded.error()));
  }
  const auto shipped = [&](const bench::PreparedKernel& kernel, const bench::LaunchSpec& spec,
                           const std::string& role) -> std::optional<bench::CompiledKernel> {
    if (!nvcc) return std::nullopt;
    const bool is_reference = role == "reference";
    const std::string& tree = is_reference ? project_build->reference_tree : project_build->candidate_tree;
    std::vector<std::string> arguments =
        is_reference ? project_build->reference_arguments : project_build->candidate_arguments;
    // The launch spec's own folders and defines, as NVRTC gets them below.
    for (const auto& directory : spec.include_dirs) arguments.push_back("-I" + directory);
    for (const auto& [name, value] : spec.defines) arguments.push_back(value.empty() ? "-D" + name : "-D" + name + "=" + value);
    std::error_code path_error;
    const std::string file = std::filesystem::relative(std::filesystem::absolute(kernel.request.file_name, path_error),
                                                       std::filesystem::absolute(tree, path_error), path_error)
                                 .generic_string();
    auto built = build_shipped_kernel(*nvcc, tree, file, kernel, arguments, arch);
    if (!built) {
      std::string reason = built.error().message;
      if (const auto end = reason.find('\n'); end != std::string::npos) reason.resize(end);
      build_notes.push_back(fmt::format("the {} was built by NVRTC: {} could not build it as the project does: {}", role,
                                        nvcc->name(), reason));
      return std::nullopt;
    }
    build_notes.push_back(fmt::format("the {} was built by {}", role, built->build));
    return std::move(built->kernel);
  };
  const auto compile = [&](const bench::PreparedKernel& kernel, const bench::LaunchSpec& spec,
                           std::string role) -> Result<bench::CompiledKernel> {
    if (auto built = shipped(kernel, spec, role)) {
      built->label = fmt::format("{} {}", role, kernel.label);
      return std::move(*built);
    }
    cuda::CompileRequest request = kernel.request;
    request.arch = arch;
    for (const auto& directory : spec.include_dirs) request.include_dirs.push_back(directory);
    for (auto& directory : cuda::toolkit_header_dirs(include_dir)) request.include_dirs.push_back(std::move(directory));
    request.defines = spec.defines;
    auto output = (*compiler)->compile(request);
    if (!output)
      return fail(ExitCode::gate_failed, fmt::format("the {} {} does not compile for {}: {}", role, kernel.label, arch,
                                                     output.error().message));
    if (output->cubin.empty() || output->lowered_names.empty())
      return fail(ExitCode::could_not_run, fmt::format("NVRTC gave no machine code for the {} {}", role, kernel.label));
    // Every measurement says which build it timed; the project's, where nvcc built it, said so
    // above. Without a project build (bench --vs with files as given, a plan without one) nvcc is
    // not even looked for: that would cost each measuring process a toolkit search.
    if (!project_build)
      build_notes.push_back(fmt::format("the {} was built by NVRTC {} for {}, device code only, kforecast's own "
                                        "context (no project build was given)",
                                        role, (*compiler)->version().text(), arch));
    return bench::CompiledKernel{fmt::format("{} {}", role, kernel.label), std::move(output->cubin),
                                 output->lowered_names.front().lowered, kernel.function.parameters};
  };
  auto base = compile(*reference, prepared->reference_spec, "reference");
  if (!base) {
    // A base that does not compile says nothing about the head (bench/measurement.hpp, Blame).
    auto failed = bench::failed_measurement(std::string(bench::broken_reference_prefix) + base.error().message,
                                            (*gpu)->device().name);
    failed.blame = bench::Blame::reference;
    failed.driver = driver_text();
    return failed;
  }
  auto head = compile(*candidate, prepared->candidate_spec, "candidate");
  if (!head) {
    auto failed = bench::failed_measurement(head.error().message, (*gpu)->device().name);
    failed.driver = driver_text();
    return failed;
  }
  cuda::CompileRequest support;
  support.source = std::string(bench::runner_support_source());
  support.file_name = "kforecast_support.cu";
  support.arch = arch;
  auto spin_code = (*compiler)->compile(support);
  if (!spin_code) return std::unexpected(spin_code.error());
  auto spin = (*gpu)->load_function(spin_code->cubin, std::string(bench::spin_kernel_name));
  if (!spin) return std::unexpected(spin.error());
  auto flush = (*gpu)->load_function(spin_code->cubin, std::string(bench::flush_kernel_name));
  if (!flush) return std::unexpected(flush.error());
  auto fill = (*gpu)->load_function(spin_code->cubin, std::string(bench::fill_kernel_name));
  if (!fill) return std::unexpected(fill.error());
  auto compare = (*gpu)->load_function(spin_code->cubin, std::string(bench::compare_kernel_name));
  if (!compare) return std::unexpected(compare.error());
  const bench::SupportKernels support_kernels{*spin, *flush, *fill, *compare};

  // Replayed captures where the pair has them, else the launch specs.
  std::vector<std::string> replay_notes;
  const auto measure_once = [&]() -> Result<bench::Measurement> {
    if (prepared->replay.captures.empty())
      return bench::measure_pair(**gpu, support_kernels, *base, prepared->reference_spec, *head,
                                 prepared->candidate_spec, options);
    auto replayed = replay_sizes(prepared->replay, *base, *head);
    if (!replayed) return std::unexpected(replayed.error());
    replay_notes = replayed->notes;
    return bench::measure_resolved(**gpu, support_kernels, *base, *head, std::move(replayed->sizes), options);
  };
  // A repeated study: each repetition loads the modules and allocates the buffers anew, as a fresh
  // process does, and the GPU idles between them (clocks fall within milliseconds of idling)
  // as it does while a fresh process compiles; only the start-up and compiles go.
  for (int repetition = 1; repetition < options.repetitions && options.each_repetition; ++repetition) {
    auto again = measure_once();
    if (!again) return std::unexpected(again.error());
    again->driver = driver_text();
    again->notes.insert(again->notes.begin(), build_notes.begin(), build_notes.end());
    again->notes.insert(again->notes.begin(), replay_notes.begin(), replay_notes.end());
    options.each_repetition(*again);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto once = measure_once();
  if (!once) return std::unexpected(once.error());
  bench::Measurement measurement = std::move(*once);
  build_notes.insert(build_notes.begin(), replay_notes.begin(), replay_notes.end());
  measurement.driver = driver_text();
  measurement.notes.insert(measurement.notes.begin(), build_notes.begin(), build_notes.end());
  return measurement;
}

}  // namespace kforecast::measure
