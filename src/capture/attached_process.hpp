// SPDX-License-Identifier: Apache-2.0
#pragma once

// Runs the program under capture as the user would: its standard input, output and error are
// this process's (unlike base/subprocess, which collects them), with a few variables added.

#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"

namespace kforecast::capture {

// The program's exit status (128 + the signal number when a signal ended it), or an Error when
// it could not be started (not found, not executable).
Result<int> run_attached(const std::vector<std::string>& argv,
                         const std::vector<std::pair<std::string, std::string>>& added_environment);

}  // namespace kforecast::capture
