// SPDX-License-Identifier: Apache-2.0
// Finding a workflow_run's pull request from its head, over real HTTP against the fake GitHub.
#include "publish/pull_request_lookup.hpp"

#include <catch2/catch.hpp>

#include "http/curl_transport.hpp"
#include "support/fake_forge.hpp"

using namespace kforecast;
using namespace kforecast::publish;
using Catch::Matchers::Contains;
using kforecast::testing::FakeForge;
using kforecast::testing::ScriptedResponse;

namespace {

const std::string token = "ghs_lookup_token";
const std::string head = "2222222222222222222222222222222222222222";

struct Setup {
  FakeForge fake{FakeForge::Kind::github, token, "", "octo/kernels", "12"};
  std::unique_ptr<http::HttpTransport> transport = http::make_curl_transport({});
  PostOptions options{.max_retries = 0, .max_wait = std::chrono::seconds(1), .sleep = [](auto) {}};
  Forge forge() const { return {Forge::Kind::github, fake.api_url(), "octo/kernels", "", token}; }
  PostOutcome<std::string> find(std::string_view label, std::string_view sha) {
    return find_pull_request(*transport, forge(), label, sha, options);
  }
};

}  // namespace

TEST_CASE("pull request lookup: the open pull request with that head branch at that commit") {
  Setup setup;
  setup.fake.set_pull_request_head("forker:fix/a&b", head);
  auto found = setup.find("forker:fix/a&b", head);
  INFO((found ? std::string() : found.error().message));
  REQUIRE(found.has_value());
  CHECK(*found == "12");
  // The label travels escaped: a branch name cannot add query parameters.
  const auto requests = setup.fake.server().requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].target == "/repos/octo/kernels/pulls?state=open&head=forker%3Afix%2Fa%26b&per_page=100");
}

TEST_CASE("pull request lookup: another head commit, another branch or a refusal is no pull request") {
  Setup setup;
  setup.fake.set_pull_request_head("forker:patch-1", head);
  SECTION("the branch has moved on") {
    auto moved = setup.find("forker:patch-1", std::string(40, '3'));
    REQUIRE_FALSE(moved.has_value());
    CHECK(moved.error().exit_code == ExitCode::usage);
    CHECK(moved.error().refused_status == 0);
    CHECK_THAT(moved.error().message, Contains("no open pull request of octo/kernels has head forker:patch-1 at 333"));
  }
  SECTION("another branch") { CHECK_FALSE(setup.find("forker:other", head).has_value()); }
  SECTION("a token the API refuses is a refusal") {
    setup.fake.queue_failure(ScriptedResponse::json(403, R"({"message": "Resource not accessible by integration"})"));
    auto refused = setup.find("forker:patch-1", head);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().refused_status == 403);
    CHECK_THAT(refused.error().message, !Contains(token));
  }
  SECTION("an answer that is not a list") {
    setup.fake.queue_failure(ScriptedResponse::json(200, R"({"number": 12})"));
    auto odd = setup.find("forker:patch-1", head);
    REQUIRE_FALSE(odd.has_value());
    CHECK(odd.error().refused_status == 0);
    CHECK_THAT(odd.error().message, Contains("not a JSON array"));
  }
}
