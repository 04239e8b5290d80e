// SPDX-License-Identifier: Apache-2.0
// The second network layer: a child in an empty network namespace reaches no listener of the
// test's own namespace, whatever socket it opens (no filter here), and files it makes keep their
// owner. Skipped (77) where no namespace can be had (not root and no user namespaces): the seccomp
// filter alone then keeps the network out (network_confinement_test.cpp).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include <catch2/catch.hpp>

#include "base/network_confinement.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;

namespace {

template <class Check>
int in_child(Check check) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(check());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (in_child([] { return enter_empty_network_namespace().applied ? 0 : 1; }) != 0)
    return std::string("no network namespace can be had here (not root, and no user namespaces): kforecast doctor says why");
  return std::nullopt;
}

TEST_CASE("network namespace: a child in the empty namespace reaches no loopback listener of the parent's") {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  REQUIRE(listener >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), size) == 0);
  REQUIRE(::listen(listener, 4) == 0);
  REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size) == 0);
  const auto try_connect = [&] {
    const int client = ::socket(AF_INET, SOCK_STREAM, 0);
    if (client < 0) return false;
    const bool connected = ::connect(client, reinterpret_cast<const sockaddr*>(&address), size) == 0;
    ::close(client);
    return connected;
  };
  REQUIRE(in_child([&] { return try_connect() ? 0 : 1; }) == 0);  // before: reachable
  const int accepted = ::accept(listener, nullptr, nullptr);
  REQUIRE(accepted >= 0);
  ::close(accepted);

  const int status = in_child([&] {
    if (!enter_empty_network_namespace().applied) return 90;
    return try_connect() ? 1 : 0;  // lo is down in a new namespace: ENETUNREACH
  });
  CHECK(status == 0);
  CHECK(::accept(listener, nullptr, nullptr) < 0);
  ::close(listener);
}

TEST_CASE("network namespace: a file the child makes has its own owner, as seen from outside and inside") {
  const testing::TempDir folder;
  const auto made = folder.path() / "made.txt";
  const int status = in_child([&] {
    if (!enter_empty_network_namespace().applied) return 90;
    std::ofstream(made) << "x";
    struct stat seen {};
    if (::stat(made.c_str(), &seen) != 0) return 1;
    return seen.st_uid == ::geteuid() && seen.st_gid == ::getegid() ? 0 : 2;
  });
  CHECK(status == 0);
  struct stat outside {};
  REQUIRE(::stat(made.c_str(), &outside) == 0);
  CHECK(outside.st_uid == ::geteuid());
  CHECK(outside.st_gid == ::getegid());
}
