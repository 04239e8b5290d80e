// SPDX-License-Identifier: Apache-2.0
// From Landlock ABI 6 a confined child is scoped: it cannot signal a process outside its domain
// (kforecast, or anything else of the same user) nor connect to an abstract UNIX socket made
// outside it (a session bus, a daemon's), though it may still signal its own. Skipped (77) below
// ABI 6. The child is kept out of a network namespace of its own (where no abstract socket of
// the parent's would be visible anyway) by a seccomp filter, as on a machine without one, so the
// scope is what refuses; skipped too where no filter can be installed.
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <catch2/catch.hpp>

#include "base/process_confinement.hpp"
#include "support/requirement.hpp"

using namespace kforecast;

namespace {

// unshare fails (EPERM) from here on: no namespace of its own for this process.
bool refuse_unshare() {
  sock_filter code[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  const sock_fprog program{static_cast<unsigned short>(std::size(code)), code};
  return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0;
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() {
  const auto support = file_confinement_support();
  if (!support.files_confined) return support.detail;
  if (support.detail.find("signals") == std::string::npos)
    return "Landlock below ABI 6 here (" + support.detail + "): no scoping of signals and abstract sockets";
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(refuse_unshare() ? 0 : 1);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return std::string("this machine refuses a seccomp filter, which keeps the child out of a namespace here");
  return std::nullopt;
}

TEST_CASE("landlock scope: a confined child signals no process outside, and reaches no abstract socket made outside") {
  const int server = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(server >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string name = "kforecast-scope-test-" + std::to_string(::getpid());
  std::memcpy(address.sun_path + 1, name.data(), name.size());  // abstract: a leading NUL
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  REQUIRE(::bind(server, reinterpret_cast<sockaddr*>(&address), size) == 0);
  REQUIRE(::listen(server, 4) == 0);

  const pid_t pid = ::fork();
  if (pid == 0) {
    Confinement confinement;
    confinement.readable = {"/"};
    if (!refuse_unshare()) ::_exit(91);
    const auto applied = confine_this_process(confinement);
    if (!applied || applied->network_namespace.applied) ::_exit(90);
    if (::kill(::getppid(), 0) == 0 || errno != EPERM) ::_exit(1);
    const int client = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (client < 0) ::_exit(2);
    if (::connect(client, reinterpret_cast<const sockaddr*>(&address), size) == 0 || errno != EPERM) ::_exit(3);
    // Its own processes stay within reach: the scope is the domain, not the process.
    if (::kill(::getpid(), 0) != 0) ::_exit(4);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(server);
  CHECK((WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status)) == 0);
}
