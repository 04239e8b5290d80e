// SPDX-License-Identifier: Apache-2.0
#pragma once

// The work behind `kforecast bench`, in this process: read both kernels (a file, another file,
// or the same file at a git revision), find the launch spec, compile both for the local GPU (with
// the project's nvcc and context where `pr` handed them, gate/shipped_build.hpp; else NVRTC), and
// measure (src/bench/runner.hpp). The command runs this in a child process.

#include <optional>

#include "base/environment.hpp"
#include "bench/kernel_source.hpp"
#include "bench/measurement.hpp"
#include "bench/runner.hpp"
#include "config/config.hpp"
#include "gate/capture_choice.hpp"

namespace kforecast::gate {

struct BenchPair {
  std::string candidate;  // "FILE:KERNEL" as given
  std::string versus;     // --vs FILE[:KERNEL], or empty
  std::string against;    // --against REV, or empty
  // --project-build FILE (gate/shipped_build.hpp): build both sides with the project's compiler
  // and context in the trees it names, as `pr` built them; empty: NVRTC.
  std::string project_build;
  // --capture PATH: replay these captured launches (a capture file, or a folder of a kernel's
  // captures) instead of a launch spec; empty: a spec, else the kernel's captures in capture.dir.
  std::string capture;
  // `pr`: where captures are looked for (capture.dir at each revision, gate/revision_captures.hpp);
  // nullopt: capture.dir under the repository, for both sides.
  std::optional<CaptureFolders> capture_folders;
};

bench::RunnerOptions runner_options(const config::Config& config);

// Both kernels found and the spec bound to both signatures at every size: what can be checked
// without a GPU, so mistakes are usage errors (exit 2) before any child process starts.
struct PreparedPair {
  bench::PreparedKernel reference;
  bench::PreparedKernel candidate;
  // Each side's spec: the same sizes and arguments (the reference's), each side's own geometry.
  bench::LaunchSpec reference_spec;
  bench::LaunchSpec candidate_spec;
  std::string include_dir;  // CUDA's headers, or empty
  // Captured launches to replay instead of the specs (gate/capture_choice.hpp); empty: the specs.
  ChosenCaptures replay;
};
// Why a pair cannot be prepared. A missing launch spec (and no capture) is its own case: `pr` explains it as a
// step the author can take, where any other problem is a mistake in a spec or a name.
struct PairProblem {
  enum class Kind { no_launch_spec, other };
  Kind kind = Kind::other;
  Error error;
};
std::expected<PreparedPair, PairProblem> prepare_pair(const BenchPair& pair, const config::Config& config,
                                                      const EnvLookup& env);

// A measurement, or an Error where the work could not start (no GPU: exit 3; a bad spec or
// kernel name: exit 2). A kernel that faults, disagrees or does not compile is a measurement
// with verdict `failed`.
Result<bench::Measurement> measure_here(const BenchPair& pair, const config::Config& config, const EnvLookup& env,
                                        const bench::RunnerOptions& options);

}  // namespace kforecast::gate
