// SPDX-License-Identifier: Apache-2.0
// What the sandbox status says: which layers an untrusted author's code needs, what is missing
// and how to fix it, doctor's lines; and the probe of this machine (the kforecast binary, run as
// its probing child) agrees with what a confined child finds.
#include "base/sandbox_status.hpp"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "base/network_confinement.hpp"
#include "base/process_confinement.hpp"
#include "support/sandbox_statuses.hpp"

using namespace kforecast;
using Catch::Matchers::Contains;

namespace {

std::string text_of(const std::vector<StatusLine>& lines, std::string_view label) {
  for (const auto& line : lines)
    if (line.label == label) return line.text;
  return "(no line " + std::string(label) + ")";
}

}  // namespace

TEST_CASE("sandbox status: an untrusted author's code needs Landlock and either network layer") {
  CHECK(testing::sandbox_in_force().confines_untrusted_code());
  CHECK(testing::sandbox_in_force().missing().empty());
  CHECK(testing::sandbox_in_force().how_to_fix().empty());

  auto filter_only = testing::sandbox_in_force();
  filter_only.network_namespace = {false, "no network namespace: unshare refused it (Operation not permitted)"};
  CHECK(filter_only.confines_untrusted_code());
  auto namespace_only = testing::sandbox_in_force();
  namespace_only.network_filter = {false, "the kernel refused a seccomp filter"};
  CHECK(namespace_only.confines_untrusted_code());

  const auto no_landlock = testing::sandbox_without_landlock();
  CHECK_FALSE(no_landlock.confines_untrusted_code());
  CHECK_THAT(no_landlock.missing(), Contains("Landlock unavailable (this kernel lacks it"));
  CHECK_THAT(no_landlock.how_to_fix(), Contains("Linux 5.13 or later with Landlock enabled"));
  CHECK_THAT(no_landlock.how_to_fix(), !Contains("seccomp filter can be installed"));

  const auto no_network = testing::sandbox_without_network();
  CHECK_FALSE(no_network.confines_untrusted_code());
  CHECK_THAT(no_network.missing(), Contains("the network is not blocked (the kernel refused a seccomp filter"));
  CHECK_THAT(no_network.how_to_fix(), Contains("a network namespace created (as root, or with unprivileged user"));
  CHECK_THAT(no_network.how_to_fix(), !Contains("Landlock"));

  const SandboxStatus nothing{};
  CHECK_FALSE(nothing.confines_untrusted_code());
}

TEST_CASE("sandbox status: doctor's lines say each layer plainly, and what to do where one is missing") {
  const auto in_force = describe_sandbox(testing::sandbox_in_force());
  REQUIRE(in_force.size() == 6);
  CHECK(in_force[0].label == "sandbox");
  CHECK_THAT(in_force[0].text, Contains("in force: code of untrusted pull requests is compiled and run"));
  CHECK_THAT(text_of(in_force, "landlock"), Contains("Landlock ABI 7"));
  CHECK_THAT(text_of(in_force, "seccomp"), Contains("no socket but AF_UNIX"));
  CHECK(text_of(in_force, "netns") == "an empty network namespace");
  CHECK(text_of(in_force, "privs") == "no_new_privs set");
  CHECK_THAT(text_of(in_force, "limits"), Contains("memory, CPU-time"));

  const auto missing = describe_sandbox(testing::sandbox_without_landlock());
  CHECK_THAT(text_of(missing, "sandbox"), Contains("NOT in force, so code of untrusted pull requests (forks) is not "
                                                   "compiled or run here"));
  CHECK_THAT(text_of(missing, "sandbox"), Contains("To fix: run kforecast on Linux 5.13 or later"));
  CHECK_THAT(text_of(missing, "landlock"), Contains("a compiler or harness command could read any file"));

  auto no_namespace = testing::sandbox_in_force();
  no_namespace.network_namespace = {false, "no network namespace: unshare refused it (Operation not permitted), and a "
                                           "user namespace too (Operation not permitted)"};
  CHECK_THAT(text_of(describe_sandbox(no_namespace), "netns"),
             Contains("(the seccomp filter blocks the network without one)"));
  const auto neither = describe_sandbox(testing::sandbox_without_network());
  CHECK_THAT(text_of(neither, "seccomp"), Contains("no network filter: the kernel refused a seccomp filter"));
  CHECK_THAT(text_of(neither, "netns"), Contains("run as root or enable unprivileged user namespaces"));
}

TEST_CASE("sandbox status: the probe of this machine agrees with what a confined child finds") {
  const SandboxStatus status = probe_sandbox(KF_BINARY);
  const auto support = file_confinement_support();
  INFO(status.files.detail << " | " << status.network_filter.detail << " | " << status.network_namespace.detail);
  CHECK(status.files.in_force == support.files_confined);
  CHECK(status.files.detail == support.detail);
  // Each network layer is in force where a child of this test can have it.
  const auto in_child = [](auto layer) {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(layer() ? 0 : 1);
    int wait_status = 0;
    ::waitpid(pid, &wait_status, 0);
    return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
  };
  CHECK(status.network_namespace.in_force == in_child([] { return enter_empty_network_namespace().applied; }));
  CHECK(status.network_filter.in_force == in_child([] {
          return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && install_network_filter(SocketAccess::unix_only).applied;
        }));
  // Setting limits and no_new_privs needs no privilege on any Linux.
  CHECK(status.no_new_privs.in_force);
  CHECK(status.limits.in_force);
  // Probing twice gives the same answer, and nothing of the probe reaches this process.
  const SandboxStatus again = probe_sandbox(KF_BINARY);
  CHECK(again.network_filter.in_force == status.network_filter.in_force);
  CHECK(again.network_namespace.in_force == status.network_namespace.in_force);
  const int socket = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  CHECK(socket >= 0);
  if (socket >= 0) ::close(socket);
}
