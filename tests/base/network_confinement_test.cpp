// SPDX-License-Identifier: Apache-2.0
// A confined process cannot reach the network: no Internet socket (a listener on loopback in the
// test's own process never hears from it), no io_uring, no descriptor taken from another process
// or left open by its parent; a UNIX socket still works where the confinement allows one. Each
// check runs in a forked child, since confinement lasts for the life of the process. Skipped (77)
// where this machine refuses a seccomp filter (then base/sandbox_status.hpp reports it).
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <catch2/catch.hpp>

#include "base/process_confinement.hpp"
#include "support/requirement.hpp"

using namespace kforecast;

namespace {

// Runs `check` in a forked child; its exit code (0: as expected) comes back.
template <class Check>
int in_child(Check check) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(check());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

Confinement everything_readable(SocketAccess sockets = SocketAccess::unix_only) {
  Confinement confinement;
  confinement.readable = {"/"};
  confinement.sockets = sockets;
  return confinement;
}

// A TCP listener on a loopback address of the test's own network namespace.
struct Listener {
  explicit Listener(int address_family) : family(address_family) {
    fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    if (family == AF_INET) {
      auto& v4 = reinterpret_cast<sockaddr_in&>(address);
      v4.sin_family = AF_INET;
      v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      size = sizeof v4;
    } else {
      auto& v6 = reinterpret_cast<sockaddr_in6&>(address);
      v6.sin6_family = AF_INET6;
      v6.sin6_addr = in6addr_loopback;
      size = sizeof v6;
    }
    bound = ::bind(fd, reinterpret_cast<sockaddr*>(&address), size) == 0 && ::listen(fd, 4) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0;
  }
  ~Listener() { ::close(fd); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // The errno of a connection attempt from this process (0: connected).
  int connect_from_here() const {
    const int client = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (client < 0) return errno;
    const int result = ::connect(client, reinterpret_cast<const sockaddr*>(&address), size);
    const int error = result == 0 ? 0 : errno;
    ::close(client);
    return error;
  }
  bool heard_anyone() const {
    const int accepted = ::accept(fd, nullptr, nullptr);
    if (accepted >= 0) ::close(accepted);
    return accepted >= 0;
  }

  int family;
  int fd = -1;
  bool bound = false;
  sockaddr_storage address{};
  socklen_t size = 0;
};

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() {
  const int status = in_child([] {
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return 1;
    return install_network_filter(SocketAccess::unix_only).applied ? 0 : 2;
  });
  if (status != 0) return std::string("this machine refuses a seccomp filter (kforecast doctor says why)");
  return std::nullopt;
}

TEST_CASE("network confinement: a confined child opens no Internet socket and reaches no loopback listener") {
  for (const int family : {AF_INET, AF_INET6}) {
    INFO((family == AF_INET ? "AF_INET" : "AF_INET6"));
    Listener listener(family);
    if (!listener.bound) {
      WARN("no loopback address of this family here; the socket call alone is checked");
    } else {
      REQUIRE(listener.connect_from_here() == 0);  // unconfined, the listener is reachable
      REQUIRE(listener.heard_anyone());
    }
    const int status = in_child([&] {
      if (!confine_this_process(everything_readable())) return 90;
      if (::socket(family, SOCK_STREAM, 0) >= 0 || errno != EACCES) return 1;
      if (::socket(family, SOCK_DGRAM, 0) >= 0 || errno != EACCES) return 2;
      return listener.bound && listener.connect_from_here() == 0 ? 3 : 0;
    });
    CHECK(status == 0);
    if (listener.bound) CHECK_FALSE(listener.heard_anyone());
  }
}

TEST_CASE("network confinement: a UNIX socket still works where allowed, and not where the confinement says none") {
  const auto unix_pair_works = [] {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return false;
    const bool passed = ::write(pair[0], "x", 1) == 1 && [&] {
      char c = 0;
      return ::read(pair[1], &c, 1) == 1 && c == 'x';
    }();
    ::close(pair[0]);
    ::close(pair[1]);
    return passed;
  };
  CHECK(in_child([&] {
          if (!confine_this_process(everything_readable())) return 90;
          if (!unix_pair_works()) return 1;
          const int local = ::socket(AF_UNIX, SOCK_DGRAM, 0);
          return local >= 0 ? 0 : 2;
        }) == 0);
  CHECK(in_child([&] {
          if (!confine_this_process(everything_readable(SocketAccess::none))) return 90;
          if (unix_pair_works()) return 1;
          if (::socket(AF_UNIX, SOCK_STREAM, 0) >= 0 || errno != EACCES) return 2;
          return ::socket(AF_NETLINK, SOCK_RAW, 0) >= 0 ? 3 : 0;
        }) == 0);
}

TEST_CASE("network confinement: io_uring, another process's descriptors and inherited ones are out of reach") {
  const int inherited = ::open("/dev/null", O_RDONLY);  // no close-on-exec, as a careless parent leaves one
  REQUIRE(inherited >= 3);
  const int status = in_child([&] {
    if (!confine_this_process(everything_readable())) return 90;
    if (syscall(SYS_io_uring_setup, 1, nullptr) != -1 || errno != ENOSYS) return 1;
    if (syscall(SYS_io_uring_enter, 0, 0, 0, 0, nullptr, 0) != -1 || errno != ENOSYS) return 2;
    if (syscall(SYS_io_uring_register, 0, 0, nullptr, 0) != -1 || errno != ENOSYS) return 3;
    if (syscall(SYS_pidfd_getfd, 0, 0, 0) != -1 || errno != EPERM) return 4;
    if (::fcntl(inherited, F_GETFD) != -1 || errno != EBADF) return 5;
    return 0;
  });
  ::close(inherited);
  CHECK(status == 0);
}

TEST_CASE("network confinement: a confined child keeps no capability, even as root") {
  const int status = in_child([] {
    if (!confine_this_process(everything_readable())) return 90;
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
    if (syscall(SYS_capget, &header, data) != 0) return 1;
    for (const auto& set : data)
      if (set.effective != 0 || set.permitted != 0 || set.inheritable != 0) return 2;
    // Root would get its bounding set back by running a program: it must be empty too.
    if (::geteuid() == 0 && ::prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0) return 3;
    return ::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : 4;
  });
  CHECK(status == 0);
}
