// SPDX-License-Identifier: Apache-2.0
#pragma once

// The real outside world handed to the gate (gate/outside.hpp): NVRTC confined in a child, the
// CUDA driver, the configured forecaster (libcurl for an LLM), the benchmark child, the clock,
// and the command's streams and progress. Built once per command, here and nowhere else.

#include "base/sandbox_status.hpp"
#include "cli/command.hpp"
#include "config/config.hpp"
#include "gate/outside.hpp"

namespace kforecast::cli {

// `config` must outlive the result.
gate::Outside real_outside(const config::Config& config, Context& context);

// What confines code under review on this machine (base/sandbox_status.hpp), probed the first
// time it is asked for and kept for the rest of the command.
const SandboxStatus& this_machine_sandbox();

}  // namespace kforecast::cli
