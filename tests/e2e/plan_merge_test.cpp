// SPDX-License-Identifier: Apache-2.0
// The plan / shard / merge path against one `kforecast pr` run on the same repository: the same
// report byte for byte (JSON and Markdown) and the same exit code, with the real binary on real
// git repositories — the 8x slower kernel without a GPU under on_unverified warn and fail, with
// --no-bench, and every fixtures/pr case (identical code, a head that does not compile, ...).
// Then what goes wrong between jobs: a shard's results missing, results of another plan.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "pr_bench_fixture.hpp"
#include "pr_fixture_cases.hpp"
#include "support/fake_forge.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// No GPU, whatever the machine: the outcome is the one this machine (GPU-less) gives anyway.
const std::string no_gpu = "KFORECAST_CUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Compared {
  Run single;
  Run merged;
};

// pr FORMAT once; then pr --plan, bench --plan --shard i/n for each i, report --merge FORMAT.
Compared single_and_split(const FixtureRepo& repo, const std::string& format, std::vector<std::string> pr_args,
                          std::size_t shards, std::vector<std::string> env) {
  env.push_back("XDG_CACHE_HOME=" + (repo.path() / ".git/kf-cache").string());
  std::vector<std::string> single_args{"pr", "--base", "HEAD~1", "--format", format};
  single_args.insert(single_args.end(), pr_args.begin(), pr_args.end());
  Compared compared{run_kforecast(single_args, repo.path(), env), {}};

  const fs::path plan = repo.path() / ".git/plan.json";
  std::vector<std::string> plan_args{"pr", "--base", "HEAD~1", "--plan", plan.string()};
  plan_args.insert(plan_args.end(), pr_args.begin(), pr_args.end());
  auto planned = run_kforecast(plan_args, repo.path(), env);
  INFO(planned.err);
  REQUIRE(planned.status == 0);
  CHECK(planned.out.empty());
  std::vector<std::string> merge_args{"report", "--merge", plan.string(), "--format", format};
  for (std::size_t i = 1; i <= shards; ++i) {
    const fs::path results = repo.path() / fmt::format(".git/results-{}.json", i);
    auto shard = run_kforecast(
        {"bench", "--plan", plan.string(), "--shard", fmt::format("{}/{}", i, shards), "--output", results.string()},
        repo.path(), env);
    INFO(shard.err);
    REQUIRE(shard.status == 0);
    merge_args.push_back(results.string());
  }
  compared.merged = run_kforecast(merge_args, repo.path(), env);
  return compared;
}

void check_same(const Compared& compared) {
  INFO("single pr: " << compared.single.err);
  INFO("merge: " << compared.merged.err);
  CHECK(compared.merged.status == compared.single.status);
  CHECK(compared.merged.out == compared.single.out);
  CHECK_FALSE(compared.single.out.empty());
}

}  // namespace

TEST_CASE("e2e: plan, two shards and merge give the report and exit code of one pr run (no GPU)") {
  for (const std::string on_unverified : {"warn", "fail"}) {
    INFO("on_unverified " << on_unverified);
    FixtureRepo repo;
    commit_slower_kernel(repo, "on_unverified = \"" + on_unverified + "\"\n");
    for (const std::string format : {"json", "md", "sarif"}) {
      INFO("format " << format);
      const auto compared = single_and_split(repo, format, {}, 2, {no_gpu});
      check_same(compared);
      CHECK(compared.single.status == (on_unverified == "fail" ? 1 : 0));
      if (format == "json") CHECK_THAT(compared.merged.out, Contains("unverified: not measured: no GPU here ("));
    }
    const auto no_bench = single_and_split(repo, "json", {"--no-bench"}, 2, {});
    check_same(no_bench);
    CHECK_THAT(no_bench.merged.out, Contains("--no-bench was given"));
    const auto one_shard = single_and_split(repo, "json", {}, 1, {no_gpu});
    check_same(one_shard);
    const auto more_shards_than_kernels = single_and_split(repo, "json", {}, 3, {no_gpu});
    check_same(more_shards_than_kernels);
  }
}

TEST_CASE("e2e: plan, shards and merge agree with pr on every fixture repository") {
  for (const auto& dir : pr_fixture_cases()) {
    INFO("fixture " << dir.filename().string());
    FixtureRepo repo;
    commit_pr_fixture(dir, repo);
    check_same(single_and_split(repo, "json", {}, 2, {no_gpu}));
  }
}

TEST_CASE("e2e: pr --plan writes the step outputs, and nothing to measure means no GPU job") {
  FixtureRepo repo;
  commit_slower_kernel(repo);
  const fs::path output = repo.path() / ".git/github_output";
  const fs::path plan = repo.path() / ".git/plan.json";
  auto planned = run_kforecast({"pr", "--base", "HEAD~1", "--plan", plan.string()}, repo.path(),
                               {no_gpu, "GITHUB_OUTPUT=" + output.string()});
  INFO(planned.err);
  REQUIRE(planned.status == 0);
  CHECK(read_file(output) ==
        "needs_gpu=true\nshards=2\nmatrix={\"shard\":[\"1/2\",\"2/2\"]}\nverdict_so_far=pending\n");
  CHECK_THAT(planned.err, Contains("2 kernels need a GPU (suggested: 2 shards)"));
  // The plan is self-contained: it carries both texts, so the GPU job needs no checkout.
  CHECK_THAT(read_file(plan), Contains("for (int rep = 0; rep < 8; ++rep)"));

  // A comment-only change: nothing to measure.
  repo.write("src/settle.cu", "// a comment\n" + settle_source(true));
  repo.commit("a comment");
  fs::remove(output);
  auto quiet = run_kforecast({"pr", "--base", "HEAD~1", "--plan", plan.string()}, repo.path(),
                             {no_gpu, "GITHUB_OUTPUT=" + output.string()});
  REQUIRE(quiet.status == 0);
  CHECK(read_file(output) == "needs_gpu=false\nshards=0\nmatrix={\"shard\":[]}\nverdict_so_far=pending\n");
  auto merged = run_kforecast({"report", "--merge", plan.string(), "--format", "json"}, repo.path());
  CHECK(merged.status == 0);
  CHECK_THAT(merged.out, Contains("\"verdict\": \"pass\""));
}

TEST_CASE("e2e: report --merge: a missing shard leaves its kernels unverified by name, and other plans are refused") {
  FixtureRepo repo;
  commit_slower_kernel(repo, "on_unverified = \"fail\"\n");
  const fs::path plan = repo.path() / ".git/plan.json";
  REQUIRE(run_kforecast({"pr", "--base", "HEAD~1", "--plan", plan.string()}, repo.path(), {no_gpu}).status == 0);
  const fs::path first = repo.path() / ".git/r1.json";
  REQUIRE(run_kforecast({"bench", "--plan", plan.string(), "--shard", "1/2", "--output", first.string()}, repo.path(),
                        {no_gpu})
              .status == 0);
  auto partial = run_kforecast({"report", "--merge", plan.string(), first.string(), "--format", "json"});
  INFO(partial.err);
  CHECK(partial.status == 1);
  CHECK_THAT(partial.out, Contains("unverified: not measured: no results for it: give report --merge the results of "
                                   "the shard that measures it (position 2 of the plan's 2 kernels: shard 2 of 2"));
  auto none = run_kforecast({"report", "--merge", plan.string(), "--format", "json"});
  CHECK(none.status == 1);
  CHECK_THAT(none.out, Contains("position 1 of the plan's 2 kernels"));

  // Another plan (the same repository, planned with --no-bench): its results are refused, by name.
  const fs::path other_plan = repo.path() / ".git/other.json";
  const fs::path other_results = repo.path() / ".git/other-results.json";
  REQUIRE(run_kforecast({"pr", "--base", "HEAD~1", "--no-bench", "--plan", other_plan.string()}, repo.path()).status ==
          0);
  REQUIRE(run_kforecast({"bench", "--plan", other_plan.string(), "--shard", "2/2", "--output", other_results.string()})
              .status == 0);
  auto mixed = run_kforecast({"report", "--merge", plan.string(), first.string(), other_results.string()});
  CHECK(mixed.status == 2);
  CHECK_THAT(mixed.err, Contains(other_results.string() + ": these results belong to another plan"));
  auto twice = run_kforecast({"report", "--merge", plan.string(), first.string(), first.string()});
  CHECK(twice.status == 2);
  CHECK_THAT(twice.err, Contains("is in two results files"));
}

TEST_CASE("e2e: plan, bench --plan and report --merge refuse bad input with a clear error") {
  FixtureRepo repo;
  const fs::path junk = repo.path() / "junk.json";
  std::ofstream(junk) << "{\"kforecast_plan\": 1, \"kforecast\": \"0.1\"";
  auto bench = run_kforecast({"bench", "--plan", junk.string(), "--shard", "1/1"});
  CHECK(bench.status == 2);
  CHECK_THAT(bench.err, Contains(junk.string() + ": not a kforecast plan: not JSON"));
  auto merge = run_kforecast({"report", "--merge", junk.string()});
  CHECK(merge.status == 2);
  CHECK_THAT(merge.err, Contains(junk.string()));
  for (const std::string shard : {"0/2", "3/2", "1", "a/b", "1/0", "1/2x"}) {
    auto bad = run_kforecast({"bench", "--plan", junk.string(), "--shard", shard});
    CHECK(bad.status == 2);
    CHECK_THAT(bad.err, Contains("--shard " + shard + ": expected I/N"));
  }
  auto no_shard = run_kforecast({"bench", "--plan", junk.string()});
  CHECK(no_shard.status == 2);
  CHECK_THAT(no_shard.err, Contains("--plan needs --shard I/N"));
  auto missing = run_kforecast({"report", "--merge", (repo.path() / "none.json").string()});
  CHECK(missing.status != 0);
  auto no_merge = run_kforecast({"report"});
  CHECK(no_merge.status == 2);
  CHECK_THAT(no_merge.err, Contains("needs --merge PLAN RESULTS"));
  auto plan_and_post = run_kforecast({"pr", "--base", "HEAD~1", "--plan", "p.json", "--post"}, repo.path());
  CHECK(plan_and_post.status == 2);
}

TEST_CASE("e2e: report --merge --post updates the comment a single pr --post made, with the same body") {
  const std::string token = "ghs_plan_merge_token_never_shown";
  FixtureRepo repo;
  commit_slower_kernel(repo);
  const std::string base = repo.git({"rev-parse", "HEAD~1"}), head = repo.git({"rev-parse", "HEAD"});
  kforecast::testing::TempDir runner;
  kforecast::testing::FakeForge github{kforecast::testing::FakeForge::Kind::github, token, "", "octo/kernels", "12"};
  std::ofstream(runner.path() / "event.json")
      << R"({"number": 12, "pull_request": {"number": 12, "author_association": "MEMBER", "base": {"sha": ")"
      << base.substr(0, 40) << R"(", "repo": {"full_name": "octo/kernels"}}, "head": {"sha": ")" << head.substr(0, 40)
      << R"(", "repo": {"full_name": "octo/kernels"}}}})";
  // A member's pull request: compiled whether or not this machine can sandbox a fork's, so both
  // ways reach the same report (a fork's refusal is decided per job: e2e/sandbox_test.cpp).
  const std::vector<std::string> env{no_gpu,
                                     "GITHUB_ACTIONS=true",
                                     "GITHUB_EVENT_NAME=pull_request",
                                     "GITHUB_EVENT_PATH=" + (runner.path() / "event.json").string(),
                                     "GITHUB_REPOSITORY=octo/kernels",
                                     "GITHUB_API_URL=" + github.api_url(),
                                     "GITHUB_TOKEN=" + token,
                                     "GITHUB_OUTPUT=" + (runner.path() / "output.txt").string()};
  auto single = run_kforecast({"pr", "--post"}, repo.path(), env);
  INFO(single.err);
  REQUIRE(single.status == 0);
  REQUIRE(github.comments().size() == 1);
  const std::string single_body = github.comments()[0].body;

  const std::string plan = (runner.path() / "plan.json").string(), results = (runner.path() / "r.json").string();
  REQUIRE(run_kforecast({"pr", "--plan", plan}, repo.path(), env).status == 0);
  REQUIRE(run_kforecast({"bench", "--plan", plan, "--shard", "1/1", "--output", results}, {}, {no_gpu}).status == 0);
  auto merged = run_kforecast({"report", "--merge", plan, results, "--post"}, {}, env);
  INFO(merged.err);
  CHECK(merged.status == 0);
  CHECK(merged.out == single.out);
  CHECK_THAT(merged.err, Contains("updated the report comment"));
  REQUIRE(github.comments().size() == 1);
  CHECK(github.comments()[0].body == single_body);
  const std::string outputs = read_file(runner.path() / "output.txt");
  CHECK_THAT(outputs, Contains("needs_gpu=true\nshards=2\n"));
  CHECK(outputs.ends_with("verdict=pass\nneeds_gpu=true\nunjudged=2\n"));  // the merge's, as pr --post writes them
  for (const auto& text : {single.out, single.err, merged.out, merged.err, read_file(plan), read_file(results)})
    CHECK_THAT(text, !Contains(token));
}

TEST_CASE("e2e: --help teaches plan, shard and merge") {
  auto pr = run_kforecast({"help", "pr"});
  CHECK_THAT(pr.out, Contains("--plan FILE"));
  CHECK_THAT(pr.out, Contains("kforecast report --merge"));
  auto bench = run_kforecast({"help", "bench"});
  CHECK_THAT(bench.out, Contains("--shard I/N"));
  CHECK_THAT(bench.out, Contains("kforecast bench --plan plan.json --shard ${{ matrix.shard }}"));
  auto report = run_kforecast({"help", "report"});
  CHECK(report.status == 0);
  CHECK_THAT(report.out, Contains("kforecast report --merge PLAN RESULTS..."));
  CHECK_THAT(report.out, Contains("byte for byte"));
  auto main = run_kforecast({"--help"});
  CHECK_THAT(main.out, Contains("report"));
}
