// SPDX-License-Identifier: Apache-2.0
// Where Landlock holds, a fork's pull request is compiled and measured as any other, with or
// without network namespaces (the seccomp filter alone keeps the network out, as inside a
// container): the sandbox's baseline. Skipped (77) without Landlock here, without NVRTC and nvcc,
// or where this machine refuses a seccomp filter.
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
  const auto here = probe_sandbox(KF_BINARY);
  if (!here.files.in_force) return here.files.detail;
  if (!here.network_filter.in_force) return "kforecast's seccomp network filter does not hold here: " + here.network_filter.detail;
  return std::nullopt;
}

TEST_CASE("e2e sandbox with Landlock: a fork's pull request is compiled, with or without network namespaces") {
  for (const auto& denied : {std::vector<std::string>{}, std::vector<std::string>{"--deny-userns"}}) {
    INFO((denied.empty() ? "every layer" : "no namespaces"));
    const kforecast::testing::TempDir tools;
    const auto nvcc = logging_nvcc(tools.path());
    PullRequestJob job([&](FixtureRepo& repo) { commit_kernel_change(repo, nvcc); });
    job.name_author(Author::fork);
    job.wrapper = denying(denied);
    const auto run = job.run({"--format", "json"}, {"XDG_CACHE_HOME=" + (tools.path() / "cache").string()});
    INFO(run.out << run.err);
    CHECK(run.status == 0);
    CHECK_THAT(run.out, Contains("\"warnings\": []"));
    CHECK_THAT(run.out, !Contains("not confined") && !Contains("not compiled or run"));
    CHECK_THAT(run.out, Contains("machine code differs for sm_90"));
    // nvcc's log is written where Landlock lets it (nowhere here): the report says what it built.
    CHECK_THAT(run.out, Contains("1 of 1 unit compiled at both revisions"));
    CHECK_THAT(read_text(tools.path() / "nvcc.log"), !Contains("-cubin"));

    const auto doctor = doctor_under(denying(denied));
    CHECK(doctor_line(doctor.out, "sandbox").starts_with("in force"));
  }
}
