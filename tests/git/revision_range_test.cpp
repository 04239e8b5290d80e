// SPDX-License-Identifier: Apache-2.0
#include "git/revision_range.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_repo.hpp"

using namespace kforecast;
using namespace kforecast::git;
using Catch::Matchers::Contains;
using kforecast::testing::FixtureRepo;

namespace {
struct History {
  FixtureRepo fixture;
  std::string root, fork_point, feature_tip, main_tip;
  std::unique_ptr<Repository> repository;
  History() {
    fixture.write("a.cu", "0\n");
    root = fixture.commit("root");
    fixture.write("a.cu", "1\n");
    fork_point = fixture.commit("fork point");
    fixture.git({"checkout", "-q", "-b", "feature"});
    fixture.write("a.cu", "feature\n");
    feature_tip = fixture.commit("feature work");
    fixture.git({"checkout", "-q", "main"});
    fixture.write("b.cu", "main moved on\n");
    main_tip = fixture.commit("main work");
    fixture.git({"checkout", "-q", "feature"});
    repository = std::move(*open_repository(fixture.path()));
  }
};
}  // namespace

TEST_CASE("git: revision range from flags") {
  History history;
  auto range = resolve_range(*history.repository, {.base = "main", .head = "HEAD"}, fixed_environment({}));
  REQUIRE(range.has_value());
  CHECK(range->base.sha == history.main_tip);
  CHECK(range->head.sha == history.feature_tip);
  CHECK(range->origin == "--base/--head");
  SECTION("--head defaults to HEAD") {
    auto only_base = resolve_range(*history.repository, {.base = history.root}, fixed_environment({}));
    REQUIRE(only_base.has_value());
    CHECK(only_base->head.sha == history.feature_tip);
  }
  SECTION("flags win over CI variables") {
    auto flagged = resolve_range(
        *history.repository, {.base = history.root},
        fixed_environment({{"CI_MERGE_REQUEST_IID", "7"}, {"CI_MERGE_REQUEST_DIFF_BASE_SHA", history.fork_point}}));
    CHECK(flagged->base.sha == history.root);
  }
}

TEST_CASE("git: revision range in a GitLab merge request") {
  History history;
  auto range = resolve_range(*history.repository, {},
                             fixed_environment({{"CI_MERGE_REQUEST_IID", "7"},
                                                {"CI_MERGE_REQUEST_DIFF_BASE_SHA", history.fork_point},
                                                {"CI_COMMIT_SHA", history.feature_tip}}));
  REQUIRE(range.has_value());
  CHECK(range->base.sha == history.fork_point);
  CHECK(range->head.sha == history.feature_tip);
  CHECK(range->origin == "GitLab merge request");
}

TEST_CASE("git: revision range from the upstream branch's merge-base") {
  History history;
  SECTION("no upstream: a usage error that says what to pass") {
    auto range = resolve_range(*history.repository, {}, fixed_environment({}));
    REQUIRE_FALSE(range.has_value());
    CHECK(range.error().exit_code == ExitCode::usage);
    CHECK_THAT(range.error().message, Contains("pass --base REV"));
  }
  SECTION("with an upstream: the merge-base, not the upstream's tip") {
    history.fixture.git({"branch", "-q", "--set-upstream-to=main"});
    auto range = resolve_range(*history.repository, {}, fixed_environment({}));
    REQUIRE(range.has_value());
    CHECK(range->base.sha == history.fork_point);
    CHECK(range->head.sha == history.feature_tip);
    CHECK(range->origin == "merge-base with main");
  }
}

namespace {
EnvLookup github_environment(const History& history, std::string event_name, std::string event_json) {
  const_cast<FixtureRepo&>(history.fixture).write("event.json", event_json);
  return fixed_environment({{"GITHUB_ACTIONS", "true"},
                            {"GITHUB_EVENT_NAME", std::move(event_name)},
                            {"GITHUB_EVENT_PATH", (history.fixture.path() / "event.json").string()}});
}
std::string pull_request_event(const std::string& base, const std::string& head) {
  return R"({"action": "synchronize", "number": 12, "pull_request": {"number": 12, "base": {"ref": "main", "sha": ")" +
         base + R"("}, "head": {"ref": "feature", "sha": ")" + head + R"("}}})";
}
}  // namespace

TEST_CASE("git: in a GitHub pull request the event file gives head and the fork point") {
  History history;
  // The event's base is the base branch's tip; the PR's changes start where it forked.
  auto range = resolve_range(
      *history.repository, {},
      github_environment(history, "pull_request", pull_request_event(history.main_tip, history.feature_tip)));
  REQUIRE(range.has_value());
  CHECK(range->base.sha == history.fork_point);
  CHECK(range->head.sha == history.feature_tip);
  CHECK(range->origin == "GitHub pull request #12");

  SECTION("pull_request_target reads the same fields") {
    auto target = resolve_range(
        *history.repository, {},
        github_environment(history, "pull_request_target", pull_request_event(history.main_tip, history.feature_tip)));
    REQUIRE(target.has_value());
    CHECK(target->base.sha == history.fork_point);
  }
  SECTION("--head overrides the event's head") {
    auto flagged = resolve_range(
        *history.repository, {.head = history.fork_point},
        github_environment(history, "pull_request", pull_request_event(history.main_tip, history.feature_tip)));
    REQUIRE(flagged.has_value());
    CHECK(flagged->head.sha == history.fork_point);
  }
}

TEST_CASE("git: a GitHub push compares before with after, a merge queue like a pull request") {
  History history;
  auto push = resolve_range(*history.repository, {},
                            github_environment(history, "push",
                                               R"({"ref": "refs/heads/feature", "before": ")" + history.fork_point +
                                                   R"(", "after": ")" + history.feature_tip + R"("})"));
  REQUIRE(push.has_value());
  CHECK(push->base.sha == history.fork_point);
  CHECK(push->head.sha == history.feature_tip);
  CHECK(push->origin == "GitHub push");

  auto queue = resolve_range(*history.repository, {},
                             github_environment(history, "merge_group",
                                                R"({"merge_group": {"base_sha": ")" + history.main_tip +
                                                    R"(", "head_sha": ")" + history.feature_tip + R"("}})"));
  REQUIRE(queue.has_value());
  CHECK(queue->base.sha == history.fork_point);
  CHECK(queue->origin == "GitHub merge queue");
}

TEST_CASE("git: a GitHub event that cannot give a range is an error that says what to do") {
  History history;
  const std::string absent = std::string(40, 'a');
  SECTION("a base commit the shallow clone lacks") {
    auto range =
        resolve_range(*history.repository, {},
                      github_environment(history, "pull_request", pull_request_event(absent, history.feature_tip)));
    REQUIRE_FALSE(range.has_value());
    CHECK_THAT(range.error().message, Contains("fetch-depth: 0"));
  }
  SECTION("an event without a base") {
    auto range = resolve_range(*history.repository, {}, github_environment(history, "workflow_dispatch", "{}"));
    REQUIRE_FALSE(range.has_value());
    CHECK(range.error().exit_code == ExitCode::usage);
    CHECK_THAT(range.error().message, Contains("--base"));
  }
  SECTION("a push that created the branch") {
    auto range = resolve_range(*history.repository, {},
                               github_environment(history, "push",
                                                  R"({"before": ")" + std::string(40, '0') + R"(", "after": ")" +
                                                      history.feature_tip + R"("})"));
    REQUIRE_FALSE(range.has_value());
    CHECK_THAT(range.error().message, Contains("created the branch"));
  }
  SECTION("an event file that is missing") {
    auto range = resolve_range(*history.repository, {},
                               fixed_environment({{"GITHUB_ACTIONS", "true"},
                                                  {"GITHUB_EVENT_NAME", "pull_request"},
                                                  {"GITHUB_EVENT_PATH", "/nonexistent/event.json"}}));
    REQUIRE_FALSE(range.has_value());
    CHECK_THAT(range.error().message, Contains("GitHub event file /nonexistent/event.json"));
  }
}
