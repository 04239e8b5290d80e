// SPDX-License-Identifier: Apache-2.0
#include "base/process_confinement.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace kforecast {
namespace {

// AddressSanitizer reserves terabytes of shadow address space when a process starts, so an
// address-space limit stops the sanitizer build's children before main; that build (tests only,
// never shipped) runs them without one.
#ifdef KF_SANITIZED
constexpr bool limit_address_space = false;
#else
constexpr bool limit_address_space = true;
#endif

long landlock_abi() {
#ifdef SYS_landlock_create_ruleset
  return syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
#else
  errno = ENOSYS;
  return -1;
#endif
}

// The file-system rights each Landlock ABI knows; a ruleset must name only those.
std::uint64_t handled_rights(long abi) {
  std::uint64_t rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
                         LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                         LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                         LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                         LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) rights |= 1ULL << 13;  // LANDLOCK_ACCESS_FS_REFER
  if (abi >= 3) rights |= 1ULL << 14;  // LANDLOCK_ACCESS_FS_TRUNCATE
  return rights;
}

// Landlock's ruleset attributes as Linux 6.12 knows them; a kernel reads as many fields as the
// size handed in says, so an older one is given only those it knows.
struct RulesetAttributes {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;  // ABI 4
  std::uint64_t scoped = 0;              // ABI 6
};
constexpr std::uint64_t net_bind_tcp = 1ULL << 0;
constexpr std::uint64_t net_connect_tcp = 1ULL << 1;
constexpr std::uint64_t scope_abstract_unix_socket = 1ULL << 0;
constexpr std::uint64_t scope_signal = 1ULL << 1;

RulesetAttributes ruleset_attributes(long abi, std::size_t& size) {
  RulesetAttributes attributes;
  attributes.handled_access_fs = handled_rights(abi);
  size = sizeof attributes.handled_access_fs;
  if (abi >= 4) {
    // Handled without a rule that allows any: no TCP connection or listening port at all.
    attributes.handled_access_net = net_bind_tcp | net_connect_tcp;
    size += sizeof attributes.handled_access_net;
  }
  if (abi >= 6) {
    // No abstract UNIX socket made outside (a session bus, a daemon's), no signal to a process
    // outside (kforecast itself, or anything else of the same user).
    attributes.scoped = scope_abstract_unix_socket | scope_signal;
    size += sizeof attributes.scoped;
  }
  return attributes;
}

std::string landlock_detail(long abi) {
  if (abi >= 6) return fmt::format("Landlock ABI {}: files, TCP, abstract UNIX sockets and signals confined", abi);
  if (abi >= 4) return fmt::format("Landlock ABI {}: files and TCP confined", abi);
  return fmt::format("Landlock ABI {}: files confined", abi);
}

constexpr std::uint64_t read_rights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr std::uint64_t file_rights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE;

Result<void> set_limit(int resource, std::uint64_t value, const char* what) {
  if (value == 0) return {};
  const rlimit limit{value, value};
  if (setrlimit(resource, &limit) != 0)
    return fail(ExitCode::could_not_run, fmt::format("cannot limit {}: {}", what, std::strerror(errno)));
  return {};
}

// One rule: `rights` beneath `path` (a folder), or the file rights among them (a file).
Result<void> allow(int ruleset, const std::filesystem::path& path, std::uint64_t rights, std::uint64_t handled) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return {};  // nothing there to allow
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) rights &= file_rights;
  landlock_path_beneath_attr rule{};
  rule.allowed_access = rights & handled;
  rule.parent_fd = fd;
  const long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  const int saved = errno;
  ::close(fd);
  if (added != 0)
    return fail(ExitCode::could_not_run,
                fmt::format("Landlock refused a rule for {}: {}", path.string(), std::strerror(saved)));
  return {};
}

// A descriptor the parent left open without close-on-exec (a connected socket, say) would reach
// around the network rules: only standard input, output and error stay.
void close_inherited_descriptors() {
  if (::close_range(3, ~0U, 0) == 0) return;
  const long most = ::sysconf(_SC_OPEN_MAX);
  for (long fd = 3; fd < (most > 0 ? std::min(most, 65536L) : 1024L); ++fd) ::close(static_cast<int>(fd));
}

// Root's capabilities (loading a kernel module, raw I/O, tracing any process) reach around every
// other layer, and a root process that runs a program gets back what its bounding set holds: the
// bounding set, the ambient set and the process's own sets are emptied. Without CAP_SETPCAP (a
// process that is not root) there is nothing to drop. True where something was held.
bool drop_capabilities() {
  bool held = false;
  for (int capability = 0; ::prctl(PR_CAPBSET_READ, capability, 0, 0, 0) >= 0; ++capability)
    if (::prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) == 0) held = true;
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> data{};
  if (syscall(SYS_capget, &header, data.data()) == 0)
    for (const auto& set : data) held = held || set.effective != 0 || set.permitted != 0;
  data = {};
  syscall(SYS_capset, &header, data.data());
  return held;
}

}  // namespace

ConfinementApplied file_confinement_support() {
  const long abi = landlock_abi();
  if (abi < 0) {
    const int error = errno;
    return {false,
            fmt::format("Landlock unavailable ({})",
                        error == EOPNOTSUPP ? "built into this kernel but not enabled at boot"
                        : error == ENOSYS   ? "this kernel lacks it, or a container's seccomp profile refuses its "
                                              "system calls"
                                            : std::strerror(error)),
            {},
            {},
            false};
  }
  return {true, landlock_detail(abi), {}, {}, false};
}

Result<ConfinementApplied> confine_this_process(const Confinement& confinement) {
  if (limit_address_space)
    if (auto ok = set_limit(RLIMIT_AS, confinement.max_memory_bytes, "memory"); !ok) return std::unexpected(ok.error());
  if (auto ok = set_limit(RLIMIT_CPU, confinement.max_cpu_seconds, "CPU time"); !ok) return std::unexpected(ok.error());
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  close_inherited_descriptors();
  ConfinementApplied applied = file_confinement_support();
  // Before the capabilities go: as root, the namespace needs CAP_SYS_ADMIN.
  applied.network_namespace = enter_empty_network_namespace();
  applied.capabilities_dropped = drop_capabilities();
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return fail(ExitCode::could_not_run, fmt::format("cannot set no_new_privs: {}", std::strerror(errno)));
  applied.network_filter = install_network_filter(confinement.sockets);

  if (!applied.files_confined) return applied;
  const long abi = landlock_abi();
  const std::uint64_t handled = handled_rights(abi);
  std::size_t size = 0;
  const RulesetAttributes attributes = ruleset_attributes(abi, size);
  const long ruleset = syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
  if (ruleset < 0)
    return fail(ExitCode::could_not_run, fmt::format("cannot create a Landlock ruleset: {}", std::strerror(errno)));
  const int fd = static_cast<int>(ruleset);
  for (const auto& path : confinement.readable)
    if (auto ok = allow(fd, path, read_rights, handled); !ok) {
      ::close(fd);
      return std::unexpected(ok.error());
    }
  for (const auto& path : confinement.writable)
    if (auto ok = allow(fd, path, handled, handled); !ok) {
      ::close(fd);
      return std::unexpected(ok.error());
    }
  const long restricted = syscall(SYS_landlock_restrict_self, fd, 0);
  const int saved = errno;
  ::close(fd);
  if (restricted != 0)
    return fail(ExitCode::could_not_run, fmt::format("cannot apply the Landlock ruleset: {}", std::strerror(saved)));
  return applied;
}

bool address_space_limit_enforced() { return limit_address_space; }

void protect_this_process_from_its_children() { prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

}  // namespace kforecast
