// SPDX-License-Identifier: Apache-2.0
#pragma once

// Running another program (git, the agent re-executing itself) and collecting its output.
// No shell is involved: arguments are passed as they are, so untrusted paths cannot inject.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hpp"

namespace kforecast {

struct ProcessOutput {
  int exit_status = -1;  // the exit code, or 128 + signal number when killed by a signal
  std::string out;
  std::string err;
  // The signal that killed it; nullopt where it exited (an exit code above 128, such as nvcc's
  // 255, is not a signal).
  std::optional<int> signal;
};

struct ProcessOptions {
  std::string working_directory;         // empty: the current one
  std::string input;                     // written to the child's standard input
  std::chrono::milliseconds timeout{0};  // 0: no limit; past it the child is killed
  // The child's whole environment, "NAME=VALUE" each; nullopt: this process's. A child that
  // handles hostile input gets one without the CI's secrets.
  std::optional<std::vector<std::string>> environment;
  std::size_t max_output_bytes = 0;  // standard output and error together; 0: no limit; past it the child is killed
};
// "SIGKILL", "SIGXCPU, the CPU-time limit", "signal 7": a signal as a report names it.
std::string signal_name(int signal);

// Runs argv[0] (searched on PATH) to completion. An Error only when the program could not be
// started, timed out or wrote more than allowed; a non-zero exit is a normal result the caller judges.

Result<ProcessOutput> run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

}  // namespace kforecast
