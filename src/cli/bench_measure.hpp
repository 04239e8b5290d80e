// SPDX-License-Identifier: Apache-2.0
#pragma once

// The work behind `kforecast bench`, in this process: read both kernels (a file, another file,
// or the same file at a git revision), find the launch spec, compile both with NVRTC for the
// local GPU, and measure (src/bench/runner.hpp). The command runs this in a child process.

#include "bench/measurement.hpp"
#include "bench/runner.hpp"
#include "cli/command.hpp"
#include "config/config.hpp"

namespace kforecast::cli {

struct BenchPair {
  std::string candidate;  // "FILE:KERNEL" as given
  std::string versus;     // --vs FILE[:KERNEL], or empty
  std::string against;    // --against REV, or empty
};

bench::RunnerOptions runner_options(const config::Config& config);

// A measurement, or an Error where the work could not start (no GPU: exit 3; a bad spec or
// kernel name: exit 2). A kernel that faults, disagrees or does not compile is a measurement
// with verdict `failed`.
Result<bench::Measurement> measure_here(const BenchPair& pair, const config::Config& config, const Context& context,
                                        const bench::RunnerOptions& options);

}  // namespace kforecast::cli
