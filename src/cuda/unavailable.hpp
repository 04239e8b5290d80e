// SPDX-License-Identifier: Apache-2.0
#pragma once

// A missing capability (no NVRTC, no driver, no GPU) as a typed value: callers degrade (forecast
// without compiler facts, skip benchmarks) and tell the user what to install or set.

#include <string>
#include <vector>

#include "base/error.hpp"

namespace kforecast::cuda {

// One library the loader tried, and why it did not serve (dlerror(), a missing symbol, ...).
struct LoadAttempt {
  std::string path;
  std::string error;
};

struct Unavailable {
  std::string what;         // "NVRTC not found", "the CUDA driver found is a stub library (...)"
  std::string consequence;  // "benchmarks skipped"
  std::string fix;          // "install the NVIDIA driver or run on a GPU runner"
  std::vector<LoadAttempt> tried;

  // "WHAT (tried A, B, C and 21 more): CONSEQUENCE; FIX", one line.
  std::string message() const;
  // One line per attempt, "PATH: ERROR", for `doctor --verbose` and bug reports.
  std::string details() const;
  Error to_error(ExitCode code = ExitCode::could_not_run) const;
};

}  // namespace kforecast::cuda
