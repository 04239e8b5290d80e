// SPDX-License-Identifier: Apache-2.0
#include "git/change_author.hpp"

#include <fstream>

#include <catch2/catch.hpp>

#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::git;
using Catch::Matchers::Contains;

namespace {

constexpr const char* base_sha = "1111111111111111111111111111111111111111";
constexpr const char* head_sha = "2222222222222222222222222222222222222222";

std::string pull_request_event(const std::string& association_member, const std::string& head_repo) {
  return std::string(R"({"pull_request": {"number": 3, )") + association_member + R"("base": {"sha": ")" + base_sha +
         R"(", "repo": {"full_name": "octo/k"}}, "head": {"sha": ")" + head_sha + R"(", "repo": )" + head_repo + "}}}";
}

ChangeAuthor github(const testing::TempDir& dir, const std::string& event_name, const std::string& event) {
  const auto path = dir.path() / "event.json";
  std::ofstream(path) << event;
  return change_author(fixed_environment(
      {{"GITHUB_ACTIONS", "true"}, {"GITHUB_EVENT_NAME", event_name}, {"GITHUB_EVENT_PATH", path.string()}}));
}

}  // namespace

TEST_CASE("git: change_author on GitHub trusts write access in the base's own repository only") {
  testing::TempDir dir;
  const std::string same = R"({"full_name": "octo/k"})";
  for (const char* association : {"OWNER", "MEMBER", "COLLABORATOR"}) {
    INFO(association);
    const auto author =
        github(dir, "pull_request",
               pull_request_event(std::string(R"("author_association": ")") + association + "\", ", same));
    CHECK(author.trust == AuthorTrust::trusted);
    CHECK_THAT(author.reason, Contains(association));
  }
  for (const char* association : {"CONTRIBUTOR", "FIRST_TIMER", "FIRST_TIME_CONTRIBUTOR", "NONE", "MANNEQUIN"}) {
    INFO(association);
    const auto author =
        github(dir, "pull_request_target",
               pull_request_event(std::string(R"("author_association": ")") + association + "\", ", same));
    CHECK(author.trust == AuthorTrust::untrusted);
    CHECK_THAT(author.reason, Contains(association) && Contains("no write access"));
  }
  SECTION("a fork, even a member's, or a deleted fork (repo null)") {
    for (const std::string head_repo : {R"({"full_name": "mallory/k"})", "null"}) {
      const auto author =
          github(dir, "pull_request", pull_request_event(R"("author_association": "MEMBER", )", head_repo));
      CHECK(author.trust == AuthorTrust::untrusted);
      CHECK_THAT(author.reason, Contains("a fork"));
    }
  }
  SECTION("an event that does not say is untrusted, and says it assumed so") {
    const auto author = github(dir, "pull_request", pull_request_event("", same));
    CHECK(author.trust == AuthorTrust::untrusted);
    CHECK_THAT(describe(author), Contains("untrusted (assumed: the event has no author_association"));
  }
  SECTION("a push comes from someone who can push") {
    const auto author =
        github(dir, "push", std::string(R"({"before": ")") + base_sha + R"(", "after": ")" + head_sha + "\"}");
    CHECK(author.trust == AuthorTrust::trusted);
  }
  SECTION("an event file that cannot be read or parsed is untrusted") {
    CHECK(github(dir, "pull_request", "not json").trust == AuthorTrust::untrusted);
  }
}

TEST_CASE("git: change_author outside GitHub: GitLab forks, CI without information, local runs") {
  using Env = std::map<std::string, std::string, std::less<>>;
  const auto from_fork = change_author(fixed_environment(Env{{"CI", "true"},
                                                             {"CI_MERGE_REQUEST_IID", "5"},
                                                             {"CI_MERGE_REQUEST_PROJECT_ID", "1"},
                                                             {"CI_MERGE_REQUEST_SOURCE_PROJECT_ID", "2"}}));
  CHECK(from_fork.trust == AuthorTrust::untrusted);
  const auto from_branch = change_author(fixed_environment(Env{{"CI", "true"},
                                                               {"CI_MERGE_REQUEST_IID", "5"},
                                                               {"CI_MERGE_REQUEST_PROJECT_ID", "1"},
                                                               {"CI_MERGE_REQUEST_SOURCE_PROJECT_ID", "1"}}));
  CHECK(from_branch.trust == AuthorTrust::trusted);
  const auto ci = change_author(fixed_environment(Env{{"CI", "true"}}));
  CHECK(ci.trust == AuthorTrust::untrusted);
  CHECK_THAT(ci.reason, Contains("assumed"));
  CHECK(change_author(fixed_environment(Env{{"GITLAB_CI", "true"}})).trust == AuthorTrust::untrusted);
  CHECK(change_author(fixed_environment(Env{{"CI", "false"}})).trust == AuthorTrust::trusted);
  const auto local = change_author(fixed_environment(Env{}));
  CHECK(local.trust == AuthorTrust::trusted);
  CHECK_THAT(local.reason, Contains("assumed: a local run"));
}
