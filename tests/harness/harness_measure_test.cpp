// SPDX-License-Identifier: Apache-2.0
// measure_with_harness over a real git repository with a scripted shell: the worktrees of both
// revisions in the cache, the build once per tree (a second measurement reuses it), the runs in
// A B B A order in the right worktree, and each failure an Error that names where it happened.
#include "harness/harness_measure.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/fixture_repo.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::harness;
using kforecast::ProcessOutput;
using kforecast::Result;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

struct ScriptedShell {
  std::vector<ShellCommand> commands;
  int build_status = 0;
  std::string run_output;  // "" : the times from the tree's version file
  int run_status = 0;

  ShellRunner runner() {
    return [this](const ShellCommand& command) -> Result<ProcessOutput> {
      commands.push_back(command);
      if (command.command.starts_with("make")) return ProcessOutput{build_status, "building\n", "error: no rule\n"};
      if (run_status != 0) return ProcessOutput{run_status, "", "segmentation fault\n"};
      if (!run_output.empty()) return ProcessOutput{0, run_output, ""};
      std::ifstream version(command.directory / "version.txt");
      std::string seconds;
      std::getline(version, seconds);
      return ProcessOutput{0, "BM_A\t" + seconds + "\n", ""};
    };
  }
  std::size_t builds() const {
    return static_cast<std::size_t>(std::ranges::count_if(
        commands, [](const ShellCommand& command) { return command.command.starts_with("make"); }));
  }
};

struct Revisions {
  kforecast::testing::FixtureRepo repo;
  std::string base, head;
  Revisions(const std::string& base_seconds, const std::string& head_seconds) {
    repo.write("version.txt", base_seconds + "\n");
    base = repo.commit("base");
    repo.write("version.txt", head_seconds + "\n");
    head = repo.commit("head");
  }
};

Harness simple_harness() {
  return {"script", "make bench", "./bench '{filter}'", OutputFormat::simple, TimeField::real, 4, 60,
          {{{"*"}, "BM_A", ".kforecast.toml:7"}}, ".kforecast.toml:1"};
}

}  // namespace

TEST_CASE("harness measure: both revisions built once in the cache, run base head head base, a slowdown found") {
  Revisions revisions("0.001", "0.0013");
  const kforecast::testing::TempDir cache;
  ScriptedShell shell;
  const Harness harness = simple_harness();
  const HarnessRequest request{harness, harness.maps.front(), revisions.repo.path(), revisions.base, revisions.head,
                               cache.path()};
  auto measured = measure_with_harness(request, shell.runner());
  REQUIRE(measured.has_value());
  CHECK(measured->verdict == kforecast::bench::Verdict::regression);
  CHECK(measured->gpu == "harness 'script' (simple): BM_A");
  CHECK(shell.builds() == 2);
  REQUIRE(shell.commands.size() >= 6);
  CHECK(shell.commands[2].command == "./bench 'BM_A'");
  // The first run is the base's tree, the second the head's, each a worktree in the cache.
  CHECK(shell.commands[2].directory == shell.commands[0].directory);
  CHECK(shell.commands[3].directory == shell.commands[1].directory);
  CHECK(shell.commands[0].directory.parent_path() == cache.path());
  CHECK(fs::exists(shell.commands[1].directory / "version.txt"));

  SECTION("a second measurement of the same trees reuses the builds") {
    ScriptedShell again;
    auto second = measure_with_harness(request, again.runner());
    REQUIRE(second.has_value());
    CHECK(again.builds() == 0);
    CHECK_THAT(second->notes.back(), Contains("built base (reused) and head (reused)"));
  }
}

TEST_CASE("harness measure: failures are errors that say where") {
  Revisions revisions("0.001", "0.00101");
  const kforecast::testing::TempDir cache;
  const Harness harness = simple_harness();
  const HarnessRequest request{harness, harness.maps.front(), revisions.repo.path(), revisions.base, revisions.head,
                               cache.path()};
  SECTION("a build that fails quotes its log and keeps it") {
    ScriptedShell shell;
    shell.build_status = 2;
    auto measured = measure_with_harness(request, shell.runner());
    REQUIRE_FALSE(measured.has_value());
    CHECK_THAT(measured.error().message, Contains("building the base revision"));
    CHECK_THAT(measured.error().message, Contains("with harness 'script' failed (exit 2)"));
    CHECK_THAT(measured.error().message, Contains("error: no rule"));
    CHECK_THAT(measured.error().message, Contains(".build.log"));
    // Not marked built: the next measurement builds again.
    ScriptedShell next;
    (void)measure_with_harness(request, next.runner());
    CHECK(next.builds() == 2);
  }
  SECTION("a run that fails names the run and quotes its output") {
    ScriptedShell shell;
    shell.run_status = 139;
    auto measured = measure_with_harness(request, shell.runner());
    REQUIRE_FALSE(measured.has_value());
    CHECK_THAT(measured.error().message, Contains("harness 'script', base build, run 1"));
    CHECK_THAT(measured.error().message, Contains("failed (exit 139)"));
    CHECK_THAT(measured.error().message, Contains("segmentation fault"));
  }
  SECTION("output that cannot be read names the output and the line") {
    ScriptedShell shell;
    shell.run_output = "BM_A 0.1\n";
    auto measured = measure_with_harness(request, shell.runner());
    REQUIRE_FALSE(measured.has_value());
    CHECK_THAT(measured.error().message, Contains("standard output:1: no tab"));
  }
  SECTION("a revision that does not exist") {
    ScriptedShell shell;
    const HarnessRequest missing{harness, harness.maps.front(), revisions.repo.path(), "0123456789abcdef",
                                 revisions.head, cache.path()};
    auto measured = measure_with_harness(missing, shell.runner());
    REQUIRE_FALSE(measured.has_value());
    CHECK_THAT(measured.error().message, Contains("the base revision 0123456789abcdef has no tree here"));
  }
}
