// SPDX-License-Identifier: Apache-2.0
#pragma once

// The GPU side of one measuring process (`kforecast bench --in-process`), made once and used for
// every pair the process measures: the driver and the GPU's architecture read first, the
// context and the runner's support kernels made once, and each pair's two sides compiled side by
// side (each compile is a child process) while the context is made or the pair before is timed.
// A `--batch` process measures many pairs (pr's kernels) with one of these; a single pair is a
// batch of one.
//
// Builds are kept in a builds folder where the parent names one (`--builds DIR`): the processes
// of one decision (a regression's confirmation, a borderline's third process) then load both
// sides' machine code instead of compiling them again. The support kernels are kept there and in
// kforecast's cache, keyed by NVRTC's version and the architecture.

#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "bench/gpu.hpp"
#include "bench/measurement.hpp"
#include "bench/runner.hpp"
#include "config/config.hpp"
#include "measure/bench_measure.hpp"
#include "measure/side_build.hpp"

namespace kforecast::measure {

// A pair whose sides are being compiled.
struct PendingPair {
  BenchPair pair;
  std::unique_ptr<PreparedPair> prepared;  // where the compiles read it; never moves
  std::future<SideBuild> reference;
  std::future<SideBuild> candidate;
  std::vector<std::string> notes;  // about the build as a whole (no nvcc where one was asked for)
};

class MeasuringProcess {
 public:
  // The driver opened and the first GPU's architecture read, NVRTC loaded, and the support
  // kernels' build started; no context yet. `builds_folder`: where a decision's builds are kept
  // (empty: none).
  static Result<std::unique_ptr<MeasuringProcess>> open(const BenchWorld& world, std::filesystem::path builds_folder);
  ~MeasuringProcess();
  MeasuringProcess(const MeasuringProcess&) = delete;
  MeasuringProcess& operator=(const MeasuringProcess&) = delete;

  // Starts compiling both sides of a prepared pair and returns at once.
  PendingPair start(const BenchPair& pair, PreparedPair prepared);

  // Waits for the pair's builds and measures it (the context made at the first call). A side that
  // does not compile is a `failed` measurement (a reference that does not is the reference's
  // blame); an Error where nothing can run (no context, no support kernels).
  Result<bench::Measurement> measure(PendingPair& pending, const bench::RunnerOptions& options);

  const std::string& arch() const;

  // Where this process's time went so far, for `bench --timings`: "driver 0.121 s, NVRTC 0.043 s,
  // context 0.210 s, ..." (each step's own seconds; waits on the compiles are what they did not
  // overlap).
  std::string timings() const;

 private:
  struct State;
  explicit MeasuringProcess(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

}  // namespace kforecast::measure
