// SPDX-License-Identifier: Apache-2.0
// kf_deny_syscalls [--deny-landlock] [--deny-userns] [--deny-seccomp] -- COMMAND ARGS...
//
// Runs COMMAND (searched on PATH) under a seccomp filter that refuses chosen system calls, the
// way a machine that lacks a layer of kforecast's sandbox refuses them, so tests can see what
// kforecast does there on any machine:
//   --deny-landlock  landlock_create_ruleset, _add_rule, _restrict_self fail with ENOSYS: a kernel
//                    without Landlock, or a container whose seccomp profile does not know it;
//   --deny-userns    unshare and clone asking for a new user or network namespace fail with
//                    EPERM, and clone3 (whose flags a filter cannot read) with ENOSYS, which makes
//                    the C library fall back to clone: a container, or user namespaces disabled;
//   --deny-seccomp   seccomp(2) and prctl(PR_SET_SECCOMP) fail with EPERM: a container that
//                    refuses nested filters.
// The filter passes to everything COMMAND starts. Test code: standard library and Linux only.

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_AARCH64;
#else
#error "kf_deny_syscalls knows x86_64 and aarch64"
#endif

constexpr std::uint32_t refuse(int error) { return SECCOMP_RET_ERRNO | static_cast<std::uint32_t>(error); }

// Appends: if the call is `call`, return `action`; else go on. With `flags`, only where the
// first argument (its low 32 bits) has one of them set.
void deny(std::vector<sock_filter>& code, long call, std::uint32_t action, std::uint32_t flags = 0) {
  if (flags == 0) {
    code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(call), 0, 1));
    code.push_back(BPF_STMT(BPF_RET | BPF_K, action));
    return;
  }
  code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(call), 0, 4));
  code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args)));
  code.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, flags, 0, 1));
  code.push_back(BPF_STMT(BPF_RET | BPF_K, action));
  code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));  // A again holds the call
}

int usage() {
  std::fputs("usage: kf_deny_syscalls [--deny-landlock] [--deny-userns] [--deny-seccomp] -- COMMAND ARGS...\n", stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool landlock = false, userns = false, seccomp = false;
  int at = 1;
  for (; at < argc && std::string_view(argv[at]) != "--"; ++at) {
    const std::string_view option = argv[at];
    if (option == "--deny-landlock")
      landlock = true;
    else if (option == "--deny-userns")
      userns = true;
    else if (option == "--deny-seccomp")
      seccomp = true;
    else
      return usage();
  }
  if (at + 1 >= argc) return usage();

  std::vector<sock_filter> code;
  code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, native_arch, 1, 0));
  code.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));  // another ABI: not this program's concern
  code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  if (landlock)
    for (const long call : {SYS_landlock_create_ruleset, SYS_landlock_add_rule, SYS_landlock_restrict_self})
      deny(code, call, refuse(ENOSYS));
  if (userns) {
    deny(code, SYS_unshare, refuse(EPERM), CLONE_NEWUSER | CLONE_NEWNET);
    deny(code, SYS_clone, refuse(EPERM), CLONE_NEWUSER | CLONE_NEWNET);
    deny(code, SYS_clone3, refuse(ENOSYS));
  }
  if (seccomp) {
    deny(code, SYS_seccomp, refuse(EPERM));
    code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 4));
    code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args)));
    code.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_SECCOMP, 0, 1));
    code.push_back(BPF_STMT(BPF_RET | BPF_K, refuse(EPERM)));
    code.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  }
  code.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));

  const sock_fprog program{static_cast<unsigned short>(code.size()), code.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
    std::fprintf(stderr, "kf_deny_syscalls: cannot install the filter: %s\n", std::strerror(errno));
    return 125;
  }
  execvp(argv[at + 1], argv + at + 1);
  std::fprintf(stderr, "kf_deny_syscalls: cannot run %s: %s\n", argv[at + 1], std::strerror(errno));
  return 127;
}
