// SPDX-License-Identifier: Apache-2.0
// The network filter holds whatever system-call table a confined child reaches for: on x86_64 a
// 64-bit process can still make 32-bit calls (`int 0x80`, where the kernel emulates i386, whose
// `socketcall` opens sockets under another number) and x32 calls (numbers with bit 30 set, where
// the kernel enables x32). Each is refused in a confined child. Skipped (77) where this machine
// offers neither to an unconfined process (so a refusal would prove nothing), or refuses a seccomp
// filter.
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <catch2/catch.hpp>

#include "base/process_confinement.hpp"
#include "support/requirement.hpp"

using namespace kforecast;

namespace {

#if defined(__x86_64__)
// An i386 system call through `int 0x80`: the raw result (a negative errno on failure).
long i386_call(long number, long a = 0, long b = 0, long c = 0) {
  long result = number;
  asm volatile("int $0x80" : "+a"(result) : "b"(a), "c"(b), "d"(c) : "memory");
  return result;
}
constexpr long i386_getpid = 20;
constexpr long i386_socket = 359;
constexpr long i386_socketcall = 102;
constexpr long x32_bit = 0x40000000;
// x32 numbers are x86_64's for these two.
long x32_call(long number, long a = 0, long b = 0, long c = 0) { return syscall(number | x32_bit, a, b, c); }
bool i386_works() { return i386_call(i386_getpid) == ::getpid(); }
bool x32_works() { return x32_call(SYS_getpid) == ::getpid(); }
#else
long i386_call(long, long = 0, long = 0, long = 0) { return -ENOSYS; }
long x32_call(long, long = 0, long = 0, long = 0) { return -1; }
constexpr long i386_getpid = 0, i386_socket = 0, i386_socketcall = 0;
bool i386_works() { return false; }
bool x32_works() { return false; }
#endif

template <class Check>
int in_confined_child(Check check) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    Confinement confinement;
    confinement.readable = {"/"};
    if (!confine_this_process(confinement)) ::_exit(90);
    ::_exit(check());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (!i386_works() && !x32_works())
    return std::string("this kernel offers a 64-bit process neither i386 (int 0x80) nor x32 system calls");
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && install_network_filter(SocketAccess::unix_only).applied ? 0 : 1);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::string("this machine refuses a seccomp filter");
  return std::nullopt;
}

TEST_CASE("network confinement ABI: 32-bit calls are refused in a confined child, socket and socketcall among them") {
  if (!i386_works()) {
    WARN("no i386 emulation here; the x32 case below is the one checked");
    return;
  }
  const int status = in_confined_child([] {
    if (i386_call(i386_getpid) != -ENOSYS) return 1;
    if (i386_call(i386_socket, AF_INET, SOCK_STREAM, 0) != -ENOSYS) return 2;
    return i386_call(i386_socketcall, 1, 0) == -ENOSYS ? 0 : 3;
  });
  CHECK(status == 0);
}

TEST_CASE("network confinement ABI: x32 calls are refused in a confined child") {
  if (!x32_works()) {
    WARN("no x32 here; the i386 case above is the one checked");
    return;
  }
  const int status = in_confined_child([] {
    if (x32_call(SYS_getpid) != -1 || errno != ENOSYS) return 1;
    return x32_call(SYS_socket, AF_INET, SOCK_STREAM, 0) == -1 && errno == ENOSYS ? 0 : 2;
  });
  CHECK(status == 0);
}
