// SPDX-License-Identifier: Apache-2.0
// The jobs that read a plan treat it as data. A forged plan's config naming a library to load, a
// program or a command does not reach `bench --plan` (a GPU job) or `report --merge`: a library
// whose constructor writes a marker file is never loaded, though the same library named by the
// job's own environment is. A plan past its limits (its size, its kernels, a field's length) is
// refused before it is read whole, and so is one whose kernels carry compile arguments the
// project's allow-list refuses.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "plan_forged.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// A config that names the marker library for every library kforecast loads.
std::string forged_libraries(const fs::path& dir) {
  return fmt::format("[cuda]\ndriver_library = \"{0}\"\nnvrtc_library = \"{0}\"\nnvcc = \"{1}/evil-nvcc\"\n",
                     KF_DLOPEN_MARKER_LIBRARY, dir.string());
}

// A config that names a command for everything that runs one, and a file to write.
std::string forged_commands(const fs::path& dir) {
  return fmt::format(
      "[capture]\ncommand = \"touch {0}/capture-ran\"\nbuild = \"touch {0}/build-ran\"\ndir = \"/etc\"\n"
      "[policy]\nledger = \"{0}/forged-ledger.jsonl\"\n"
      "[[harness]]\nname = \"forged\"\nbuild = \"touch {0}/harness-ran\"\nrun = \"touch {0}/harness-ran {{filter}}\"\n"
      "format = \"simple\"\n[[harness.map]]\nkernels = [\"*\"]\nbenchmarks = \"x\"\n",
      dir.string());
}

}  // namespace

TEST_CASE("e2e: bench --plan and report --merge load no library a plan names") {
  const testing::TempDir dir;
  const fs::path plan_path = dir.path() / "plan.json", results = dir.path() / "results.json";
  const fs::path marker = dir.path() / "loaded";
  plan::Plan plan = two_kernel_plan();
  plan.config_text = forged_libraries(dir.path());
  write_file(plan_path, plan::plan_json(plan));
  const std::vector<std::string> env{"KF_DLOPEN_MARKER=" + marker.string()};

  auto shard = run_kforecast({"bench", "--plan", plan_path.string(), "--shard", "1/1", "--output", results.string()},
                             dir.path(), env);
  INFO(shard.err);
  CHECK(shard.status == 0);
  CHECK_FALSE(fs::exists(marker));
  CHECK_THAT(read_file(results), Contains("\"unmeasured\": \""));  // no GPU, or (on a GPU) no launch spec

  auto merged =
      run_kforecast({"report", "--merge", plan_path.string(), results.string(), "--format", "json"}, dir.path(), env);
  INFO(merged.err);
  CHECK(merged.status == 0);
  CHECK_FALSE(fs::exists(marker));

  // The marker does mark a load: the job's own setting of the same library loads it.
  auto own =
      run_kforecast({"bench", "--plan", plan_path.string(), "--shard", "1/1", "--output", results.string()}, dir.path(),
                    {env[0], fmt::format("KFORECAST_CUDA_DRIVER_LIBRARY={}", KF_DLOPEN_MARKER_LIBRARY)});
  CHECK(own.status == 0);
  CHECK(fs::exists(marker));
}

TEST_CASE("e2e: bench --plan runs no harness or capture command and writes no ledger a plan names") {
  const testing::TempDir dir;
  const fs::path plan_path = dir.path() / "plan.json", results = dir.path() / "results.json";
  plan::Plan plan = two_kernel_plan();
  plan.config_text = forged_commands(dir.path());
  write_file(plan_path, plan::plan_json(plan));
  auto shard = run_kforecast({"bench", "--plan", plan_path.string(), "--shard", "1/1", "--output", results.string()},
                             dir.path());
  INFO(shard.err);
  CHECK(shard.status == 0);
  // Not the plan's [[harness]]: the kernel went on as with no harness at all (no GPU here, or on a
  // GPU no launch spec).
  const std::string written = read_file(results);
  CHECK_THAT(written, Contains("\"unmeasured\": \"") && !Contains("harness"));
  for (const char* ran : {"capture-ran", "build-ran", "harness-ran", "forged-ledger.jsonl"})
    CHECK_FALSE(fs::exists(dir.path() / ran));
}

TEST_CASE("e2e: a plan past its limits is refused by bench --plan and report --merge, and writes nothing") {
  const testing::TempDir dir;
  const fs::path plan_path = dir.path() / "plan.json", summary = dir.path() / "summary.md";
  const std::vector<std::string> env{"GITHUB_STEP_SUMMARY=" + summary.string()};
  // A job whose own config reads plans of up to 100 MiB, so the count or a field refuses them.
  const fs::path roomy = dir.path() / "roomy.toml";
  write_file(roomy, "[security]\nmax_plan_mib = 100\n");
  const auto refused = [&](const std::string& text, const std::string& message, bool own_limit = false) {
    write_file(plan_path, text);
    for (auto args : std::vector<std::vector<std::string>>{{"report", "--merge", plan_path.string(), "--format", "md"},
                                                           {"bench", "--plan", plan_path.string(), "--shard", "1/1"}}) {
      if (own_limit) args.insert(args.end(), {"--config", roomy.string()});
      auto run = run_kforecast(args, dir.path(), env);
      INFO(args[0] << ": " << run.err.substr(0, 2000));
      CHECK(run.status == 2);
      CHECK(run.out.empty());
      CHECK_THAT(run.err, Contains(message));
      CHECK_FALSE(fs::exists(summary));
    }
  };
  // 33 MiB: over the 32 MiB default.
  refused(plan::plan_json(two_kernel_plan()) + std::string(33 << 20, ' '), "plan.json: plan refused: it is 346");
  // 200,000 kernels.
  plan::Plan many = two_kernel_plan();
  many.report.kernels.resize(200'000, many.report.kernels[1]);
  const std::string many_text = plan::plan_json(many);
  refused(many_text, "plan.json: plan refused: it is ");
  refused(many_text, "report.kernels: 200000 entries, more than the 5000 a plan may have", true);
  // A 20 MB note, as a forged plan writes it (plan_json itself would cut it).
  std::string text = plan::plan_json(two_kernel_plan());
  const std::string note = "\"revisions: --base HEAD~1\"";
  text.replace(text.find(note), note.size(), "\"" + std::string(20 << 20, 'n') + "\"");
  refused(text, "report.notes[0]: 20971520 bytes, more than the 262144 a note may have", true);
  // The job's own config may raise the size limit; the plan cannot.
  write_file(dir.path() / "own.toml", "[security]\nmax_plan_mib = 64\n");
  write_file(plan_path, plan::plan_json(two_kernel_plan()) + std::string(33 << 20, ' '));
  auto raised = run_kforecast(
      {"report", "--merge", plan_path.string(), "--format", "json", "--config", (dir.path() / "own.toml").string()},
      dir.path());
  INFO(raised.err);
  CHECK(raised.status == 0);
}

TEST_CASE("e2e: a plan whose kernel carries -ccbin is refused, naming the kernel") {
  const testing::TempDir dir;
  const fs::path plan_path = dir.path() / "plan.json";
  plan::Plan plan = two_kernel_plan();
  plan.jobs[0].head.build_arguments = std::vector<std::string>{"-Iinclude", "-ccbin", "/tmp/evil"};
  plan.jobs[0].base.build_arguments = std::vector<std::string>{"-Iinclude"};
  write_file(plan_path, plan::plan_json(plan));
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"report", "--merge", plan_path.string()}, {"bench", "--plan", plan_path.string(), "--shard", "1/1"}}) {
    auto run = run_kforecast(args, dir.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains("measure[0].head.build_arguments, the compile arguments of kernel `settle`, fail "
                                 "the project's flag allow-list (refused: -ccbin /tmp/evil (runs a program))"));
  }
}
