// SPDX-License-Identifier: Apache-2.0
#pragma once

// A pull-request job as GitHub Actions runs `kforecast pr --post`: a fixture repository with a
// base and a head commit, the event file naming them, the step summary and outputs files, and a
// fake GitHub API on loopback that keeps the pull request's comments. KF_TEST_BINARY names the
// binary where it was built elsewhere (a GPU machine); LD_LIBRARY_PATH is passed on for the
// libraries carried beside it.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "base/subprocess.hpp"
#include "e2e.hpp"
#include "support/fake_forge.hpp"
#include "support/temp_dir.hpp"

namespace kforecast::e2e {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class PullRequestJob {
 public:
  static constexpr const char* token = "ghs_e2e_token_never_shown";

  // `commit_base_and_head` makes the two commits; the job's event names them.
  explicit PullRequestJob(const std::function<void(FixtureRepo&)>& commit_base_and_head) {
    commit_base_and_head(repo);
    base = repo.git({"rev-parse", "HEAD~1"}).substr(0, 40);
    head = repo.git({"rev-parse", "HEAD"}).substr(0, 40);
    std::ofstream(runner.path() / "event.json") << R"({"number": 12, "pull_request": {"number": 12, "base": {"sha": ")"
                                                << base << R"("}, "head": {"sha": ")" << head << R"("}}})";
  }

  // One run of the job: `pr --post` plus `args`, with the Actions environment and `env`.
  Run run(std::vector<std::string> args = {}, std::vector<std::string> env = {}, int timeout_seconds = 60) const {
    std::vector<std::string> argv{"env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp"};
    if (const char* libraries = std::getenv("LD_LIBRARY_PATH"))
      argv.push_back(std::string("LD_LIBRARY_PATH=") + libraries);
    for (auto& variable : testing::toolkit_environment()) argv.push_back(std::move(variable));
    for (const std::string& variable : std::vector<std::string>{
             std::string("GITHUB_ACTIONS=true"), std::string("GITHUB_EVENT_NAME=pull_request"),
             "GITHUB_EVENT_PATH=" + (runner.path() / "event.json").string(),
             std::string("GITHUB_REPOSITORY=octo/kernels"), "GITHUB_API_URL=" + github.api_url(),
             std::string("GITHUB_TOKEN=") + token, std::string("GITHUB_SERVER_URL=https://github.example"),
             std::string("GITHUB_RUN_ID=99"), "GITHUB_STEP_SUMMARY=" + (runner.path() / "summary.md").string(),
             "GITHUB_OUTPUT=" + (runner.path() / "output.txt").string()})
      argv.push_back(variable);
    argv.insert(argv.end(), env.begin(), env.end());
    argv.insert(argv.end(), wrapper.begin(), wrapper.end());
    const char* binary = std::getenv("KF_TEST_BINARY");
    argv.push_back(binary != nullptr && *binary != '\0' ? binary : KF_BINARY);
    argv.insert(argv.end(), {"pr", "--post"});
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = run_process(
        argv, {.working_directory = repo.path().string(), .timeout = std::chrono::seconds(timeout_seconds)});
    REQUIRE(result.has_value());
    return {result->exit_status, result->out, result->err};
  }

  // The event names its author: a fork's CONTRIBUTOR (untrusted) or a MEMBER of the base's
  // repository (trusted: compiled and run even where the sandbox does not hold). Without it, the
  // event has no author_association, and the author is untrusted.
  enum class Author { fork, member };
  void name_author(Author author) const {
    const bool fork = author == Author::fork;
    std::ofstream(runner.path() / "event.json")
        << R"({"number": 12, "pull_request": {"number": 12, "author_association": ")"
        << (fork ? "CONTRIBUTOR" : "MEMBER") << R"(", "base": {"sha": ")" << base
        << R"(", "repo": {"full_name": "octo/kernels"}}, "head": {"sha": ")" << head << R"(", "repo": {"full_name": ")"
        << (fork ? "mallory/kernels" : "octo/kernels") << R"("}}}})";
  }

  std::string summary() const { return read_text(runner.path() / "summary.md"); }
  std::string outputs() const { return read_text(runner.path() / "output.txt"); }

  // Two runs of the job leave one report comment, created by the first and updated by the
  // second, holding what the second run printed; neither run shows the token anywhere.
  void check_one_comment_updated(const Run& first, const Run& second) {
    CHECK(first.status == second.status);
    CHECK_THAT(first.err, Catch::Matchers::Contains("created the report comment"));
    CHECK_THAT(second.err, Catch::Matchers::Contains("updated the report comment"));
    const auto comments = github.comments();
    REQUIRE(comments.size() == 1);
    CHECK(comments[0].body.starts_with("<!-- kforecast:report -->\n## kforecast:"));
    for (const auto& text : {first.out, first.err, second.out, second.err, summary(), comments[0].body})
      CHECK(text.find(token) == std::string::npos);
  }

  std::string comment() const {
    const auto comments = github.comments();
    return comments.empty() ? std::string() : comments.back().body;
  }

  // A command the binary runs under (its arguments before the binary's path), e.g. a seccomp
  // filter that takes a layer of the sandbox away; empty: none.
  std::vector<std::string> wrapper;
  FixtureRepo repo;
  testing::TempDir runner;  // the runner's files: event, summary, outputs
  testing::FakeForge github{testing::FakeForge::Kind::github, token, "", "octo/kernels", "12"};
  std::string base, head;
};

}  // namespace kforecast::e2e
