// SPDX-License-Identifier: Apache-2.0
#pragma once

// capture.command (docs/design/capture.md): when `pr`, on a machine with a GPU, must measure a
// kernel that has neither a launch spec nor a capture, it records the launches itself. The base
// revision is checked out in kforecast's cache and built with capture.build (harness/built_tree.hpp:
// a harness with the same build shares the tree), then capture.command runs there under the
// capture library (capture/capture_request.hpp's environment: CUDA_INJECTION64_PATH,
// KFORECAST_CAPTURE_DIR naming the folder to write, the limits), confined as a harness's commands
// are (harness/shell_runner.hpp). The command is the base revision's config's, never the head's,
// and it runs the base's program, so the base chooses the problem as its spec would. The launches
// are kept in the cache by the base's tree hash and the two commands: a later run on the same
// base reuses them. A build or command that fails, or runs past capture.timeout_seconds, is an
// Error for the kernels that needed it, never the run's failure.

#include <filesystem>
#include <functional>
#include <string>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "config/config.hpp"
#include "measure/capture_choice.hpp"
#include "measure/project_programs.hpp"
#include "harness/shell_runner.hpp"

namespace kforecast::measure {

struct CaptureCommandSettings {
  std::string command;  // capture.command; "": none
  std::string build;    // capture.build; "": nothing to build
  double timeout_seconds = 600;
};
CaptureCommandSettings capture_command_settings(const config::Config& config);

struct CaptureCommandRequest {
  const CaptureCommandSettings& settings;
  std::filesystem::path repository;  // the checkout whose objects hold the base commit
  std::string base_commit;
  std::filesystem::path trees;     // where worktrees are kept (the harness's cache)
  std::filesystem::path captures;  // where recorded launches are kept, one folder per tree and commands
  std::filesystem::path injection_library;
  EnvLookup env;  // CUDA_MODULE_LOADING, where the user chose one
};

struct CommandCaptures {
  std::filesystem::path folder;  // the launches, in capture.dir's layout
  bool reused = false;           // recorded by an earlier run
  std::string summary;           // "3 launches of 2 kernels"
};

Result<CommandCaptures> run_capture_command(const CaptureCommandRequest& request, const harness::ShellRunner& shell);

// The run's capture.command, for `pr`: both revisions must be commits (the base is built; the
// same rule as a harness's), `programs` must have a shell runner and the capture library, and
// the command must succeed. The folders name the command's captures for both sides, their
// origin the base revision; an Error says why there are none ("capture.command failed (exit 2):
// LAST LINE").
Result<CaptureFolders> command_capture_folders(const std::string& base, const std::string& head,
                                               const CaptureCommandSettings& settings,
                                               const std::filesystem::path& repository,
                                               const ProjectPrograms& programs);

}  // namespace kforecast::measure
