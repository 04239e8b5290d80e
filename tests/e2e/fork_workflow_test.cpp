// SPDX-License-Identifier: Apache-2.0
// The fork workflow of docs/ci/github.md, job by job, with the real binary against the fake
// GitHub on loopback: a pull request from a fork (`forker:patch-1`) whose `pull_request` run holds
// a read-only token (the fake answers 403 to every write with it), then the `workflow_run` run of
// docs/ci/kforecast-comment.yml with a write token that posts the report. Also what a read-only
// token does to `pr --post` and `report --merge --post` anywhere: a warning and the gate's exit
// code, never exit 3; and the step summary and outputs, written in every mode.

#include <catch2/catch.hpp>

#include "gate_job.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using kforecast::testing::FakeForge;
using kforecast::testing::ScriptedResponse;
namespace fs = std::filesystem;

namespace {

const std::string read_only_token = "ghs_fork_read_only_token_never_shown";
const std::string write_token = "ghs_comment_write_token_never_shown";
const std::vector<std::string> no_gpu{"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so",
                                      "KFORECAST_CUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1"};

// One kernel whose constant changed: forecast, and with no GPU left unverified.
void constant_changed(FixtureRepo& repo, const std::string& config = "") {
  if (!config.empty()) repo.write(".kforecast.toml", config);
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 2.0f; }\n");
  repo.commit("head");
}

// The runner of one workflow run: its event file and the step's summary and outputs files.
struct ForkPullRequest {
  explicit ForkPullRequest(const std::string& config = "") {
    constant_changed(repo, config);
    base = repo.git({"rev-parse", "HEAD~1"}).substr(0, 40);
    head = repo.git({"rev-parse", "HEAD"}).substr(0, 40);
    github.add_read_only_token(read_only_token);
    github.set_pull_request_head("forker:patch-1", head);
    // What GitHub writes for a `pull_request` run of a fork's pull request.
    std::ofstream(runner.path() / "pull_request.json")
        << R"({"action": "synchronize", "number": 12, "pull_request": {"number": 12, "base": {"sha": ")" << base
        << R"(", "ref": "main", "repo": {"full_name": "octo/kernels"}}, "head": {"sha": ")" << head
        << R"(", "ref": "patch-1", "label": "forker:patch-1", "repo": {"full_name": "forker/kernels"}}}})";
    write_workflow_run(head);
  }

  // What GitHub writes for the `workflow_run` run that workflow 1's run of `sha` triggers: for a
  // fork, `pull_requests` is empty.
  void write_workflow_run(const std::string& sha) const {
    std::ofstream(runner.path() / "workflow_run.json")
        << R"({"action": "completed", "workflow_run": {"id": 41, "event": "pull_request", "conclusion": "success", )"
        << R"("head_sha": ")" << sha << R"(", "head_branch": "patch-1", "pull_requests": [], )"
        << R"("head_repository": {"full_name": "forker/kernels", "owner": {"login": "forker"}}}})";
  }

  // The GitHub Actions environment of a step in a run of `event`, with `token`; the step files
  // are named after `step` so each job's can be read apart.
  std::vector<std::string> actions_env(const std::string& event, const std::string& token,
                                       const std::string& step) const {
    std::vector<std::string> env{"GITHUB_ACTIONS=true",
                                 "GITHUB_EVENT_NAME=" + event,
                                 "GITHUB_EVENT_PATH=" + (runner.path() / (event + ".json")).string(),
                                 "GITHUB_REPOSITORY=octo/kernels",
                                 "GITHUB_API_URL=" + github.api_url(),
                                 "GITHUB_SERVER_URL=https://github.example",
                                 "GITHUB_RUN_ID=99",
                                 "GITHUB_TOKEN=" + token,
                                 "GITHUB_STEP_SUMMARY=" + summary_path(step).string(),
                                 "GITHUB_OUTPUT=" + output_path(step).string(),
                                 "XDG_CACHE_HOME=" + (runner.path() / "cache").string()};
    env.insert(env.end(), no_gpu.begin(), no_gpu.end());
    return env;
  }
  fs::path summary_path(const std::string& step) const { return runner.path() / (step + "-summary.md"); }
  fs::path output_path(const std::string& step) const { return runner.path() / (step + "-output.txt"); }
  std::string summary(const std::string& step) const { return read_text(summary_path(step)); }
  std::string outputs(const std::string& step) const { return read_text(output_path(step)); }
  std::string plan() const { return (runner.path() / "kforecast-plan.json").string(); }

  FixtureRepo repo;
  kforecast::testing::TempDir runner;
  FakeForge github{FakeForge::Kind::github, write_token, "", "octo/kernels", "12"};
  std::string base, head;
};

void check_no_token(const std::vector<std::string>& texts) {
  for (const auto& text : texts) {
    CHECK_THAT(text, !Contains(read_only_token));
    CHECK_THAT(text, !Contains(write_token));
  }
}

}  // namespace

TEST_CASE("e2e fork workflow: plan and merge on pull_request with a read-only token, post on workflow_run") {
  ForkPullRequest fork;

  // Workflow 1 (docs/ci/kforecast-workflow.yml, `on: pull_request`), job `plan`: `pr --plan`.
  auto planned = run_kforecast({"pr", "--plan", fork.plan()}, fork.repo.path(),
                               fork.actions_env("pull_request", read_only_token, "plan"));
  INFO("plan: " << planned.err);
  REQUIRE(planned.status == 0);
  CHECK_THAT(fork.outputs("plan"), Contains("needs_gpu=true\n"));
  CHECK_THAT(fork.summary("plan"), Contains("## kforecast plan: 1 kernel needs a GPU"));

  // Job `measure` is skipped: a fork's pull request without a maintainer's `gpu-ok` label.
  // Job `merge`: `report --merge` without --post, from the plan alone, no checkout.
  auto merged =
      run_kforecast({"report", "--merge", fork.plan()}, {}, fork.actions_env("pull_request", read_only_token, "merge"));
  INFO("merge: " << merged.err);
  CHECK(merged.status == 0);
  CHECK(fork.summary("merge") == merged.out);
  CHECK_THAT(merged.out, Contains("## kforecast: pass"));
  CHECK_THAT(fork.outputs("merge"), Contains("verdict=pass\nneeds_gpu=true\nunjudged=1\n"));
  CHECK(fork.github.server().request_count() == 0);

  // Workflow 2 (docs/ci/kforecast-comment.yml, `on: workflow_run`), job `comment`: the same
  // artifacts, `report --merge --post` with the write token; the pull request is found from the
  // run's head, since a fork's workflow_run event names none.
  auto posted = run_kforecast({"report", "--merge", fork.plan(), "--post"}, {},
                              fork.actions_env("workflow_run", write_token, "comment"));
  INFO("comment: " << posted.err);
  CHECK(posted.status == 0);
  CHECK_THAT(posted.err, Contains("created the report comment"));
  REQUIRE(fork.github.comments().size() == 1);
  CHECK(fork.github.comments()[0].body == "<!-- kforecast:report -->\n" + merged.out);
  CHECK(fork.summary("comment") == merged.out);

  // The next run of workflow 2 (a new push) updates the one comment.
  auto again = run_kforecast({"report", "--merge", fork.plan(), "--post"}, {},
                             fork.actions_env("workflow_run", write_token, "comment"));
  CHECK(again.status == 0);
  CHECK_THAT(again.err, Contains("updated the report comment"));
  CHECK(fork.github.comments().size() == 1);
  check_no_token({planned.out, planned.err, merged.out, merged.err, posted.out, posted.err, fork.summary("comment"),
                  fork.outputs("comment"), read_text(fork.plan())});
}

TEST_CASE("e2e fork workflow: workflow_run posts nothing when the artifacts are not of the run's head") {
  ForkPullRequest fork;
  REQUIRE(run_kforecast({"pr", "--plan", fork.plan()}, fork.repo.path(),
                        fork.actions_env("pull_request", read_only_token, "plan"))
              .status == 0);
  SECTION("a plan of another commit") {
    fork.write_workflow_run(fork.base);
    auto posted = run_kforecast({"report", "--merge", fork.plan(), "--post"}, {},
                                fork.actions_env("workflow_run", write_token, "comment"));
    CHECK(posted.status == 2);
    CHECK_THAT(posted.err, Contains("the report is of commit " + fork.head.substr(0, 12)));
    CHECK_THAT(posted.err, Contains(fork.base.substr(0, 12)));
  }
  SECTION("no open pull request has that head") {
    fork.github.set_pull_request_head("forker:patch-1", fork.base);
    auto posted = run_kforecast({"report", "--merge", fork.plan(), "--post"}, {},
                                fork.actions_env("workflow_run", write_token, "comment"));
    CHECK(posted.status == 2);
    CHECK_THAT(posted.err, Contains("no open pull request of octo/kernels has head forker:patch-1 at"));
  }
  CHECK(fork.github.comments().empty());
}

TEST_CASE("e2e: --post with a token that cannot write warns and exits by the gate, not 3") {
  {
    const std::string on_unverified = GENERATE(as<std::string>{}, "warn", "fail");
    INFO("on_unverified " << on_unverified);
    const int gate = on_unverified == "fail" ? 1 : 0;
    ForkPullRequest fork("[policy]\non_unverified = \"" + on_unverified + "\"\n");
    SECTION("pr --post, a fork's read-only token (403)") {
      auto run =
          run_kforecast({"pr", "--post"}, fork.repo.path(), fork.actions_env("pull_request", read_only_token, "gate"));
      INFO(run.err);
      CHECK(run.status == gate);
      CHECK_THAT(run.err, Contains("kforecast: warning: the report comment was not posted"));
      CHECK_THAT(run.err, Contains("HTTP 403"));
      CHECK_THAT(run.err, Contains("workflow_run"));
      CHECK_THAT(run.err, Contains("docs/ci/github.md"));
      CHECK_THAT(fork.summary("gate"), Contains("## kforecast: " + std::string(gate ? "fail" : "pass")));
      CHECK_THAT(fork.outputs("gate"), Contains(std::string("verdict=") + (gate ? "fail" : "pass")));
      check_no_token({run.out, run.err});
    }
    SECTION("report --merge --post, a fork's read-only token (403)") {
      REQUIRE(run_kforecast({"pr", "--plan", fork.plan()}, fork.repo.path(),
                            fork.actions_env("pull_request", read_only_token, "plan"))
                  .status == 0);
      auto run = run_kforecast({"report", "--merge", fork.plan(), "--post"}, {},
                               fork.actions_env("pull_request", read_only_token, "merge"));
      INFO(run.err);
      CHECK(run.status == gate);
      CHECK_THAT(run.err, Contains("kforecast: warning: the report comment was not posted"));
      CHECK_THAT(fork.outputs("merge"), Contains(std::string("verdict=") + (gate ? "fail" : "pass")));
    }
    SECTION("pr --post, a rejected token (401)") {
      auto run =
          run_kforecast({"pr", "--post"}, fork.repo.path(), fork.actions_env("pull_request", "ghs_revoked", "gate"));
      INFO(run.err);
      CHECK(run.status == gate);
      CHECK_THAT(run.err, Contains("kforecast: warning: the report comment was not posted"));
      CHECK_THAT(run.err, Contains("HTTP 401"));
    }
    SECTION("pr --post, a token that cannot see the pull request (404)") {
      fork.github.queue_failure(ScriptedResponse::json(403, R"({"message": "Resource not accessible"})"));
      fork.github.queue_failure(ScriptedResponse::json(404, R"({"message": "Not Found"})"));
      auto run =
          run_kforecast({"pr", "--post"}, fork.repo.path(), fork.actions_env("pull_request", write_token, "gate"));
      INFO(run.err);
      CHECK(run.status == gate);
      CHECK_THAT(run.err, Contains("HTTP 404"));
      CHECK_THAT(fork.summary("gate"), Contains("## kforecast: "));
    }
    CHECK(fork.github.comments().empty());
  }
}

TEST_CASE("e2e: a server error while posting is still exit 3, after the summary and outputs are written") {
  ForkPullRequest fork;
  for (int i = 0; i < 4; ++i) fork.github.queue_failure(ScriptedResponse::json(502, R"({"message": "Bad gateway"})"));
  auto run = run_kforecast({"pr", "--post"}, fork.repo.path(), fork.actions_env("pull_request", write_token, "gate"));
  CHECK(run.status == 3);
  CHECK_THAT(fork.summary("gate"), Contains("## kforecast: pass"));
  CHECK_THAT(fork.outputs("gate"), Contains("verdict=pass\n"));
}

TEST_CASE("e2e: pr and report --merge write the step summary and outputs without --post, in every mode") {
  ForkPullRequest fork;
  // Outside GitHub Actions too: the files are written wherever the variables name them.
  const std::vector<std::string> files{
      "GITHUB_STEP_SUMMARY=" + fork.summary_path("step").string(), "GITHUB_OUTPUT=" + fork.output_path("step").string(),
      "KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so", "KFORECAST_CUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1"};
  SECTION("pr, Markdown on standard output") {
    auto run = run_kforecast({"pr", "--base", "HEAD~1"}, fork.repo.path(), files);
    CHECK(run.status == 0);
    CHECK(fork.summary("step") == run.out);
    CHECK(fork.outputs("step") == "verdict=pass\nneeds_gpu=true\nunjudged=1\n");
  }
  SECTION("pr --format json --output: the summary is still Markdown") {
    const std::string report = (fork.runner.path() / "report.json").string();
    auto run =
        run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--output", report}, fork.repo.path(), files);
    CHECK(run.status == 0);
    CHECK_THAT(fork.summary("step"), Contains("## kforecast: pass"));
    CHECK_THAT(read_text(report), Contains("\"verdict\": \"pass\""));
    CHECK(fork.outputs("step") == "verdict=pass\nneeds_gpu=true\nunjudged=1\n");
  }
  SECTION("pr --plan, then report --merge") {
    auto planned = run_kforecast({"pr", "--base", "HEAD~1", "--plan", fork.plan()}, fork.repo.path(), files);
    CHECK(planned.status == 0);
    CHECK_THAT(fork.summary("step"), Contains("## kforecast plan: 1 kernel needs a GPU"));
    CHECK_THAT(fork.summary("step"), Contains("`k`"));
    CHECK_THAT(fork.outputs("step"), Contains("needs_gpu=true\nshards=1\n"));
    auto merged = run_kforecast({"report", "--merge", fork.plan()}, {}, files);
    CHECK(merged.status == 0);
    CHECK(fork.summary("step").ends_with(merged.out));
    CHECK(fork.outputs("step").ends_with("verdict=pass\nneeds_gpu=true\nunjudged=1\n"));
  }
  SECTION("a gate that fails still writes both, and exits 1") {
    fork.repo.write(".kforecast.toml", "[policy]\non_unverified = \"fail\"\n");
    auto run = run_kforecast({"pr", "--base", "HEAD~1", "--config", (fork.repo.path() / ".kforecast.toml").string()},
                             fork.repo.path(), files);
    CHECK(run.status == 1);
    CHECK(fork.summary("step") == run.out);
    CHECK(fork.outputs("step").starts_with("verdict=fail\n"));
  }
  CHECK(fork.github.server().request_count() == 0);
}
