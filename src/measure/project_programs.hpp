// SPDX-License-Identifier: Apache-2.0
#pragma once

// What runs the project's own programs (capture.command, a [[harness]]'s build, list and run
// commands), handed in by the caller: cli's run them confined (harness/shell_runner.hpp); tests
// hand in a plain shell.

#include <filesystem>
#include <functional>
#include <optional>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "bench/measurement.hpp"
#include "harness/harness_measure.hpp"
#include "harness/shell_runner.hpp"

namespace kforecast::measure {

// Measures a kernel through the project's own benchmark harness (harness/harness_measure.hpp).
using HarnessMeasurer = std::function<Result<bench::Measurement>(const harness::HarnessRequest& request,
                                                                 const harness::HarnessProgress& progress)>;

struct ProjectPrograms {
  harness::ShellRunner shell;                                       // empty: no project program runs here
  // The project's harness ([[harness]] tables): empty: none runs here, and the kernels a harness
  // maps go to the GPU path as any other.
  HarnessMeasurer harness;
  std::function<Result<std::filesystem::path>()> capture_library;  // the injection library; empty: none
  std::optional<std::filesystem::path> trees;  // where revisions' worktrees are kept; nullopt: no cache folder
  EnvLookup env;                               // what a program's environment keeps (CUDA_MODULE_LOADING)
};

}  // namespace kforecast::measure
