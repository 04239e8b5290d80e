// SPDX-License-Identifier: Apache-2.0
// The sandbox end to end, on a machine made to lack a layer of it (kf_deny_syscalls): a fork's
// pull request is neither compiled nor run where kforecast cannot confine files and the network
// (each kernel forecast from source, the reason said once, the gate not failed); a member's is
// compiled, with a note of what was not confined; a confined program opens no Internet socket;
// doctor says each layer. Skipped (77) without NVRTC and nvcc (what would compile the head), or
// where this machine refuses a seccomp filter (then nothing here could be taken away).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "base/sandbox_status.hpp"
#include "sandbox_e2e.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (auto missing = missing_nvrtc()) return missing;
  if (auto missing = missing_nvcc()) return missing;
  if (auto missing = missing_deny_syscalls()) return missing;
  if (!probe_sandbox(KF_BINARY).network_filter.in_force)
    return "kforecast's seccomp network filter does not hold here: " + probe_sandbox(KF_BINARY).network_filter.detail;
  return std::nullopt;
}

namespace {

// The two runs of the same change, one for each author, under `denied` layers.
struct AuthoredRun {
  kforecast::testing::TempDir tools;
  std::filesystem::path nvcc = logging_nvcc(tools.path());
  PullRequestJob job{[this](FixtureRepo& repo) { commit_kernel_change(repo, nvcc); }};
  Run run;
  AuthoredRun(Author author, const std::vector<std::string>& denied) {
    job.name_author(author);
    job.wrapper = denying(denied);
    // A cache of its own: a unit another test compiled would be answered from the cache.
    run = job.run({"--format", "json"}, {"XDG_CACHE_HOME=" + (tools.path() / "cache").string()});
  }
  std::string nvcc_log() const { return read_text(tools.path() / "nvcc.log"); }
};

}  // namespace

TEST_CASE("e2e sandbox: a fork's pull request is not compiled or run where Landlock is missing") {
  AuthoredRun fork(Author::fork, {"--deny-landlock"});
  INFO(fork.run.out << fork.run.err);
  CHECK(fork.run.status == 0);  // not a gate failure: the kernel is unverified, policy.on_unverified warns
  // Said once, at the top, with the reason and the fix.
  CHECK_THAT(fork.run.out, Contains("\"not compiled or run: the change's author is not trusted (a fork "
                                    "(mallory/kernels)) and this runner cannot sandbox its code: Landlock unavailable "
                                    "(this kernel lacks it, or a container's seccomp profile refuses its system calls)"));
  CHECK_THAT(fork.run.out, Contains("run kforecast on Linux 5.13 or later with Landlock enabled"));
  CHECK_THAT(fork.run.err, Contains("kforecast: warning: not compiled or run"));
  CHECK_THAT(fork.run.out, Contains("\"decision\": \"forecast_only\"") && Contains("\"forecaster\": \"embedded\""));
  CHECK_THAT(fork.run.out, Contains("\"build\": null"));
  CHECK_THAT(fork.run.out, !Contains("machine code") && Contains("no NVRTC facts"));
  // No nvcc ran at all: not for the head, nor for its version.
  CHECK(fork.nvcc_log().empty());
  CHECK_THAT(fork.job.comment(), Contains("not compiled or run"));
}

TEST_CASE("e2e sandbox: a fork's pull request is not compiled or run where nothing keeps the network out") {
  AuthoredRun fork(Author::fork, {"--deny-seccomp", "--deny-userns"});
  INFO(fork.run.out << fork.run.err);
  CHECK(fork.run.status == 0);
  CHECK_THAT(fork.run.out, Contains("the network is not blocked (the kernel refused a seccomp filter"));
  CHECK_THAT(fork.run.out, Contains("where a seccomp filter can be installed"));
  CHECK(fork.nvcc_log().empty());
  CHECK_THAT(fork.run.out, !Contains("machine code"));
}

TEST_CASE("e2e sandbox: a member's pull request is compiled where Landlock is missing, and the report says so") {
  AuthoredRun member(Author::member, {"--deny-landlock"});
  INFO(member.run.out << member.run.err);
  CHECK(member.run.status == 0);
  CHECK_THAT(member.run.out, Contains("\"warnings\": []"));
  CHECK_THAT(member.run.out, Contains("not confined: the head was compiled and run here without the whole sandbox "
                                      "(Landlock unavailable"));
  CHECK_THAT(member.run.out, Contains("as its author is trusted (author_association MEMBER)"));
  CHECK_THAT(member.run.out, Contains("machine code differs for sm_90"));
  CHECK_THAT(member.nvcc_log(), Contains("-cubin"));  // nvcc compiled both revisions
}

TEST_CASE("e2e sandbox: local check and lint compile the user's own files where Landlock is missing, and say so") {
  FixtureRepo repo;
  commit_one_kernel_change(repo);
  const auto denied = denying({"--deny-landlock"});
  const auto check = kforecast_under(denied, {"check", "k.cu", "--against", "HEAD~1", "--format", "json"}, repo.path());
  INFO(check.out << check.err);
  CHECK(check.status == 0);
  CHECK_THAT(check.out, Contains("not confined: the head was compiled and run here without the whole sandbox"));
  CHECK_THAT(check.out, Contains("assumed: a local run, outside CI"));
  CHECK_THAT(check.out, Contains("machine code"));
  const auto lint = kforecast_under(denied, {"lint", "k.cu", "--format", "json"}, repo.path());
  INFO(lint.out << lint.err);
  CHECK_THAT(lint.out, Contains("compiler facts for sm_90 from NVRTC"));
  CHECK_THAT(lint.out, Contains("not confined: NVRTC compiled these files without the whole sandbox (Landlock "
                                "unavailable"));
  // Where every layer holds, it does not say so.
  if (kforecast::probe_sandbox(KF_BINARY).missing().empty())
    CHECK_THAT(kforecast_under({}, {"lint", "k.cu", "--format", "json"}, repo.path()).out, !Contains("not confined"));
}

TEST_CASE("e2e sandbox: a confined program opens no Internet socket, with or without a network namespace") {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  REQUIRE(listener >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), size) == 0);
  REQUIRE(::listen(listener, 4) == 0);
  REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size) == 0);
  const std::string port = std::to_string(ntohs(address.sin_port));
  const kforecast::testing::TempDir scratch;
  const auto probe = [&](const std::vector<std::string>& wrapper, const std::string& sockets) {
    std::vector<std::string> argv = wrapper;
    argv.insert(argv.end(), {KF_BINARY, "__confined-exec", "--read", "/", "--write", scratch.path().string(),
                             "--memory", "0", "--cpu-seconds", "60", "--sockets", sockets, "--", KF_SOCKET_PROBE, port});
    auto ran = kforecast::run_process(argv, {.timeout = std::chrono::seconds(30)});
    REQUIRE(ran.has_value());
    INFO(ran->err);
    CHECK(ran->exit_status == 0);
    return ran->out;
  };
  // Unconfined, the probe reaches the listener: the refusals below are the confinement's.
  auto unconfined = kforecast::run_process({KF_SOCKET_PROBE, port});
  REQUIRE(unconfined.has_value());
  REQUIRE_THAT(unconfined->out, Contains("inet: connected"));
  const int first = ::accept(listener, nullptr, nullptr);
  REQUIRE(first >= 0);
  ::close(first);

  for (const auto& wrapper : {std::vector<std::string>{}, denying({"--deny-userns"})}) {
    INFO((wrapper.empty() ? "every layer this machine has" : "no namespaces: the seccomp filter alone"));
    const std::string out = probe(wrapper, "unix");
    CHECK_THAT(out, Contains("inet: socket refused (EACCES)"));
    CHECK_THAT(out, Contains("unix: ok"));
    CHECK_THAT(out, Contains("io_uring: refused (ENOSYS)"));
    CHECK_THAT(probe(wrapper, "none"), Contains("unix: refused (EACCES)"));
  }
  CHECK(::accept(listener, nullptr, nullptr) < 0);
  ::close(listener);
}

TEST_CASE("e2e sandbox: doctor says each layer, and what to do where one is missing") {
  const auto plain = doctor_under({});
  INFO(plain.out);
  const auto here = kforecast::probe_sandbox(KF_BINARY);
  for (const char* label : {"sandbox", "landlock", "seccomp", "netns", "privs", "limits"})
    CHECK_FALSE(doctor_line(plain.out, label).empty());
  CHECK(doctor_line(plain.out, "sandbox").starts_with(here.confines_untrusted_code() ? "in force" : "NOT in force"));
  CHECK(doctor_line(plain.out, "seccomp") == "seccomp filter: no socket but AF_UNIX, no io_uring");

  const auto no_landlock = doctor_under(denying({"--deny-landlock"}));
  INFO(no_landlock.out);
  CHECK(no_landlock.status == 0);
  CHECK_THAT(doctor_line(no_landlock.out, "sandbox"), Contains("NOT in force, so code of untrusted pull requests"));
  CHECK_THAT(doctor_line(no_landlock.out, "landlock"),
             Contains("Landlock unavailable (this kernel lacks it, or a container's seccomp profile refuses its system "
                      "calls): a compiler or harness command could read any file"));

  const auto no_userns = doctor_under(denying({"--deny-userns"}));
  INFO(no_userns.out);
  CHECK_THAT(doctor_line(no_userns.out, "netns"),
             Contains("no network namespace: unshare refused it (Operation not permitted), and a user namespace too "
                      "(Operation not permitted) (the seccomp filter blocks the network without one)"));
  CHECK(doctor_line(no_userns.out, "sandbox").starts_with(here.files.in_force ? "in force" : "NOT in force"));

  const auto no_network = doctor_under(denying({"--deny-seccomp", "--deny-userns"}));
  INFO(no_network.out);
  CHECK_THAT(doctor_line(no_network.out, "seccomp"), Contains("no network filter: the kernel refused a seccomp filter"));
  CHECK_THAT(doctor_line(no_network.out, "netns"), Contains("run as root or enable unprivileged user namespaces"));
  CHECK_THAT(doctor_line(no_network.out, "sandbox"), Contains("NOT in force") && Contains("the network is not blocked"));
}
