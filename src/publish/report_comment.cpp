// SPDX-License-Identifier: Apache-2.0
#include "publish/report_comment.hpp"

#include <fmt/format.h>

#include <sstream>

#include "base/text_file.hpp"
#include "git/github_event.hpp"
#include "publish/pull_request_lookup.hpp"
#include "publish/sticky_comment.hpp"
#include "report/comment_fit.hpp"
#include "report/writer.hpp"

namespace kforecast::publish {
namespace {

std::string env_or(const EnvLookup& env, std::string_view name, const std::string& fallback) {
  auto value = env(name);
  return value && !value->empty() ? *value : fallback;
}

// A --post that cannot be made as asked: exit 2.
std::unexpected<PostError> post_usage_error(std::string message) {
  return std::unexpected(PostError{{std::move(message), ExitCode::usage}, 0});
}

std::unexpected<PostError> post_error(Error error) {
  return std::unexpected(PostError{std::move(error), 0});
}

// Where the full report lives when the comment is cut: the workflow run, whose summary holds it.
std::string full_report_place(const EnvLookup& env) {
  const auto server = env("GITHUB_SERVER_URL"), repository = env("GITHUB_REPOSITORY"), run = env("GITHUB_RUN_ID");
  if (server && repository && run) return fmt::format("{}/{}/actions/runs/{}", *server, *repository, *run);
  if (auto job = env("CI_JOB_URL")) return *job;
  return "the CI job's log";
}

// The pull request of a `workflow_run` run: the open one whose head the followed run ran on,
// and only for a report of that very commit.
PostOutcome<std::string> workflow_run_pull_request(const report::Report& report, const std::string& text,
                                                            const std::string& source, const Forge& forge,
                                                            const http::HttpTransport& transport) {
  auto run = git::parse_workflow_run_event(text, source);
  if (!run) return post_error(run.error());
  if (run->event != "pull_request")
    return post_usage_error(
        fmt::format("--post: the run this workflow_run follows was a `{}` run, not a pull request's", run->event));
  if (report.head != run->head_sha)
    return post_usage_error(fmt::format(
        "--post: the report is of commit {}, but the run this workflow_run follows is of {}: give report --merge "
        "the artifacts of that run (actions/download-artifact with run-id: ${{{{ github.event.workflow_run.id }}}})",
        report.head.substr(0, 12), run->head_sha.substr(0, 12)));
  return find_pull_request(transport, forge, run->head_label, run->head_sha);
}

PostOutcome<Forge> github_forge(const report::Report& report, const EnvLookup& env,
                                                  const http::HttpTransport& transport) {
  Forge forge{Forge::Kind::github, env_or(env, "GITHUB_API_URL", "https://api.github.com"),
                       env_or(env, "GITHUB_REPOSITORY", ""), "", env_or(env, "GITHUB_TOKEN", "")};
  const auto event_path = env("GITHUB_EVENT_PATH");
  if (!event_path) return post_usage_error("--post: GITHUB_EVENT_PATH is not set, so the pull request is unknown");
  auto text = read_text_file(*event_path, "GitHub event file");
  if (!text) return post_error(text.error());
  const std::string event_name = env_or(env, "GITHUB_EVENT_NAME", "");
  if (event_name == "workflow_run") {
    auto number = workflow_run_pull_request(report, *text, *event_path, forge, transport);
    if (!number) return std::unexpected(number.error());
    forge.number = std::move(*number);
    return forge;
  }
  auto event = git::parse_github_event(*text, event_name, *event_path);
  if (!event) return post_error(event.error());
  if (event->pull_request_number.empty())
    return post_usage_error(fmt::format(
        "--post: the `{}` event has no pull request to comment on; --post runs on pull_request events, or on "
        "workflow_run events that follow a pull request's run",
        event_name));
  forge.number = event->pull_request_number;
  return forge;
}

PostOutcome<Forge> gitlab_forge(const EnvLookup& env) {
  const std::string iid = env_or(env, "CI_MERGE_REQUEST_IID", "");
  if (iid.empty())
    return post_usage_error("--post: CI_MERGE_REQUEST_IID is not set: --post runs in merge-request pipelines");
  const std::string token = env_or(env, "GITLAB_TOKEN", "");
  return Forge{Forge::Kind::gitlab,
                        env_or(env, "CI_API_V4_URL", ""),
                        env_or(env, "CI_PROJECT_ID", ""),
                        iid,
                        token.empty() ? env_or(env, "CI_JOB_TOKEN", "") : token,
                        token.empty()};
}

PostOutcome<PostResult> post(const report::Report& report, bool github, const EnvLookup& env,
                             const http::HttpTransport& transport) {
  auto forge = github ? github_forge(report, env, transport) : gitlab_forge(env);
  if (!forge) return std::unexpected(forge.error());
  std::ostringstream markdown;
  report::make_markdown_writer(markdown)->write(report);
  const std::string body =
      report::fit_for_comment(markdown.str(), report::github_comment_limit, full_report_place(env));
  return post_sticky_comment(transport, *forge, body);
}

}  // namespace

Result<void> post_report(const report::Report& report, const EnvLookup& env, const http::HttpTransport& transport,
                         std::ostream& warnings) {
  const bool github = env("GITHUB_ACTIONS") == "true", gitlab = env("GITLAB_CI") == "true";
  if (!github && !gitlab)
    return usage_error(
        "--post works in GitHub Actions (pull_request and workflow_run events) and GitLab merge-request pipelines");
  auto posted = post(report, github, env, transport);
  if (posted) {
    warnings << fmt::format("kforecast: {} the report comment{}\n",
                               posted->action == PostResult::Action::created ? "created" : "updated",
                               posted->url.empty() ? "" : ": " + posted->url);
    return {};
  }
  if (posted.error().refused_status == 0) return std::unexpected(Error(posted.error()));
  // The token may not comment, as a fork's pull_request run's may not: the gate still stands, so
  // this is a warning and the exit code stays the gate's.
  const bool summary = !env_or(env, "GITHUB_STEP_SUMMARY", "").empty();
  warnings << fmt::format("kforecast: warning: the report comment was not posted: {}\n", posted.error().message)
              << fmt::format("kforecast: warning: the report is in {}, and the exit code is the gate's{}\n",
                             summary ? "the step summary and the step outputs" : "the job's log",
                             github ? "; for pull requests from forks, post from a workflow_run workflow as "
                                      "docs/ci/github.md shows (\"Pull requests from forks\")"
                                    : "");
  return {};
}

}  // namespace kforecast::publish
