// SPDX-License-Identifier: Apache-2.0
#pragma once
// A harness::ShellRunner for tests: `sh -c` in the command's folder with only the variables the
// real runner sets (plus the command's own), unconfined, counting its runs. What confinement
// adds is tested in tests/harness/shell_runner_confinement_test.cpp.

#include <string>
#include <vector>

#include "base/subprocess.hpp"
#include "harness/shell_runner.hpp"

namespace kforecast::test {

inline harness::ShellRunner plain_shell(int& runs) {
  return [&runs](const harness::ShellCommand& command) {
    ++runs;
    std::vector<std::string> environment{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + command.scratch.string(),
                                         "TMPDIR=" + command.scratch.string(), "LC_ALL=C"};
    for (const auto& [name, value] : command.environment) environment.push_back(name + "=" + value);
    return run_process({"/bin/sh", "-c", command.command},
                       {.working_directory = command.directory.string(), .timeout = command.timeout,
                        .environment = environment});
  };
}

}  // namespace kforecast::test
