// SPDX-License-Identifier: Apache-2.0
#pragma once

// Everything the gate reaches outside itself, handed in once per command: the environment, where
// warnings and progress go, the compiler, the forecasters, the GPU and the clock. `cli` is the
// composition root that builds the real ones (dlopen and terminal detection happen there, once);
// tests build an Outside from fakes (tests/gate/run_gate_test.cpp).

#include <expected>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "base/progress.hpp"
#include "base/sandbox_status.hpp"
#include "bench/measurement.hpp"
#include "cuda/compiler.hpp"
#include "cuda/nvcc_unit.hpp"
#include "embedded/pair_features.hpp"
#include "gate/bench_child.hpp"
#include "gate/forecaster.hpp"
#include "gate/run_deadline.hpp"
#include "harness/harness_measure.hpp"
#include "harness/shell_runner.hpp"
#include "llm/kernel_prompt.hpp"

namespace kforecast::gate {

// Builds the forecaster once there is something to forecast, so a run with nothing to forecast
// reaches no endpoint and loads no libcurl. `features`: what the embedded forecaster reads beside
// the texts; `prompts` set: the LLM forecaster was asked for; `prompt_notes`: what the prompts had
// to go without (launch specs that could not be read). Errors for an LLM that is not configured.
using ForecasterFactory = std::function<Result<std::unique_ptr<Forecaster>>(
    const embedded::FeatureContext& features, std::optional<llm::PromptSet> prompts,
    std::vector<std::string> prompt_notes)>;

// Measures one pair in a fresh child process, a regression confirmed in a second
// (gate/bench_child.hpp); `progress` hears what the child is doing.
using PairMeasurer = std::function<Result<bench::Measurement>(
    const ChildRequest& request, const std::function<void(std::string_view)>& progress)>;

// Measures a kernel through the project's own benchmark harness (harness/harness_measure.hpp),
// its commands confined (harness/shell_runner.hpp).
using HarnessMeasurer = std::function<Result<bench::Measurement>(const harness::HarnessRequest& request,
                                                                 const harness::HarnessProgress& progress)>;

struct Outside {
  EnvLookup env;
  // Standard error: warnings, and the progress line where no Progress is lent.
  std::ostream& warnings;
  bool warnings_to_terminal = false;
  // The command's stage and counts (base/progress.hpp); nullptr: none.
  Progress* progress = nullptr;
  // NVRTC, confined (gate/compiler_loading.hpp), or why there is none.
  std::function<cuda::LoadedCompiler()> compiler;
  // The first local GPU's architecture and name, for cuda.arch = "auto"; nullopt: none visible.
  std::function<std::optional<std::pair<std::string, std::string>>()> local_gpu;
  ForecasterFactory forecaster;
  // Why no kernel can be measured here; nullopt when a GPU is usable.
  std::function<std::optional<std::string>()> gpu_unavailable;
  PairMeasurer measure_pair;
  // Now, as the ledger records it (UTC, ISO 8601).
  std::function<std::string()> now;
  // The project's own compiler of whole units (nvcc, confined: cuda/nvcc_unit.hpp), or why there
  // is none. Empty: none, and NVRTC alone compares machine code.
  std::function<std::expected<std::unique_ptr<cuda::UnitCompiler>, std::string>()> unit_compiler;
  // The project's harness ([[harness]] tables, gate/harness_step.hpp). Empty: none runs here, and
  // the kernels a harness maps go to the GPU path as any other.
  HarnessMeasurer measure_with_harness;
  // capture.command's runner (gate/capture_command_step.hpp): shell commands confined as the
  // harness's are, and where the capture library is. Empty: capture.command is not run here.
  harness::ShellRunner capture_shell;
  std::function<Result<std::filesystem::path>()> capture_library;
  // The run's wall budget (gate/run_deadline.hpp), counted from the command's start; default: none.
  RunDeadline deadline = {};
  // Which layers confine the compilers and harness commands on this machine, probed once by cli
  // (base/sandbox_status.hpp): an untrusted author's head is compiled and run only where they
  // suffice (gate/head_code_policy.hpp). Default: none, so nothing of such a head runs.
  SandboxStatus sandbox = {};
};

}  // namespace kforecast::gate
