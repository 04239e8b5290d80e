// SPDX-License-Identifier: Apache-2.0
#include "cli/post_step.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "base/redaction.hpp"
#include "base/text_file.hpp"
#include "git/github_event.hpp"
#include "llm/curl_transport.hpp"
#include "publish/sticky_comment.hpp"
#include "report/comment_fit.hpp"
#include "report/writer.hpp"

namespace kforecast::cli {
namespace {

std::string env_or(const EnvLookup& env, std::string_view name, std::string fallback) {
  auto value = env(name);
  return value && !value->empty() ? *value : fallback;
}

// Appends to a file GitHub Actions hands the step (summary, outputs); each write is whole.
Result<void> append_to(const std::string& path, std::string_view text, std::string_view what) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  if (!out || !(out << redact_secrets(text)) || !out.flush())
    return fail(ExitCode::could_not_run, fmt::format("cannot append to {} ({})", what, path));
  return {};
}

// Where the full report lives when the comment is cut: the workflow run, whose summary holds it.
std::string full_report_place(const EnvLookup& env) {
  const auto server = env("GITHUB_SERVER_URL"), repository = env("GITHUB_REPOSITORY"), run = env("GITHUB_RUN_ID");
  if (server && repository && run) return fmt::format("{}/{}/actions/runs/{}", *server, *repository, *run);
  if (auto job = env("CI_JOB_URL")) return *job;
  return "the CI job's log";
}

Result<publish::Forge> github_forge(const EnvLookup& env) {
  const auto event_path = env("GITHUB_EVENT_PATH");
  if (!event_path) return usage_error("--post: GITHUB_EVENT_PATH is not set, so the pull request is unknown");
  auto text = read_text_file(*event_path, "GitHub event file");
  if (!text) return std::unexpected(text.error());
  const std::string event_name = env_or(env, "GITHUB_EVENT_NAME", "");
  auto event = git::parse_github_event(*text, event_name, *event_path);
  if (!event) return std::unexpected(event.error());
  if (event->pull_request_number.empty())
    return usage_error(fmt::format(
        "--post: the `{}` event has no pull request to comment on; --post runs on pull_request events", event_name));
  return publish::Forge{publish::Forge::Kind::github, env_or(env, "GITHUB_API_URL", "https://api.github.com"),
                        env_or(env, "GITHUB_REPOSITORY", ""), event->pull_request_number,
                        env_or(env, "GITHUB_TOKEN", "")};
}

Result<publish::Forge> gitlab_forge(const EnvLookup& env) {
  const std::string iid = env_or(env, "CI_MERGE_REQUEST_IID", "");
  if (iid.empty())
    return usage_error("--post: CI_MERGE_REQUEST_IID is not set: --post runs in merge-request pipelines");
  const std::string token = env_or(env, "GITLAB_TOKEN", "");
  return publish::Forge{publish::Forge::Kind::gitlab,
                        env_or(env, "CI_API_V4_URL", ""),
                        env_or(env, "CI_PROJECT_ID", ""),
                        iid,
                        token.empty() ? env_or(env, "CI_JOB_TOKEN", "") : token,
                        token.empty()};
}

}  // namespace

bool report_needs_gpu(const report::Report& report) {
  for (const auto& kernel : report.kernels)
    if (kernel.decision == report::Decision::forecast_only && kernel.verdict == report::KernelVerdict::warn)
      return true;
  return false;
}

Result<void> post_report(const report::Report& report, Context& context) {
  const EnvLookup& env = context.env;
  const bool github = env("GITHUB_ACTIONS") == "true", gitlab = env("GITLAB_CI") == "true";
  if (!github && !gitlab)
    return usage_error("--post works in GitHub Actions (pull_request events) and GitLab merge-request pipelines");
  std::ostringstream markdown;
  report::make_markdown_writer(markdown)->write(report);

  if (github) {
    // The summary and outputs first: they need no token and still help when posting fails.
    if (auto summary = env("GITHUB_STEP_SUMMARY"); summary && !summary->empty())
      if (auto appended = append_to(*summary, markdown.str(), "the step summary"); !appended) return appended;
    if (auto output = env("GITHUB_OUTPUT"); output && !output->empty()) {
      const auto lines = fmt::format("verdict={}\nneeds_gpu={}\n", report::to_string(report.verdict),
                                     report_needs_gpu(report) ? "true" : "false");
      if (auto appended = append_to(*output, lines, "the step outputs"); !appended) return appended;
    }
  }
  auto forge = github ? github_forge(env) : gitlab_forge(env);
  if (!forge) return std::unexpected(forge.error());
  const auto transport = llm::make_curl_transport({.proxies = llm::proxy_settings_from(env)});
  const std::string body =
      report::fit_for_comment(markdown.str(), report::github_comment_limit, full_report_place(env));
  auto posted = publish::post_sticky_comment(*transport, *forge, body);
  if (!posted) return std::unexpected(posted.error());
  context.err << fmt::format("kforecast: {} the report comment{}\n",
                             posted->action == publish::PostResult::Action::created ? "created" : "updated",
                             posted->url.empty() ? "" : ": " + posted->url);
  return {};
}

}  // namespace kforecast::cli
