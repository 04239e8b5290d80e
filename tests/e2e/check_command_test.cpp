// SPDX-License-Identifier: Apache-2.0
// `kforecast check`: the real binary on fixture repositories, the work tree against HEAD (or a
// revision, or another file). These run anywhere (no GPU: the driver is pointed at nothing);
// NVRTC's identical-code tier is tested in check_nvrtc_test.cpp, measuring in check_gpu_test.cpp.
#include <fstream>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "check_fixture.hpp"
#include "e2e.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

Run check(const FixtureRepo& repo, std::vector<std::string> args) {
  args.insert(args.begin(), "check");
  return run_kforecast(args, repo.path(), check_environment(repo));
}

}  // namespace

TEST_CASE("e2e: check forecasts a kernel changed in the work tree against HEAD") {
  FixtureRepo repo;
  commit_scale_kernel(repo);
  auto run = check(repo, {"src/scale.cu:scale"});
  INFO(run.err);
  CHECK(run.status == 0);  // unverified warns by default
  CHECK_THAT(run.out, StartsWith("kforecast check: pass, but 1 kernel could not be judged\n"));
  CHECK_THAT(run.out, Contains("scale  src/scale.cu:"));
  CHECK_THAT(run.out, Contains("forecast      bin "));
  CHECK_THAT(run.out, Contains("P(regression) "));
  CHECK_THAT(run.out, Contains("confidence    "));
  CHECK_THAT(run.out, Contains("(embedded)"));
  CHECK_THAT(run.out, Contains("decision      forecast only"));
  CHECK_THAT(run.out, Contains("not measured: check measures only with --bench: add it"));
  CHECK_THAT(run.out, Contains("src/scale.cu in the work tree against HEAD"));
  // Every kernel of the file without :KERNEL; the unchanged one is reported too.
  auto all = check(repo, {"src/scale.cu"});
  CHECK(all.status == 0);
  CHECK_THAT(all.out, Contains("scale  src/scale.cu:"));
  CHECK_THAT(all.out, Contains("copy  src/scale.cu:"));
}

TEST_CASE("e2e: check --format json is pr's report, with the kernel") {
  FixtureRepo repo;
  commit_scale_kernel(repo);
  auto run = check(repo, {"src/scale.cu:scale", "--format", "json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto report = nlohmann::json::parse(run.out, nullptr, false);
  REQUIRE(report.is_object());
  CHECK(report.at("verdict") == "pass");
  CHECK(report.at("head") == "working tree");
  const auto& kernels = report.at("kernels");
  REQUIRE(kernels.is_array());
  REQUIRE(kernels.size() == 1);
  const auto& kernel = kernels.at(0);
  CHECK(kernel.at("name") == "scale");
  CHECK(kernel.at("file") == "src/scale.cu");
  CHECK(kernel.at("forecast").at("forecaster") == "embedded");
  CHECK(kernel.at("forecast").at("probabilities").size() == 8);
  CHECK(kernel.at("measurement").is_null());
}

TEST_CASE("e2e: check --against an older revision, and --vs another file") {
  FixtureRepo repo;
  commit_scale_kernel(repo);
  repo.commit("head: the work tree's change");
  // The work tree equals HEAD now; HEAD~1 holds the original.
  auto older = check(repo, {"src/scale.cu:scale", "--against", "HEAD~1", "--format", "json"});
  INFO(older.err);
  CHECK(older.status == 0);
  CHECK_THAT(older.out, Contains("\"forecaster\": \"embedded\""));

  repo.write("old/scale_v1.cu", scale_source(ScaleBody::original));
  auto versus = check(repo, {"src/scale.cu:scale", "--vs", "old/scale_v1.cu:scale"});
  INFO(versus.err);
  CHECK(versus.status == 0);
  CHECK_THAT(versus.out, Contains("forecast      bin "));
  CHECK_THAT(versus.out, Contains("src/scale.cu against old/scale_v1.cu"));
  // Another name at the reference.
  repo.write("old/renamed.cu",
             "__global__ void scale_v0(float* a, int n) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i < n) a[i] = a[i] * 2.0f;\n}\n");
  auto renamed = check(repo, {"src/scale.cu:scale", "--vs", "old/renamed.cu:scale_v0"});
  INFO(renamed.err);
  CHECK(renamed.status == 0);
  CHECK_THAT(renamed.out, Contains("scale  src/scale.cu:"));
}

TEST_CASE("e2e: check says clearly what is wrong, exit 2") {
  FixtureRepo repo;
  commit_scale_kernel(repo);
  auto missing = check(repo, {"src/nothere.cu:scale"});
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Contains("src/nothere.cu: no such file"));

  auto typo = check(repo, {"src/scale.cu:scael"});
  CHECK(typo.status == 2);
  CHECK_THAT(typo.err, Contains("no __global__ kernel 'scael' (did you mean 'scale'?)"));

  auto revision = check(repo, {"src/scale.cu:scale", "--against", "no-such-branch"});
  CHECK(revision.status == 2);
  CHECK_THAT(revision.err, Contains("--against no-such-branch"));

  repo.write("src/fresh.cu", scale_source(ScaleBody::original));
  auto fresh = check(repo, {"src/fresh.cu:scale"});
  CHECK(fresh.status == 2);
  CHECK_THAT(fresh.err, Contains("src/fresh.cu does not exist at HEAD"));
  CHECK_THAT(fresh.err, Contains("nothing to compare with"));

  repo.write("src/scale.cu", scale_source(ScaleBody::changed) + "__global__ void brand_new(float* a) { a[0] = 1; }\n");
  auto added = check(repo, {"src/scale.cu:brand_new"});
  CHECK(added.status == 2);
  CHECK_THAT(added.err, Contains("kernel 'brand_new' is not in src/scale.cu at HEAD: a new kernel"));

  auto both = check(repo, {"src/scale.cu:scale", "--against", "HEAD", "--vs", "src/scale.cu"});
  CHECK(both.status == 2);
  auto format = check(repo, {"src/scale.cu:scale", "--format", "md"});
  CHECK(format.status == 2);
  CHECK_THAT(format.err, Contains("expected text or json"));
}

TEST_CASE("e2e: check outside a git work tree needs --vs") {
  kforecast::testing::TempDir directory;
  std::ofstream(directory.path() / "new.cu") << scale_source(ScaleBody::changed);
  std::ofstream(directory.path() / "old.cu") << scale_source(ScaleBody::original);
  auto against = run_kforecast({"check", "new.cu:scale"}, directory.path());
  CHECK(against.status == 2);
  CHECK_THAT(against.err, Contains("new.cu: not in a git work tree, so it has no revision to compare with"));
  auto versus = run_kforecast({"check", "new.cu:scale", "--vs", "old.cu", "--format", "json"}, directory.path(),
                              {"KFORECAST_CUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1"});
  INFO(versus.err);
  CHECK(versus.status == 0);
  CHECK_THAT(versus.out, Contains("\"name\": \"scale\""));
}

TEST_CASE("e2e: check --bench without a GPU exits 3 and says why") {
  FixtureRepo repo;
  commit_scale_kernel(repo);
  auto run = check(repo, {"src/scale.cu:scale", "--bench"});
  CHECK(run.status == 3);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, StartsWith("kforecast: error: --bench needs a GPU to measure on: no GPU here"));
  CHECK_THAT(run.err, Contains("run without --bench for the forecast alone"));
}

TEST_CASE("e2e: help check teaches with an example") {
  auto help = run_kforecast({"help", "check"});
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Contains("kforecast check src/gemm.cu:sgemm"));
  CHECK_THAT(help.out, Contains("--against REV"));
  CHECK_THAT(help.out, Contains("--bench"));
}
