// SPDX-License-Identifier: Apache-2.0
#include "harness/shell_runner.hpp"

#include "base/confined_exec.hpp"
#include "base/process_confinement.hpp"

namespace kforecast::harness {
namespace {

// Far above a build's log; a program that writes more is stopped rather than filling memory.
constexpr std::size_t max_output_bytes = 64U << 20U;

// What a build may read besides its worktree: the system's programs, libraries, headers and
// CMake's and the compilers' data, all under these. /proc and /etc (but the loader's cache and
// the few files programs look names up in) stay out of reach.
std::vector<std::filesystem::path> system_folders() {
  return {"/usr",        "/lib",      "/lib64",       "/bin", "/sbin", "/etc/ld.so.cache", "/etc/alternatives",
          "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/dev/null", "/dev/urandom", "/dev/zero", "/opt"};
}

}  // namespace

ShellRunner confined_shell_runner(std::string kforecast_program, std::vector<std::filesystem::path> extra_readable) {
  return [program = std::move(kforecast_program), extra = std::move(extra_readable)](
             const ShellCommand& command) -> Result<ProcessOutput> {
    Confinement confinement;
    confinement.readable = system_folders();
    confinement.readable.insert(confinement.readable.end(), extra.begin(), extra.end());
    confinement.readable.push_back(command.directory);
    // Shell redirections write to /dev/null.
    confinement.writable = {command.directory, command.scratch, "/dev/null"};
    std::vector<std::string> argv = {program, std::string(confined_exec_command)};
    for (auto& argument : confined_exec_arguments(confinement, {"/bin/sh", "-c", command.command}))
      argv.push_back(std::move(argument));
    ProcessOptions options;
    options.working_directory = command.directory.string();
    options.timeout = command.timeout;
    options.max_output_bytes = max_output_bytes;
    // Nothing of kforecast's environment (the CI's tokens): a plain PATH, a home and temporary
    // folder of the run's own.
    const std::string scratch = command.scratch.string();
    options.environment = std::vector<std::string>{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + scratch,
                                                   "TMPDIR=" + scratch, "LC_ALL=C"};
    return run_process(argv, options);
  };
}

}  // namespace kforecast::harness
