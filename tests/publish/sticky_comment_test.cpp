// SPDX-License-Identifier: Apache-2.0
// The sticky report comment, over real HTTP against fake GitHub and GitLab APIs.
#include "publish/sticky_comment.hpp"

#include <catch2/catch.hpp>

#include "http/curl_transport.hpp"
#include "support/fake_forge.hpp"

using namespace kforecast;
using namespace kforecast::publish;
using Catch::Matchers::Contains;
using kforecast::testing::FakeForge;
using kforecast::testing::ScriptedResponse;
using namespace std::chrono_literals;

namespace {

const std::string token = "ghs_secret_token_value_123";

struct Setup {
  FakeForge::Kind kind;
  FakeForge fake;
  std::unique_ptr<http::HttpTransport> transport = http::make_curl_transport({});
  std::vector<std::chrono::milliseconds> waits;
  PostOptions options{.max_retries = 3, .max_wait = 120s, .sleep = [this](auto wait) { waits.push_back(wait); }};

  explicit Setup(FakeForge::Kind forge_kind, std::string identity = "")
      : kind(forge_kind), fake(forge_kind, token, std::move(identity), project(), "7") {}
  std::string project() const { return kind == FakeForge::Kind::github ? "octo/kernels" : "42"; }
  Forge forge() const {
    return {kind == FakeForge::Kind::github ? Forge::Kind::github : Forge::Kind::gitlab, fake.api_url(), project(), "7",
            token};
  }
  Result<PostResult> post(std::string_view body) { return post_sticky_comment(*transport, forge(), body, options); }
  std::string error_of(std::string_view body) {
    auto result = post(body);
    REQUIRE_FALSE(result.has_value());
    CHECK_THAT(result.error().message, !Contains(token));
    return result.error().message;
  }
};

std::size_t report_comments(const FakeForge& fake) {
  std::size_t n = 0;
  for (const auto& comment : fake.comments()) n += comment.body.starts_with(report_marker);
  return n;
}

}  // namespace

TEST_CASE("post: GitHub, created once and then updated in place, never duplicated") {
  Setup setup(FakeForge::Kind::github);  // the Actions token: /user is refused
  auto first = setup.post("## kforecast: pass\n");
  REQUIRE(first.has_value());
  CHECK(first->action == PostResult::Action::created);
  CHECK(first->url.starts_with("https://forge.example/c/"));
  auto second = setup.post("## kforecast: fail\n");
  INFO((second ? std::string() : second.error().message));
  REQUIRE(second.has_value());
  CHECK(second->action == PostResult::Action::updated);
  CHECK(second->comment_id == first->comment_id);
  REQUIRE(setup.fake.comments().size() == 1);
  CHECK(setup.fake.comments()[0].body == std::string(report_marker) + "\n## kforecast: fail\n");
  CHECK(setup.fake.comments()[0].author == "github-actions[bot]");
  // Every request carried GitHub's headers (the fake refuses others with 401).
  for (const auto& request : setup.fake.server().requests())
    CHECK(request.header("x-github-api-version") == "2022-11-28");
}

TEST_CASE("post: GitHub, the report is found on a later page, and a quoted report by someone else is left alone") {
  Setup setup(FakeForge::Kind::github, "kforecast-bot");  // a personal token: /user answers
  setup.fake.add_comment("alice", "looks good");
  setup.fake.add_comment("bob", std::string(report_marker) + "\nquoted by bob");  // marker, but not ours
  setup.fake.add_comment("carol", "lgtm");
  setup.fake.add_comment("dave", "ship it");
  setup.fake.add_comment("kforecast-bot", std::string(report_marker) + "\nold report");
  auto posted = setup.post("new report");
  REQUIRE(posted.has_value());
  CHECK(posted->action == PostResult::Action::updated);
  const auto comments = setup.fake.comments();
  CHECK(comments[1].body == std::string(report_marker) + "\nquoted by bob");
  CHECK(comments[4].body == std::string(report_marker) + "\nnew report");
  CHECK(comments.size() == 5);
  std::size_t listings = 0;
  for (const auto& request : setup.fake.server().requests())
    listings += request.method == "GET" && request.target != "/user";
  CHECK(listings == 3);  // two per page: the third page holds ours
}

TEST_CASE("post: GitHub rate limits are waited out, and a reset too far away is an error") {
  Setup setup(FakeForge::Kind::github);
  setup.fake.queue_failure(
      {403, {{"Retry-After", "2"}}, R"({"message": "You have exceeded a secondary rate limit."})"});
  setup.fake.queue_failure({429, {{"Retry-After", "1"}}, R"({"message": "Too many requests"})"});
  auto posted = setup.post("report");
  REQUIRE(posted.has_value());
  REQUIRE(setup.waits.size() == 2);
  CHECK(setup.waits[0] == 2s);
  CHECK(setup.waits[1] == 1s);
  CHECK(report_comments(setup.fake) == 1);

  setup.fake.queue_failure({403,
                            {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "99999999999"}},
                            R"({"message": "API rate limit exceeded"})"});
  CHECK_THAT(setup.error_of("report"), Contains("longer than kforecast waits"));
}

TEST_CASE("post: GitHub errors say what to do and never show the token") {
  Setup setup(FakeForge::Kind::github);
  SECTION("no permission to write") {
    setup.fake.queue_failure(ScriptedResponse::json(403, R"({"message": "Resource not accessible by integration"})"));
    setup.fake.queue_failure(ScriptedResponse::json(200, "[]"));
    setup.fake.queue_failure(ScriptedResponse::json(403, R"({"message": "Resource not accessible by integration"})"));
    CHECK_THAT(setup.error_of("report"), Contains("permissions: pull-requests: write"));
  }
  SECTION("a pull request that does not exist") {
    setup.fake.queue_failure(ScriptedResponse::json(403, R"({"message": "Resource not accessible by integration"})"));
    setup.fake.queue_failure(ScriptedResponse::json(404, R"({"message": "Not Found"})"));
    CHECK_THAT(setup.error_of("report"), Contains("listing comments: HTTP 404 (Not Found)"));
  }
  SECTION("a body the API refuses") { CHECK_THAT(setup.error_of(std::string(70000, 'x')), Contains("HTTP 422")); }
  SECTION("server errors are retried, then reported") {
    for (int i = 0; i < 4; ++i) setup.fake.queue_failure(ScriptedResponse::json(502, R"({"message": "Bad gateway"})"));
    CHECK_THAT(setup.error_of("report"), Contains("server error 502: Bad gateway (after 3 retries)"));
    CHECK(setup.waits == std::vector<std::chrono::milliseconds>{1s, 2s, 4s});
  }
  SECTION("a wrong token") {
    Forge forge = setup.forge();
    forge.token = "wrong-" + token;
    auto result = post_sticky_comment(*setup.transport, forge, "report", setup.options);
    REQUIRE_FALSE(result.has_value());
    CHECK_THAT(result.error().message, Contains("token was rejected"));
    CHECK_THAT(result.error().message, !Contains(token));
  }
}

TEST_CASE("post: a pagination link to another host is not followed with the token") {
  Setup setup(FakeForge::Kind::github);
  setup.fake.add_comment("alice", "hi");
  setup.fake.set_foreign_next_link("http://evil.example/steal?page=2");
  CHECK_THAT(setup.error_of("report"), Contains("outside"));
  for (const auto& request : setup.fake.server().requests()) CHECK_THAT(request.target, !Contains("steal"));
}

TEST_CASE("post: bad pull request numbers and project names are refused before any request") {
  Setup setup(FakeForge::Kind::github);
  Forge forge = setup.forge();
  forge.number = "7/../../admin";
  CHECK_FALSE(post_sticky_comment(*setup.transport, forge, "r", setup.options).has_value());
  forge = setup.forge();
  forge.project = "octo/../x";
  CHECK_FALSE(post_sticky_comment(*setup.transport, forge, "r", setup.options).has_value());
  forge = setup.forge();
  forge.token.clear();
  CHECK_THAT(post_sticky_comment(*setup.transport, forge, "r", setup.options).error().message,
             Contains("GITHUB_TOKEN"));
  CHECK(setup.fake.server().request_count() == 0);
}

TEST_CASE("post: GitLab merge request notes, paginated by x-next-page, updated with PUT") {
  Setup setup(FakeForge::Kind::gitlab, "project_42_bot");
  setup.fake.add_comment("alice", "first");
  setup.fake.add_comment("project_42_bot", "added 1 commit", /*system=*/true);
  setup.fake.add_comment("bob", "second");
  auto first = setup.post("report one");
  REQUIRE(first.has_value());
  CHECK(first->action == PostResult::Action::created);
  auto second = setup.post("report two");
  REQUIRE(second.has_value());
  CHECK(second->action == PostResult::Action::updated);
  CHECK(report_comments(setup.fake) == 1);
  CHECK(setup.fake.comments().back().body == std::string(report_marker) + "\nreport two");
  bool put = false;
  for (const auto& request : setup.fake.server().requests()) {
    CHECK(request.header("private-token") == token);
    put |= request.method == "PUT";
  }
  CHECK(put);
}

TEST_CASE("post: a refusal of the token (401, 403, 404) is told apart from every other failure") {
  Setup setup(FakeForge::Kind::github);
  const auto refused_status = [&](Forge forge) {
    auto result = post_sticky_comment(*setup.transport, forge, "report", setup.options);
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error().exit_code == ExitCode::could_not_run);
    return result.error().refused_status;
  };
  SECTION("a read-only token: 403 on writing") {
    setup.fake.add_read_only_token("ghs_read_only");
    Forge forge = setup.forge();
    forge.token = "ghs_read_only";
    CHECK(refused_status(forge) == 403);
  }
  SECTION("a rejected token: 401") {
    Forge forge = setup.forge();
    forge.token = "wrong";
    CHECK(refused_status(forge) == 401);
  }
  SECTION("a pull request the token cannot see: 404") {
    setup.fake.queue_failure(ScriptedResponse::json(403, R"({"message": "Resource not accessible by integration"})"));
    setup.fake.queue_failure(ScriptedResponse::json(404, R"({"message": "Not Found"})"));
    CHECK(refused_status(setup.forge()) == 404);
  }
  SECTION("content the API refuses, server errors and rate limits are not refusals") {
    setup.options.max_retries = 0;
    setup.fake.queue_failure(ScriptedResponse::json(422, R"({"message": "Validation Failed"})"));
    CHECK(refused_status(setup.forge()) == 0);
    setup.fake.queue_failure(ScriptedResponse::json(502, R"({"message": "Bad gateway"})"));
    CHECK(refused_status(setup.forge()) == 0);
    setup.fake.queue_failure({403,
                              {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "99999999999"}},
                              R"({"message": "API rate limit exceeded"})"});
    CHECK(refused_status(setup.forge()) == 0);
  }
  CHECK(report_comments(setup.fake) == 0);
}
