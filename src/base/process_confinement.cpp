// SPDX-License-Identifier: Apache-2.0
#include "base/process_confinement.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

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

}  // namespace

ConfinementApplied file_confinement_support() {
  const long abi = landlock_abi();
  if (abi < 0)
    return {false, fmt::format("Landlock unavailable ({}): compilers read only what kforecast resolved, but the "
                               "operating system does not enforce it",
                               errno == EOPNOTSUPP ? "disabled in this kernel" : std::strerror(errno))};
  return {true, fmt::format("Landlock ABI {}", abi)};
}

Result<ConfinementApplied> confine_this_process(const Confinement& confinement) {
  if (limit_address_space)
    if (auto ok = set_limit(RLIMIT_AS, confinement.max_memory_bytes, "memory"); !ok) return std::unexpected(ok.error());
  if (auto ok = set_limit(RLIMIT_CPU, confinement.max_cpu_seconds, "CPU time"); !ok) return std::unexpected(ok.error());
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return fail(ExitCode::could_not_run, fmt::format("cannot set no_new_privs: {}", std::strerror(errno)));

  ConfinementApplied applied = file_confinement_support();
  if (!applied.files_confined) return applied;
  const long abi = landlock_abi();
  const std::uint64_t handled = handled_rights(abi);
  landlock_ruleset_attr attributes{};
  attributes.handled_access_fs = handled;
  const long ruleset = syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
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
