// SPDX-License-Identifier: Apache-2.0
#include "git/github_event.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::git;
using Catch::Matchers::Contains;

namespace {
const std::string base_sha = "1111111111111111111111111111111111111111";
const std::string head_sha = "2222222222222222222222222222222222222222";

std::string failure(std::string_view json, std::string_view event = "pull_request") {
  auto parsed = parse_github_event(json, event, "event.json");
  REQUIRE_FALSE(parsed.has_value());
  CHECK(parsed.error().exit_code == ExitCode::usage);
  return parsed.error().message;
}
}  // namespace

TEST_CASE("github event: a pull request gives base and head shas and its number") {
  const auto json = R"({"pull_request": {"number": 7, "base": {"sha": ")" + base_sha + R"("}, "head": {"sha": ")" +
                    head_sha + R"("}}})";
  auto parsed = parse_github_event(json, "pull_request", "event.json");
  REQUIRE(parsed.has_value());
  CHECK(parsed->base == base_sha);
  CHECK(parsed->head == head_sha);
  CHECK(parsed->compare_with_merge_base);
  CHECK(parsed->description == "pull request #7");
  CHECK(parsed->pull_request_number == "7");
}

TEST_CASE("github event: SHA-256 repositories have 64-digit ids") {
  const std::string long_base(64, 'a'), long_head(64, 'b');
  auto parsed = parse_github_event(R"({"before": ")" + long_base + R"(", "after": ")" + long_head + R"("})", "push",
                                   "event.json");
  REQUIRE(parsed.has_value());
  CHECK(parsed->base == long_base);
  CHECK_FALSE(parsed->compare_with_merge_base);
}

TEST_CASE("github event: bad files are errors naming the file and the field") {
  CHECK_THAT(failure(""), Contains("event.json: not a GitHub event file"));
  CHECK_THAT(failure("{\"pull_request\": "), Contains("event.json: not a GitHub event file"));
  CHECK_THAT(failure("[1, 2]"), Contains("not a JSON object"));
  CHECK_THAT(failure("{}"), Contains("event.json: the event has no `pull_request.base.sha`"));
  CHECK_THAT(failure(R"({"pull_request": {"base": {"sha": 12}}})"),
             Contains("`pull_request.base.sha` is not a string"));
  CHECK_THAT(failure(R"({"pull_request": {"base": {"sha": "main"}, "head": {"sha": "x"}}})"),
             Contains("`pull_request.base.sha` is not a commit id"));
  CHECK_THAT(failure(R"({"pull_request": {"base": {"sha": ")" + base_sha + R"("}}})"),
             Contains("no `pull_request.head.sha`"));
  // An option-looking value must never reach git's command line.
  CHECK_THAT(
      failure(R"({"pull_request": {"base": {"sha": "--output=/tmp/x"}, "head": {"sha": ")" + head_sha + R"("}}})"),
      Contains("is not a commit id"));
  CHECK_THAT(failure("{}", "schedule"), Contains("GitHub event `schedule` names no base commit"));
}

TEST_CASE("github event: a workflow_run names the run it follows by event, head commit and head branch") {
  const auto event = [](std::string_view run) { return fmt::format(R"({{"workflow_run": {}}})", run); };
  const std::string fork = R"({"event": "pull_request", "head_sha": ")" + head_sha +
                           R"(", "head_branch": "patch-1", "pull_requests": [], )"
                           R"("head_repository": {"full_name": "forker/kernels", "owner": {"login": "forker"}}})";
  auto parsed = parse_workflow_run_event(event(fork), "event.json");
  REQUIRE(parsed.has_value());
  CHECK(parsed->event == "pull_request");
  CHECK(parsed->head_sha == head_sha);
  CHECK(parsed->head_label == "forker:patch-1");

  SECTION("every field is required, and the head must be a commit id") {
    for (const std::string field : {"event", "head_branch", "login"}) {
      std::string broken = fork;
      broken.replace(broken.find("\"" + field + "\""), field.size() + 2, "\"x\"");
      auto failed = parse_workflow_run_event(event(broken), "event.json");
      REQUIRE_FALSE(failed.has_value());
      CHECK(failed.error().exit_code == ExitCode::usage);
      CHECK_THAT(failed.error().message, Contains("event.json: the event has no `workflow_run."));
    }
    std::string short_sha = fork;
    short_sha.replace(short_sha.find(head_sha), head_sha.size(), "2222");
    CHECK_THAT(parse_workflow_run_event(event(short_sha), "event.json").error().message, Contains("not a commit id"));
    CHECK_THAT(parse_workflow_run_event("[1", "event.json").error().message, Contains("not a GitHub event file"));
    CHECK_THAT(parse_workflow_run_event("{}", "event.json").error().message, Contains("workflow_run.event"));
  }
}
