// SPDX-License-Identifier: Apache-2.0
#pragma once

// Measuring a kernel pair on one GPU: an untimed first launch; outputs
// poisoned and compared over 2-3 seeds (a disagreeing candidate is `failed`, never timed); the
// same buffers for both kernels, each between two guard zones (guard_zones.hpp) checked after
// every correctness launch: a store outside a buffer fails the side that made it, and a
// reference that does so, or faults, is `failed` with Blame::reference ("the reference (base) is
// broken: ..."), since the pair then says nothing about the candidate; warm-up alternating both until the SM clock is steady; samples
// of `batch` launches (one CUDA graph when more than one) queued behind a spin kernel so launch
// gaps stay out of the events, each lasting >= ~20 us; L2 flushed (and in-place inputs restored) before each sample, outside the
// events; A B B A blocks with per-block medians; clocks per block, a block redone when its SM
// clock fell >3% below the run's median; the sequential rule (statistics.hpp: looks from 3 rounds on,
// each at its share of the error) within a GPU time cap, blocks sized to the kernel's time. Every size of the spec is measured and the sizes combine by geometric mean.
// Faults end the measurement as `failed` with the call and result that failed; the process is
// then unusable for CUDA (a sticky error), which is why the CLI runs this in a child process.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/gpu.hpp"
#include "bench/launch_spec.hpp"
#include "bench/measurement.hpp"
#include "bench/resolved_launch.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::bench {

struct CompiledKernel {
  std::string label;  // for messages: "reference (src/a.cu:k)"
  std::vector<std::byte> cubin;
  std::string lowered_name;
  std::vector<kernels::Parameter> parameters;
};

struct RunnerOptions {
  double tolerance = 0.02;
  double confidence = 0.99;
  double max_gpu_seconds = 30;  // for the whole pair, all sizes
  int seeds = 2;
  // Work scales with the kernel's time: a block holds about block_target_us of timed
  // samples, between min_samples_per_block and samples_per_block, so a 1 ms kernel's round costs
  // ~12 ms rather than ~40 ms; rounds stop at the first look that decides (statistics.hpp).
  int samples_per_block = 10;  // the most per block
  int min_samples_per_block = 3;
  double block_target_us = 2000;
  // 64, not 32: the spent error makes late looks stricter, and a 5 us kernel (1% noise per round)
  // needs up to ~50 rounds (~3 ms each) to catch 3% in 99% of runs (benchmarks/decision_rule_bench.cpp).
  int max_rounds = 64;
  // At least this long, and on until two clock readings agree. The correctness launches and the
  // batch-size samples just before it have already woken the GPU, every block of the measured
  // H100 and H200 runs read 1980 MHz, and A B B A cancels what drift is left, so a 150 ms
  // warm-up was mostly spent waiting; at 25 ms a 1 ms kernel's decision, confirmed in a second
  // process, stays within 0.25 GPU-s. scripts/gpu-decision-time.sh's A/A runs check it is enough.
  double warmup_ms = 25;
  double target_sample_us = 20;
  std::function<void(std::string_view)> progress;  // one line of state, for a terminal
  // A measurement study (`kforecast bench --in-process --repeat N`): the pair is measured N
  // times from its compiled code; each measurement but the last goes to `each_repetition`.
  int repetitions = 1;
  std::function<void(const Measurement&)> each_repetition;
};

// The device code the runner needs beside the kernels, to compile with NVRTC for the GPU at
// hand: a spin kernel that holds the stream while a sample's launches are queued, and the L2
// flush (a read of twice the L2's size, which leaves no dirty lines behind).
std::string_view runner_support_source();
inline constexpr std::string_view spin_kernel_name = "kforecast_spin";
inline constexpr std::string_view flush_kernel_name = "kforecast_flush";
// Inputs drawn and outputs compared on the GPU (bench/device_checks.hpp).
inline constexpr std::string_view fill_kernel_name = "kforecast_fill";
inline constexpr std::string_view compare_kernel_name = "kforecast_compare";

struct SupportKernels {
  cuda::CUfunction spin = nullptr;
  cuda::CUfunction flush = nullptr;
  cuda::CUfunction fill = nullptr;
  cuda::CUfunction compare = nullptr;
};

// Each kernel runs with its own spec; both specs hold the same sizes and arguments (see
// with_geometry_of), so the pair shares one problem and one set of buffers.
Measurement measure_pair(Gpu& gpu, const SupportKernels& support, const CompiledKernel& reference,
                         const LaunchSpec& reference_spec, const CompiledKernel& candidate,
                         const LaunchSpec& candidate_spec, const RunnerOptions& options);

// One size of a pair, both launches already resolved (a replayed capture, capture/replay_launch).
struct ResolvedSize {
  ResolvedLaunch reference;
  ResolvedLaunch candidate;
};

// As measure_pair, over sizes whose launches are resolved: every size measured, combined by
// geometric mean.
Measurement measure_resolved(Gpu& gpu, const SupportKernels& support, const CompiledKernel& reference,
                             const CompiledKernel& candidate, std::vector<ResolvedSize> sizes,
                             const RunnerOptions& options);

}  // namespace kforecast::bench
