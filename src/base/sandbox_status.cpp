// SPDX-License-Identifier: Apache-2.0
#include "base/sandbox_status.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "base/process_confinement.hpp"

namespace kforecast {
namespace {

constexpr std::uint64_t probe_cpu_seconds = 3600;

// What the child sends back, one layer a line: "NAME\t1|0\tDETAIL".
std::string line(std::string_view name, bool in_force, std::string_view detail) {
  return fmt::format("{}\t{}\t{}\n", name, in_force ? 1 : 0, detail);
}

int error_of(long result) { return result < 0 ? errno : 0; }

// The filter's rules, tried: an Internet socket refused, a UNIX one allowed, io_uring absent.
std::string check_filter(const NetworkStep& filter) {
  if (!filter.applied) return line("filter", false, filter.detail);
  const int inet = ::socket(AF_INET, SOCK_STREAM, 0);
  const int inet_error = error_of(inet);
  const int local = ::socket(AF_UNIX, SOCK_STREAM, 0);
  const int ring_error = error_of(syscall(SYS_io_uring_setup, 1, nullptr));
  if (inet >= 0) ::close(inet);
  if (local >= 0) ::close(local);
  if (inet_error != EACCES || local < 0 || ring_error != ENOSYS)
    return line("filter", false,
                fmt::format("the seccomp filter was installed but did not hold (an AF_INET socket: {}; AF_UNIX: {}; "
                            "io_uring: {})",
                            inet >= 0 ? "opened" : std::strerror(inet_error), local >= 0 ? "opened" : "refused",
                            std::strerror(ring_error)));
  return line("filter", true, filter.detail);
}

// Runs in the forked child: confines itself as a compiler child does, with nothing readable,
// checks each layer and writes the lines to standard output (a pipe to the parent).
int probe_in_child() {
  Confinement confinement;
  confinement.max_memory_bytes = std::uint64_t{64} << 30;
  confinement.max_cpu_seconds = probe_cpu_seconds;
  const auto applied = confine_this_process(confinement);
  std::string lines;
  if (!applied) {
    lines = line("error", false, applied.error().message);
  } else {
    bool files = applied->files_confined;
    std::string files_detail = applied->detail;
    const int root = ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (files && root >= 0) {
      files = false;
      files_detail = "Landlock was applied but a folder outside its rules could still be read";
    }
    if (root >= 0) ::close(root);
    lines += line("files", files, files_detail);
    lines += check_filter(applied->network_filter);
    lines += line("namespace", applied->network_namespace.applied, applied->network_namespace.detail);
    const bool no_new_privs = ::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
    lines += line("privileges", no_new_privs,
                  !no_new_privs                  ? "no_new_privs did not hold"
                  : applied->capabilities_dropped ? "no_new_privs set, and root's capabilities dropped"
                                                  : "no_new_privs set: nothing run confined can gain privileges");
    rlimit cpu{};
    const bool limited = ::getrlimit(RLIMIT_CPU, &cpu) == 0 && cpu.rlim_max == probe_cpu_seconds;
    lines += line("limits", limited,
                  !limited                         ? "the CPU-time limit did not hold"
                  : address_space_limit_enforced() ? "memory, CPU-time and core-dump limits set"
                                                   : "CPU-time and core-dump limits set (no memory limit in this build)");
  }
  const char* data = lines.data();
  std::size_t left = lines.size();
  while (left > 0) {
    const ssize_t written = ::write(STDOUT_FILENO, data, left);
    if (written <= 0) return 1;
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  return 0;
}

void record(SandboxStatus& status, std::string_view text) {
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view entry = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const auto first = entry.find('\t');
    const auto second = entry.find('\t', first == std::string_view::npos ? entry.size() : first + 1);
    if (second == std::string_view::npos) continue;
    const std::string_view name = entry.substr(0, first);
    const Protection protection{entry.substr(first + 1, second - first - 1) == "1", std::string(entry.substr(second + 1))};
    if (name == "files") status.files = protection;
    if (name == "filter") status.network_filter = protection;
    if (name == "namespace") status.network_namespace = protection;
    if (name == "privileges") status.no_new_privs = protection;
    if (name == "limits") status.limits = protection;
    if (name == "error")
      for (Protection* each : {&status.files, &status.network_filter, &status.network_namespace, &status.no_new_privs,
                               &status.limits})
        each->detail = "not applied: " + protection.detail;
  }
}

SandboxStatus unprobed(std::string_view why) {
  const Protection none{false, fmt::format("not known: {}", why)};
  return {none, none, none, none, none};
}

}  // namespace

bool SandboxStatus::confines_untrusted_code() const {
  return files.in_force && (network_filter.in_force || network_namespace.in_force);
}

std::string SandboxStatus::missing() const {
  std::string text;
  if (!files.in_force) text = files.detail;
  if (!network_filter.in_force && !network_namespace.in_force)
    text += fmt::format("{}the network is not blocked ({}; {})", text.empty() ? "" : "; ", network_filter.detail,
                        network_namespace.detail);
  return text;
}

std::string SandboxStatus::how_to_fix() const {
  const bool no_files = !files.in_force;
  const bool no_network = !network_filter.in_force && !network_namespace.in_force;
  if (!no_files && !no_network) return "";
  std::string fix = "run kforecast";
  if (no_files)
    fix += " on Linux 5.13 or later with Landlock enabled (Ubuntu 22.04 and later and GitHub's hosted runners have "
           "it; elsewhere add landlock to the kernel's lsm= boot parameter), outside a container whose seccomp profile "
           "refuses the landlock_* system calls";
  if (no_files && no_network) fix += ", and";
  if (no_network)
    fix += " where a seccomp filter can be installed (a kernel with CONFIG_SECCOMP_FILTER, a container that allows "
           "seccomp(2)) or a network namespace created (as root, or with unprivileged user namespaces enabled)";
  return fix;
}

SandboxStatus probe_sandbox() {
  std::array<int, 2> pipe_ends{};
  if (::pipe2(pipe_ends.data(), O_CLOEXEC) != 0) return unprobed(fmt::format("pipe: {}", std::strerror(errno)));
  const pid_t child = ::fork();
  if (child < 0) {
    const int error = errno;
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    return unprobed(fmt::format("fork: {}", std::strerror(error)));
  }
  if (child == 0) {
    // The confinement closes every descriptor but 0, 1 and 2: the pipe becomes standard output.
    if (::dup2(pipe_ends[1], STDOUT_FILENO) < 0) ::_exit(1);
    ::_exit(probe_in_child());
  }
  ::close(pipe_ends[1]);
  std::string text;
  std::array<char, 4096> buffer{};
  for (ssize_t got = 0; (got = ::read(pipe_ends[0], buffer.data(), buffer.size())) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(got));
  }
  ::close(pipe_ends[0]);
  int wait_status = 0;
  while (::waitpid(child, &wait_status, 0) < 0 && errno == EINTR) {
  }
  if (text.empty())
    return unprobed(WIFSIGNALED(wait_status) ? fmt::format("the probing child was killed by signal {}", WTERMSIG(wait_status))
                                             : "the probing child said nothing");
  SandboxStatus status;
  record(status, text);
  return status;
}

std::vector<SandboxLine> describe_sandbox(const SandboxStatus& status) {
  std::vector<SandboxLine> lines;
  if (status.confines_untrusted_code())
    lines.push_back({"sandbox", "in force: code of untrusted pull requests is compiled and run with file access "
                                "confined and no network"});
  else
    lines.push_back({"sandbox", fmt::format("NOT in force, so code of untrusted pull requests (forks) is not compiled "
                                            "or run here: their kernels are forecast from source only; trusted "
                                            "authors' and local runs compile unconfined. Missing: {}. To fix: {}",
                                            status.missing(), status.how_to_fix())});
  lines.push_back({"landlock", status.files.in_force
                                   ? status.files.detail
                                   : fmt::format("{}: a compiler or harness command could read any file this user "
                                                 "can (the CI's tokens in /proc among them, as root); run on Linux "
                                                 "5.13 or later with Landlock enabled",
                                                 status.files.detail)});
  lines.push_back({"seccomp", status.network_filter.in_force
                                  ? status.network_filter.detail
                                  : fmt::format("no network filter: {}", status.network_filter.detail)});
  std::string namespace_text = status.network_namespace.detail;
  if (!status.network_namespace.in_force)
    namespace_text += status.network_filter.in_force
                          ? " (the seccomp filter blocks the network without one)"
                          : "; run as root or enable unprivileged user namespaces (sysctl user.max_user_namespaces, "
                            "kernel.apparmor_restrict_unprivileged_userns on Ubuntu 24.04)";
  lines.push_back({"netns", namespace_text});
  lines.push_back({"privs", status.no_new_privs.detail});
  lines.push_back({"limits", status.limits.detail});
  return lines;
}

}  // namespace kforecast
