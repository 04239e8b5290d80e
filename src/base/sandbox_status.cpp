// SPDX-License-Identifier: Apache-2.0
#include "base/sandbox_status.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string_view>

#include <fmt/format.h>

#include "base/process_confinement.hpp"
#include "base/subprocess.hpp"

namespace kforecast {
namespace {

constexpr std::uint64_t probe_cpu_seconds = 3600;

// LeakSanitizer reads /proc/self/task at exit, which the probe's Landlock rules keep it from: the
// sanitizer build (tests only) turns the child's leak check off.
#ifdef KF_SANITIZED
constexpr bool child_leak_check_off = true;
#else
constexpr bool child_leak_check_off = false;
#endif

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

// The namespace, checked: no interface with an address in it (the host's has at least its
// loopback). Asked through a UNIX socket, which the filter leaves.
std::string check_namespace(const NetworkStep& entered) {
  if (!entered.applied) return line("namespace", false, entered.detail);
  const int local = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  std::array<ifreq, 16> requests{};
  ifconf configuration{};
  configuration.ifc_len = static_cast<int>(sizeof requests);
  configuration.ifc_req = requests.data();
  const bool listed = local >= 0 && ::ioctl(local, SIOCGIFCONF, &configuration) == 0;
  if (local >= 0) ::close(local);
  if (listed && configuration.ifc_len > 0)
    return line("namespace", false,
                fmt::format("a network namespace was entered but it has {} interface(s) with an address",
                            static_cast<std::size_t>(configuration.ifc_len) / sizeof(ifreq)));
  return line("namespace", true, entered.detail);
}

}  // namespace

int run_sandbox_probe(std::ostream& out) {
  Confinement confinement;  // nothing readable, nothing writable
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
    lines += check_namespace(applied->network_namespace);
    const bool no_new_privs = ::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
    lines += line("privileges", no_new_privs,
                  !no_new_privs                  ? "no_new_privs did not hold"
                  : applied->capabilities_dropped ? "no_new_privs set, and every capability dropped"
                                                  : "no_new_privs set: nothing run confined can gain privileges");
    rlimit cpu{};
    const bool limited = ::getrlimit(RLIMIT_CPU, &cpu) == 0 && cpu.rlim_max == probe_cpu_seconds;
    lines += line("limits", limited,
                  !limited                         ? "the CPU-time limit did not hold"
                  : address_space_limit_enforced() ? "memory, CPU-time and core-dump limits set"
                                                   : "CPU-time and core-dump limits set (no memory limit in this build)");
  }
  out << lines << std::flush;
  return out ? 0 : 1;
}

namespace {

// The probe's lines into `status`; a layer the child did not say stays not in force.
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

SandboxStatus probe_sandbox(const std::string& kforecast_program) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(30);
  options.max_output_bytes = 64 << 10;
  // Nothing of this process's environment (the CI's tokens) but what starting it needs.
  options.environment = std::vector<std::string>{};
  if (const char* libraries = std::getenv("LD_LIBRARY_PATH"); libraries != nullptr && *libraries != '\0')
    options.environment->push_back(std::string("LD_LIBRARY_PATH=") + libraries);
  if (child_leak_check_off) options.environment->push_back("ASAN_OPTIONS=detect_leaks=0");
  auto ran = run_process({kforecast_program, std::string(sandbox_probe_command)}, options);
  if (!ran) return unprobed(ran.error().message);
  if (ran->out.empty())
    return unprobed(fmt::format("the probing child said nothing (exit status {}): {}", ran->exit_status,
                                ran->err.substr(0, 500)));
  SandboxStatus status;
  record(status, ran->out);
  return status;
}

std::vector<StatusLine> describe_sandbox(const SandboxStatus& status) {
  std::vector<StatusLine> lines;
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
