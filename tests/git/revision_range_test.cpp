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

TEST_CASE("git: in a GitHub pull request without flags, the missing event reader is said, not guessed") {
  History history;
  auto range = resolve_range(*history.repository, {},
                             fixed_environment({{"GITHUB_ACTIONS", "true"}, {"GITHUB_BASE_REF", "main"}}));
  REQUIRE_FALSE(range.has_value());
  CHECK_THAT(range.error().message, Contains("github.event.pull_request.base.sha"));
}
