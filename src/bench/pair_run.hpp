// SPDX-License-Identifier: Apache-2.0
#pragma once

// One size of a kernel pair on the GPU (runner.hpp gives the protocol): the shared buffers and
// their pristine copies, the correctness check over seeds, the warm-up, and the timed A B B A
// rounds until the sequential rule decides or the time cap passes. measure_pair (runner.cpp)
// walks the spec's sizes through it and combines them.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "bench/gpu.hpp"
#include "bench/guard_zones.hpp"
#include "bench/resolved_launch.hpp"
#include "bench/runner.hpp"

namespace kforecast::bench {

struct DeviceBuffer {
  cuda::CUdeviceptr allocation = 0;  // guard zones around `data` (guard_zones.hpp)
  GuardedLayout layout;
  cuda::CUdeviceptr data = 0;
  cuda::CUdeviceptr pristine = 0;  // the inputs, to restore in-place buffers before each run
  std::size_t bytes = 0;
  ResolvedArgument argument;  // as the first kernel that names it types it
};

// One kernel of the pair, ready to launch on the shared buffers.
struct Side {
  const CompiledKernel* kernel = nullptr;
  const LaunchSpec* spec = nullptr;
  cuda::CUfunction function = nullptr;
  ResolvedLaunch launch;
  std::vector<cuda::CUdeviceptr> pointers;  // one per argument, buffers only
  std::vector<void*> parameters;            // what cuLaunchKernel reads
  cuda::CUgraphExec graph = nullptr;        // `graph_batch` launches, for samples of more than one
  int graph_batch = 0;
  LaunchShape shape() const { return {launch.grid, launch.block, launch.shared_bytes}; }
};

class PairRun {
 public:
  PairRun(Gpu& gpu, const SupportKernels& support, const RunnerOptions& options)
      : m_gpu(gpu), m_support(support), m_options(options) {}

  // Measures one size; a failure is a Verdict::failed with the reason in `reason`.
  SizeMeasurement measure_size(Side& reference, Side& candidate, std::string& reason, double time_budget_s);

 private:
  Result<void> bind(Side& side);
  Result<void> upload_inputs(std::uint64_t seed);
  Result<void> restore(bool poison_outputs);
  Result<void> run_once(Side& side);
  // The reference's outputs copied aside on the GPU, for the candidate's to be compared with.
  Result<void> keep_expected_outputs(const Side& reference);
  Result<void> write_guards(const DeviceBuffer& buffer);
  // The first buffer whose guard zones a launch changed, as "wrote 4 bytes past 'y'"; nullopt when
  // all are intact. Zones found changed are written again, ready for the next launch.
  Result<std::optional<std::string>> guard_damage();
  Result<void> enqueue_sample(Side& side, int batch, std::size_t event_index);
  // Microseconds per launch of each sample of one block. Where `clock` is given, the GPU's clocks
  // are read into it while the block runs (after its samples are queued, before waiting for them):
  // the reading is the block's own, and NVML's time overlaps the GPU's work instead of adding to
  // it.
  Result<std::vector<double>> block(Side& side, int batch, int samples, cuda::ClockReading* clock = nullptr);
  Result<double> steady_clock_warmup(Side& a, Side& b, int batch, std::chrono::steady_clock::time_point start);

  Gpu& m_gpu;
  SupportKernels m_support;
  const RunnerOptions& m_options;
  std::map<std::string, DeviceBuffer, std::less<>> m_buffers;
  std::map<std::string, cuda::CUdeviceptr, std::less<>> m_expected;  // the reference's outputs, by buffer
  cuda::CUdeviceptr m_compare_result = 0;                             // kforecast_compare's 32 bytes
  cuda::CUdeviceptr m_flush = 0;
  cuda::CUdeviceptr m_flush_sink = 0;
  std::size_t m_flush_bytes = 0;
  bool m_has_inplace = false;
};

}  // namespace kforecast::bench
