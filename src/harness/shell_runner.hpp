// SPDX-License-Identifier: Apache-2.0
#pragma once

// Running a harness's build and run commands: `sh -c COMMAND` in a revision's worktree. The
// commands are the base revision's config's, but what they build and run is the pull request's
// code, so the real runner confines them as kforecast confines nvcc (docs/security.md): the
// process re-executes kforecast as `__confined-exec` (Landlock: the system's folders readable, the
// worktree and a scratch folder writable, nothing else — not the checkout's .git, not the home
// folder), with an environment without the CI's secrets. Tests pass a runner of their own.

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "base/subprocess.hpp"

namespace kforecast::harness {

struct ShellCommand {
  std::string command;
  std::filesystem::path directory;  // the worktree (absolute)
  std::filesystem::path scratch;    // a writable folder for output files and temporaries (absolute)
  std::chrono::milliseconds timeout{0};
  // Added for this command alone: variables set in its clean environment (no secrets: the
  // capture library's path and limits) and files or folders it may read (that library).
  std::vector<std::pair<std::string, std::string>> environment;
  std::vector<std::filesystem::path> readable;
};

// The command's exit status and output, or an Error where it could not be started, ran past its
// timeout or wrote too much.
using ShellRunner = std::function<Result<ProcessOutput>(const ShellCommand& command)>;

// The real runner: `kforecast_program` (this executable) as __confined-exec, `sh -c` under it.
// `extra_readable`: further folders the build may read (a toolkit outside /usr, say).
ShellRunner confined_shell_runner(std::string kforecast_program, std::vector<std::filesystem::path> extra_readable = {});

}  // namespace kforecast::harness
