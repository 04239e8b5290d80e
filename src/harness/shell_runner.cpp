// SPDX-License-Identifier: Apache-2.0
#include "harness/shell_runner.hpp"

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

// What a benchmark that runs on the GPU needs besides, on a machine with NVIDIA's device nodes:
// the nodes (read and written) and /sys, /proc readable and writable. Found on an H200 by
// narrowing: the CUDA runtime writes its own /proc/PID entries (without that, cudaMalloc fails
// with "OS call failed"), and a rule cannot name a process not yet started, so /proc is allowed
// whole. What then keeps a benchmark of the head's code from kforecast's own /proc entries (its
// environment holds the CI's tokens) is that kforecast is not dumpable while it runs one: the
// kernel refuses a process of the same user another's environment and memory. Where no GPU node
// exists, none of this is allowed.
struct GpuAccess {
  std::vector<std::filesystem::path> readable, writable;
};

GpuAccess gpu_access() {
  GpuAccess access;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", ec))
    if (entry.path().filename().string().starts_with("nvidia")) access.writable.push_back(entry.path());
  if (access.writable.empty()) return access;
  access.readable = {"/sys", "/usr/local/cuda", "/etc/OpenCL"};
  access.writable.insert(access.writable.end(), {"/proc", "/dev/shm"});
  return access;
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
    confinement.readable.insert(confinement.readable.end(), command.readable.begin(), command.readable.end());
    const auto gpu = gpu_access();
    confinement.readable.insert(confinement.readable.end(), gpu.readable.begin(), gpu.readable.end());
    for (auto& folder : path_folders()) confinement.readable.push_back(std::move(folder));
    // Shell redirections write to /dev/null.
    confinement.writable = {command.directory, command.scratch, "/dev/null"};
    confinement.writable.insert(confinement.writable.end(), gpu.writable.begin(), gpu.writable.end());
    // Same-user processes may read a dumpable process's /proc/PID/environ and memory: a benchmark
    // of the head's code must not reach kforecast's (the CI's tokens), so kforecast stops being
    // dumpable before it runs one (no core dumps of kforecast, nothing else changes).
    protect_this_process_from_its_children();
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
    for (const auto& [name, value] : command.environment) options.environment->push_back(name + "=" + value);
    return run_process(argv, options);
  };
}

}  // namespace kforecast::harness
