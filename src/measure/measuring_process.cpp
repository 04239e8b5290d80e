// SPDX-License-Identifier: Apache-2.0
#include "measure/measuring_process.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <variant>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/text_file.hpp"
#include "capture/replay_launch.hpp"
#include "cubin/cubin_kernel.hpp"
#include "cubin/parameter_layout.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvml.hpp"
#include "measure/shipped_build.hpp"

namespace kforecast::measure {
namespace fs = std::filesystem;

namespace {

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

struct MeasuringProcess::State {
  BenchWorld world;
  fs::path builds_folder;
  std::unique_ptr<cuda::CudaDriver> driver;
  cuda::DeviceInfo device;
  std::string arch;
  std::unique_ptr<cuda::Compiler> nvrtc;
  std::optional<std::unique_ptr<cuda::UnitCompiler>> nvcc;  // loaded at the first project build
  std::string nvcc_missing;                                  // why none, where it was looked for
  std::future<Result<std::vector<std::byte>>> support_build;
  std::unique_ptr<bench::Gpu> gpu;
  std::optional<bench::SupportKernels> support;
  std::vector<std::pair<std::string, double>> timings;
  // Adds the seconds since the last step (or since `since`) under `name`.
  std::chrono::steady_clock::time_point last_step = std::chrono::steady_clock::now();
  void step(std::string name) {
    const auto now = std::chrono::steady_clock::now();
    timings.emplace_back(std::move(name), std::chrono::duration<double>(now - last_step).count());
    last_step = now;
  }

  // NVML's answer takes tens of milliseconds (it initialises NVML): asked once, beside the
  // context and the compiles.
  std::shared_future<std::string> driver_version;
  std::string driver_text() const {
    return fmt::format("{} (CUDA {})", driver_version.get(), driver->version().text());
  }
};

namespace {

// The support kernels' machine code: kept from an earlier process (the decision's builds folder,
// then kforecast's cache), else compiled by NVRTC and kept in both.
Result<std::vector<std::byte>> support_cubin(const cuda::Compiler& nvrtc, const std::string& arch,
                                             const fs::path& builds_folder, const fs::path& cache) {
  ContentHasher hasher;
  hasher.add(bench::runner_support_source());
  hasher.add(arch);
  hasher.add(nvrtc.version().text());
  hasher.add(nvrtc.library_path());
  const std::string key = "support-" + hasher.hex();
  for (const auto* folder : {&builds_folder, &cache})
    if (auto kept = read_kept_build(*folder, key)) return std::move(kept->cubin);
  cuda::CompileRequest request;
  request.source = std::string(bench::runner_support_source());
  request.file_name = "kforecast_support.cu";
  request.arch = arch;
  auto output = nvrtc.compile(request);
  if (!output) return std::unexpected(output.error());
  for (const auto* folder : {&builds_folder, &cache}) keep_build(*folder, key, {output->cubin, "kforecast_support", {}});
  return std::move(output->cubin);
}

}  // namespace

MeasuringProcess::MeasuringProcess(std::unique_ptr<State> state) : m_state(std::move(state)) {}

MeasuringProcess::~MeasuringProcess() {
  // A support build still running holds the compiler: it finishes before the State goes.
  if (m_state && m_state->support_build.valid()) m_state->support_build.wait();
  if (m_state && m_state->driver_version.valid()) m_state->driver_version.wait();
}

const std::string& MeasuringProcess::arch() const { return m_state->arch; }

Result<std::unique_ptr<MeasuringProcess>> MeasuringProcess::open(const BenchWorld& world, fs::path builds_folder) {
  auto state = std::make_unique<State>();
  state->world = world;
  state->builds_folder = std::move(builds_folder);
  auto driver = world.driver();
  if (!driver) return std::unexpected(driver.error().to_error());
  state->driver = std::move(*driver);
  auto devices = state->driver->devices();
  if (!devices) return std::unexpected(devices.error());
  if (devices->empty()) return fail(ExitCode::could_not_run, "no CUDA device (the driver lists none)");
  state->device = devices->front();
  state->arch = state->device.arch();
  state->driver_version = std::async(std::launch::async, [] {
                            return cuda::nvidia_driver_version().value_or("unknown");
                          }).share();
  state->step("driver");
  std::error_code ec;
  auto repository = world.repository(fs::current_path(ec));
  auto compiler = world.nvrtc(repository ? (*repository)->root() : fs::current_path(ec));
  if (!compiler) return std::unexpected(compiler.error().to_error());
  state->nvrtc = std::move(*compiler);
  state->step("NVRTC");
  // Compiled (or read) while the pairs' sides compile and the context is made.
  state->support_build = std::async(std::launch::async, support_cubin, std::cref(*state->nvrtc), state->arch,
                                    state->builds_folder, world.support_cache);
  return std::unique_ptr<MeasuringProcess>(new MeasuringProcess(std::move(state)));
}

PendingPair MeasuringProcess::start(const BenchPair& pair, PreparedPair prepared) {
  State& state = *m_state;
  PendingPair pending{pair, std::make_unique<PreparedPair>(std::move(prepared)), {}, {}, {}};
  // The project's compiler, where the parent handed the trees and contexts to build with.
  std::optional<ProjectBuild> project_build;
  if (!pair.project_build.empty()) {
    auto text = read_text_file(pair.project_build, "the project build");
    auto parsed = text ? parse_project_build(*text) : std::unexpected(text.error());
    if (!parsed) {
      pending.notes.push_back(fmt::format("both sides built by NVRTC: {}", parsed.error().message));
    } else {
      project_build = std::move(*parsed);
      if (!state.nvcc) {
        if (auto loaded = state.world.nvcc ? state.world.nvcc() : std::unexpected(std::string("no nvcc is offered here")))
          state.nvcc = std::move(*loaded);
        else
          state.nvcc = nullptr, state.nvcc_missing = loaded.error();
      }
      if (!*state.nvcc)
        pending.notes.push_back(
            fmt::format("both sides built by NVRTC, not as the project builds them: {}", state.nvcc_missing));
    }
  }
  const SideBuildRequest request{state.nvrtc.get(), project_build && state.nvcc ? state.nvcc->get() : nullptr,
                                 project_build, pending.prepared.get(), pair, state.arch, state.builds_folder, true};
  SideBuildRequest candidate = request;
  candidate.reference = false;
  pending.reference = std::async(std::launch::async, build_side, request);
  pending.candidate = std::async(std::launch::async, build_side, std::move(candidate));
  return pending;
}

Result<bench::Measurement> MeasuringProcess::measure(PendingPair& pending, const bench::RunnerOptions& options) {
  State& state = *m_state;
  if (!state.gpu) {
    state.step("before the first pair");
    auto gpu = bench::Gpu::open(state.driver->api(), state.device);
    if (!gpu) return std::unexpected(gpu.error());
    state.gpu = std::move(*gpu);
    state.step("context");
  }
  if (!state.support) {
    auto cubin = state.support_build.get();
    if (!cubin) return std::unexpected(cubin.error());
    bench::SupportKernels kernels;
    for (auto [name, into] : {std::pair{bench::spin_kernel_name, &kernels.spin}, std::pair{bench::flush_kernel_name, &kernels.flush},
                              std::pair{bench::fill_kernel_name, &kernels.fill},
                              std::pair{bench::compare_kernel_name, &kernels.compare}}) {
      auto function = state.gpu->load_function(*cubin, std::string(name));
      if (!function) return std::unexpected(function.error());
      *into = *function;
    }
    state.support = kernels;
    state.step("support kernels");
  }
  bench::Gpu& gpu = *state.gpu;
  SideBuild reference = pending.reference.get();
  SideBuild candidate = pending.candidate.get();
  state.step("waiting for builds");
  std::vector<std::string> build_notes = pending.notes;
  for (const auto* side : {&reference, &candidate})
    build_notes.insert(build_notes.end(), side->notes.begin(), side->notes.end());
  const auto with_context = [&](bench::Measurement measurement) {
    measurement.driver = state.driver_text();
    measurement.notes.insert(measurement.notes.begin(), build_notes.begin(), build_notes.end());
    return measurement;
  };
  if (!reference.kernel) {
    // A base that does not compile says nothing about the head (bench/measurement.hpp, Blame).
    auto failed = bench::failed_measurement(std::string(bench::broken_reference_prefix) + reference.kernel.error().message,
                                            gpu.device().name);
    failed.blame = bench::Blame::reference;
    return with_context(std::move(failed));
  }
  if (!candidate.kernel) return with_context(bench::failed_measurement(candidate.kernel.error().message, gpu.device().name));

  const PreparedPair& prepared = *pending.prepared;
  // Replayed captures where the pair has them, else the launch specs.
  std::vector<std::string> replay_notes;
  const auto measure_once = [&]() -> Result<bench::Measurement> {
    if (prepared.replay.captures.empty())
      return bench::measure_pair(gpu, *state.support, *reference.kernel, prepared.reference_spec, *candidate.kernel,
                                 prepared.candidate_spec, options);
    auto replayed = replay_sizes(prepared.replay, *reference.kernel, *candidate.kernel);
    if (!replayed) return std::unexpected(replayed.error());
    replay_notes = replayed->notes;
    return bench::measure_resolved(gpu, *state.support, *reference.kernel, *candidate.kernel,
                                   std::move(replayed->sizes), options);
  };
  const auto described = [&](bench::Measurement measurement) {
    measurement = with_context(std::move(measurement));
    measurement.notes.insert(measurement.notes.begin(), replay_notes.begin(), replay_notes.end());
    return measurement;
  };
  // A repeated study: each repetition loads the modules and allocates the buffers anew, as a fresh
  // process does, and the GPU idles between them (clocks fall within milliseconds of idling)
  // as it does while a fresh process compiles; only the start-up and compiles go.
  for (int repetition = 1; repetition < options.repetitions && options.each_repetition; ++repetition) {
    auto again = measure_once();
    if (!again) return std::unexpected(again.error());
    options.each_repetition(described(std::move(*again)));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto once = measure_once();
  state.step("measuring");
  if (!once) return std::unexpected(once.error());
  return described(std::move(*once));
}

std::string MeasuringProcess::timings() const {
  std::string text;
  for (const auto& [name, seconds] : m_state->timings)
    text += fmt::format("{}{} {:.3f} s", text.empty() ? "" : ", ", name, seconds);
  return text;
}

}  // namespace kforecast::measure
