// SPDX-License-Identifier: Apache-2.0
#include "harness/shell_runner.hpp"

#include <sys/prctl.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

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

// What a benchmark that runs on the GPU needs besides: the driver's device nodes (read and written),
// and the driver's and the system's descriptions of the hardware. Not /proc as a whole: another
// process's environment (kforecast's own, with the CI's tokens) stays out of reach.
std::vector<std::filesystem::path> gpu_readable() {
  return {"/sys", "/proc/driver/nvidia", "/proc/cpuinfo", "/proc/meminfo", "/proc/sys/vm", "/proc/self",
          "/usr/local/cuda", "/etc/OpenCL"};
}

std::vector<std::filesystem::path> gpu_writable() {
  std::vector<std::filesystem::path> nodes{"/dev/nvidia-caps", "/dev/shm"};
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", ec))
    if (entry.path().filename().string().starts_with("nvidia")) nodes.push_back(entry.path());
  return nodes;
}

// The build's PATH: kforecast's own (where the user's cmake, ninja and compilers are; a folder list
// is no secret), then the usual system folders and the CUDA toolkit's.
std::string build_path() {
  const char* own = std::getenv("PATH");
  std::string path = own != nullptr && *own != '\0' ? std::string(own) + ":" : "";
  return path + "/usr/local/bin:/usr/bin:/bin:/usr/local/cuda/bin";
}

// Each absolute folder of that PATH, readable (a tool installed in a virtual environment or under
// the user's home): the folders themselves, not their parents.
std::vector<std::filesystem::path> path_folders() {
  std::vector<std::filesystem::path> folders;
  const std::string path = build_path();
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const std::filesystem::path folder = path.substr(start, end - start);
    if (folder.is_absolute()) folders.push_back(folder);
    start = end + 1;
  }
  return folders;
}

}  // namespace

ShellRunner confined_shell_runner(std::string kforecast_program, std::vector<std::filesystem::path> extra_readable) {
  return [program = std::move(kforecast_program), extra = std::move(extra_readable)](
             const ShellCommand& command) -> Result<ProcessOutput> {
    Confinement confinement;
    confinement.readable = system_folders();
    confinement.readable.insert(confinement.readable.end(), extra.begin(), extra.end());
    confinement.readable.push_back(command.directory);
    for (auto& path : gpu_readable()) confinement.readable.push_back(std::move(path));
    for (auto& folder : path_folders()) confinement.readable.push_back(std::move(folder));
    // Shell redirections write to /dev/null.
    confinement.writable = {command.directory, command.scratch, "/dev/null"};
    for (auto& path : gpu_writable()) confinement.writable.push_back(std::move(path));
    // Same-user processes may read a dumpable process's /proc/PID/environ and memory: a benchmark
    // of the head's code must not reach kforecast's (the CI's tokens), so kforecast stops being
    // dumpable before it runs one (no core dumps of kforecast, nothing else changes).
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
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
    options.environment = std::vector<std::string>{"PATH=" + build_path(), "HOME=" + scratch, "TMPDIR=" + scratch,
                                                   "LC_ALL=C"};
    // The loader's path is no secret, and kforecast itself (the confining step runs it again) may
    // need it, where its shared libraries are not installed system-wide.
    if (const char* libraries = std::getenv("LD_LIBRARY_PATH"); libraries != nullptr && *libraries != '\0')
      options.environment->push_back(std::string("LD_LIBRARY_PATH=") + libraries);
    return run_process(argv, options);
  };
}

}  // namespace kforecast::harness
