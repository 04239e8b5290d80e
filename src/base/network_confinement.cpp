// SPDX-License-Identifier: Apache-2.0
#include "base/network_confinement.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace kforecast {
namespace {

// The one ABI the filter lets through. A process of another (a 32-bit program, or a 64-bit one
// making `int 0x80` calls) would use another system-call table, where the numbers below mean
// other calls and `socketcall` opens sockets: every call of it is refused.
#if defined(__x86_64__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_X86_64;
// x32 calls arrive with the x86_64 arch and this bit set in the number.
constexpr bool x32_exists = true;
#elif defined(__aarch64__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_AARCH64;
constexpr bool x32_exists = false;
#else
#error "the network filter knows the system calls of x86_64 and aarch64 only"
#endif
constexpr std::uint32_t x32_syscall_bit = 0x40000000;
// The family test below reads the first argument's low 32 bits at its address.
static_assert(std::endian::native == std::endian::little);

// A forward-only BPF program with named jump targets, resolved when it is finished.
// Every jump goes forward and lands within 255 instructions (the program is a few dozen long).
enum class Label { allow, check_family, refuse_eacces, refuse_enosys, refuse_eperm, count };

class FilterProgram {
 public:
  void load(std::size_t offset) { m_code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<std::uint32_t>(offset))); }
  void jump_if(std::uint16_t test, std::uint32_t value, Label target) {
    m_jumps.push_back({m_code.size(), target});
    m_code.push_back(BPF_JUMP(BPF_JMP | test | BPF_K, value, 0, 0));
  }
  void jump_unless_equal(std::uint32_t value, Label target) {
    m_unless.push_back({m_code.size(), target});
    m_code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 0));
  }
  void mark(Label label) { m_labels[static_cast<std::size_t>(label)] = m_code.size(); }
  void give(std::uint32_t action) { m_code.push_back(BPF_STMT(BPF_RET | BPF_K, action)); }

  // The program with every jump pointing at its label.
  std::vector<sock_filter> finish() {
    const auto distance = [&](const Jump& jump) {
      return m_labels[static_cast<std::size_t>(jump.target)] - (jump.at + 1);
    };
    for (const auto& jump : m_jumps) m_code[jump.at].jt = static_cast<std::uint8_t>(distance(jump));
    for (const auto& jump : m_unless) m_code[jump.at].jf = static_cast<std::uint8_t>(distance(jump));
    return m_code;
  }

 private:
  struct Jump {
    std::size_t at;
    Label target;
  };
  std::vector<sock_filter> m_code;
  std::vector<Jump> m_jumps, m_unless;
  std::array<std::size_t, static_cast<std::size_t>(Label::count)> m_labels{};
};

constexpr std::uint32_t refuse(int error) { return SECCOMP_RET_ERRNO | (static_cast<std::uint32_t>(error) & SECCOMP_RET_DATA); }

std::vector<sock_filter> network_filter(SocketAccess sockets) {
  FilterProgram program;
  program.load(offsetof(seccomp_data, arch));
  program.jump_unless_equal(native_arch, Label::refuse_enosys);
  program.load(offsetof(seccomp_data, nr));
  if (x32_exists) program.jump_if(BPF_JGE, x32_syscall_bit, Label::refuse_enosys);
  program.jump_if(BPF_JEQ, SYS_socket, Label::check_family);
  program.jump_if(BPF_JEQ, SYS_socketpair, Label::check_family);
  for (const long call : {SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register})
    program.jump_if(BPF_JEQ, static_cast<std::uint32_t>(call), Label::refuse_enosys);
  program.jump_if(BPF_JEQ, SYS_pidfd_getfd, Label::refuse_eperm);
  program.give(SECCOMP_RET_ALLOW);
  program.mark(Label::check_family);
  if (sockets == SocketAccess::unix_only) {
    // The family is an int: the kernel reads the argument's low 32 bits (little-endian: first).
    program.load(offsetof(seccomp_data, args));
    program.jump_if(BPF_JEQ, AF_UNIX, Label::allow);
  }
  program.mark(Label::refuse_eacces);
  program.give(refuse(EACCES));
  program.mark(Label::refuse_enosys);
  program.give(refuse(ENOSYS));
  program.mark(Label::refuse_eperm);
  program.give(refuse(EPERM));
  program.mark(Label::allow);  // an AF_UNIX socket
  program.give(SECCOMP_RET_ALLOW);
  return program.finish();
}

bool write_file(const char* path, std::string_view text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return written;
}

}  // namespace

NetworkStep install_network_filter(SocketAccess sockets) {
  auto code = network_filter(sockets);
  const sock_fprog program{static_cast<unsigned short>(code.size()), code.data()};
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0) {
    const int error = errno;
    return {false, fmt::format("the kernel refused a seccomp filter ({}){}", std::strerror(error),
                               error == EINVAL ? ": it lacks CONFIG_SECCOMP_FILTER"
                               : error == ENOSYS || error == EPERM
                                   ? ": seccomp(2) is not allowed here (a container's own filter refuses it)"
                                   : "")};
  }
  return {true, sockets == SocketAccess::none ? "seccomp filter: no socket, no io_uring"
                                              : "seccomp filter: no socket but AF_UNIX, no io_uring"};
}

NetworkStep enter_empty_network_namespace() {
  if (::unshare(CLONE_NEWNET) == 0) return {true, "an empty network namespace"};
  const int privileged = errno;
  // Without CAP_SYS_ADMIN: a user namespace of its own, in the same call so that a refusal
  // leaves the process as it was. The maps name only its own ids, so everything it owns stays
  // its own and everything else shows as the overflow id, with the same access as before.
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
    return {false, fmt::format("no network namespace: unshare refused it ({}), and a user namespace too ({})",
                               std::strerror(privileged), std::strerror(errno))};
  if (!write_file("/proc/self/setgroups", "deny") || !write_file("/proc/self/uid_map", fmt::format("{} {} 1", uid, uid)) ||
      !write_file("/proc/self/gid_map", fmt::format("{} {} 1", gid, gid)))
    return {true, fmt::format("an empty network namespace, in a user namespace whose id maps could not be written ({})",
                              std::strerror(errno))};
  return {true, "an empty network namespace, in a user namespace of its own"};
}

}  // namespace kforecast
