// SPDX-License-Identifier: Apache-2.0
#pragma once

// The work behind `kforecast bench`, in this process: read both kernels (a file, another file,
// or the same file at a git revision), find the launch spec, compile both for the local GPU (with
// the project's nvcc and context where `pr` handed them, measure/shipped_build.hpp; else NVRTC), and
// measure (src/bench/runner.hpp). The command runs this in a child process.

#include <expected>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

#include "base/environment.hpp"
#include "bench/kernel_source.hpp"
#include "bench/measurement.hpp"
#include "bench/runner.hpp"
#include "builds/compilers.hpp"
#include "config/config.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/unavailable.hpp"
#include "git/repository.hpp"
#include "measure/capture_choice.hpp"

namespace kforecast::measure {

struct BenchPair {
  std::string candidate;  // "FILE:KERNEL" as given
  std::string versus;     // --vs FILE[:KERNEL], or empty
  std::string against;    // --against REV, or empty
  // --project-build FILE (measure/shipped_build.hpp): build both sides with the project's compiler
  // and context in the trees it names, as `pr` built them; empty: NVRTC.
  std::string project_build;
  // --capture PATH: replay these captured launches (a capture file, or a folder of a kernel's
  // captures) instead of a launch spec; empty: a spec, else the kernel's captures in capture.dir.
  std::string capture;
  // `pr`: where captures are looked for (capture.dir at each revision, measure/revision_captures.hpp);
  // nullopt: capture.dir under the repository, for both sides.
  std::optional<CaptureFolders> capture_folders;
};

bench::RunnerOptions runner_options(const config::Config& config);

// What measuring in this process reaches outside kforecast, handed in by the caller (cli: git,
// the CUDA driver, the confined compilers; tests: fakes).
struct BenchWorld {
  // The repository holding a folder, or why there is none.
  git::RepositoryOpener repository;
  // The CUDA driver, or why it does not load.
  std::function<std::expected<std::unique_ptr<cuda::CudaDriver>, cuda::Unavailable>()> driver;
  // NVRTC, confined, reading project headers from `work_tree` where given.
  std::function<cuda::LoadedCompiler(std::optional<std::filesystem::path> work_tree)> nvrtc;
  // The project's compiler of whole units, or why there is none.
  std::function<builds::LoadedUnitCompiler()> nvcc;
  std::string cuda_include_dir;  // CUDA's own headers, or ""
  // Where the runner's support kernels, compiled once per NVRTC version and architecture, are
  // kept between runs; empty: compiled by every measuring process.
  std::filesystem::path support_cache;
};

// Both kernels found and the spec bound to both signatures at every size: what can be checked
// without a GPU, so mistakes are usage errors (exit 2) before any child process starts.
struct PreparedPair {
  bench::PreparedKernel reference;
  bench::PreparedKernel candidate;
  // Each side's spec: the same sizes and arguments (the reference's), each side's own geometry.
  bench::LaunchSpec reference_spec;
  bench::LaunchSpec candidate_spec;
  std::string include_dir;  // CUDA's headers, or empty
  // Captured launches to replay instead of the specs (measure/capture_choice.hpp); empty: the specs.
  ChosenCaptures replay;
};
// Why a pair cannot be prepared. A missing launch spec (and no capture) is its own case: `pr` explains it as a
// step the author can take, where any other problem is a mistake in a spec or a name.
struct PairProblem {
  enum class Kind { no_launch_spec, other };
  Kind kind = Kind::other;
  Error error;
};
// `world` is read for CUDA's headers and, where the pair names no capture folders, the repository
// whose capture.dir holds the kernel's captures.
std::expected<PreparedPair, PairProblem> prepare_pair(const BenchPair& pair, const config::Config& config,
                                                      const BenchWorld& world);

// A measurement, or an Error where the work could not start (no GPU: exit 3; a bad spec or
// kernel name: exit 2). A kernel that faults, disagrees or does not compile is a measurement
// with verdict `failed`. `builds_folder`: where the decision's processes keep both sides' builds
// (measure/measuring_process.hpp); empty: nowhere. `timings`, where given, receives where the
// process's time went (MeasuringProcess::timings).
Result<bench::Measurement> measure_here(const BenchPair& pair, const config::Config& config, const BenchWorld& world,
                                        const bench::RunnerOptions& options,
                                        const std::filesystem::path& builds_folder = {},
                                        std::string* timings = nullptr);

}  // namespace kforecast::measure
