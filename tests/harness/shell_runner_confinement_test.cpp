// SPDX-License-Identifier: Apache-2.0
// The real harness shell runner (kforecast's __confined-exec, then sh -c): a build or benchmark
// command writes its worktree and scratch folder, and reads neither files outside them and the
// system's folders nor kforecast's environment. Skipped (77) where the kernel lacks Landlock.
#include "harness/shell_runner.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "base/process_confinement.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::harness;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

std::optional<std::string> kforecast::testing::missing_requirement() {
  const auto support = kforecast::file_confinement_support();
  if (!support.files_confined)
    return "Landlock is not available here: " + support.detail +
           " (it needs Linux 5.13 or later with Landlock among the kernel's security modules, lsm=...,landlock)";
  return std::nullopt;
}

TEST_CASE("harness shell: the command writes its tree, and reads no file outside it nor the parent's secrets") {
  const kforecast::testing::TempDir tree, scratch, elsewhere;
  std::ofstream(elsewhere.path() / "secret.txt") << "the checkout's token\n";
  ::setenv("KF_HARNESS_TEST_TOKEN", "ghp_not_for_the_build", 1);
  const ShellRunner shell = confined_shell_runner(KF_BINARY);
  const auto run = [&](const std::string& command) {
    auto ran = shell({command, tree.path(), scratch.path(), std::chrono::seconds(30)});
    REQUIRE(ran.has_value());
    return *ran;
  };
  auto wrote = run("echo built > out.txt && cat out.txt && echo to-null > /dev/null");
  CHECK(wrote.exit_status == 0);
  CHECK(wrote.out == "built\n");
  auto read_outside = run("cat " + (elsewhere.path() / "secret.txt").string());
  CHECK(read_outside.exit_status != 0);
  CHECK_THAT(read_outside.out, !Contains("token"));
  auto wrote_outside = run("echo x > " + (elsewhere.path() / "planted.txt").string());
  CHECK(wrote_outside.exit_status != 0);
  CHECK_FALSE(fs::exists(elsewhere.path() / "planted.txt"));
  auto environment = run("env");
  CHECK_THAT(environment.out, !Contains("ghp_not_for_the_build"));
  CHECK_THAT(environment.out, Contains("HOME=" + scratch.path().string()));
  ::unsetenv("KF_HARNESS_TEST_TOKEN");
}

TEST_CASE("harness shell: a command's own variables and readable files reach it, and nothing else does") {
  // What capture.command adds: the capture library's variables and the library's file.
  const kforecast::testing::TempDir tree, scratch, library_folder;
  const fs::path library = library_folder.path() / "libkforecast_capture.so";
  std::ofstream(library) << "the library\n";
  std::ofstream(library_folder.path() / "beside.txt") << "not granted\n";
  const ShellRunner shell = confined_shell_runner(KF_BINARY);
  ShellCommand command{"echo \"dir=$KFORECAST_CAPTURE_DIR\"; cat \"$CUDA_INJECTION64_PATH\"; cat " +
                           (library_folder.path() / "beside.txt").string(),
                       tree.path(), scratch.path(), std::chrono::seconds(30), {}, {}};
  command.environment = {{"KFORECAST_CAPTURE_DIR", (scratch.path() / "launches").string()},
                         {"CUDA_INJECTION64_PATH", library.string()}};
  command.readable = {library};
  auto ran = shell(command);
  REQUIRE(ran.has_value());
  CHECK_THAT(ran->out, Contains("dir=" + (scratch.path() / "launches").string()));
  CHECK_THAT(ran->out, Contains("the library"));
  CHECK_THAT(ran->out, !Contains("not granted"));  // the file alone, not its folder
  CHECK(ran->exit_status != 0);
}
