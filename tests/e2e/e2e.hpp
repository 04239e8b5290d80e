// SPDX-License-Identifier: Apache-2.0
#pragma once

// Runs the built kforecast binary (KF_BINARY) on fixture repositories.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "base/subprocess.hpp"
#include "support/fixture_repo.hpp"
#include "support/toolkit_environment.hpp"

namespace kforecast::e2e {

struct Run {
  int status = -1;
  std::string out, err;
};

// `env` entries ("NAME=value") are added to a clean environment holding PATH, HOME,
// LD_LIBRARY_PATH (where set) and the toolkit this process sees (toolkit_environment()) only,
// so the developer's own KFORECAST_* variables cannot change a test's outcome.
inline Run run_kforecast(std::vector<std::string> args, const std::filesystem::path& cwd = {},
                         std::vector<std::string> env = {}, std::string input = {}) {
  std::vector<std::string> argv{"env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp"};
  // A build carried to another machine with its libraries beside it needs the loader's path.
  if (const char* libraries = std::getenv("LD_LIBRARY_PATH"))
    argv.push_back(std::string("LD_LIBRARY_PATH=") + libraries);
  for (auto& variable : testing::toolkit_environment()) argv.push_back(std::move(variable));
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(KF_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = run_process(
      argv, {.working_directory = cwd.string(), .input = std::move(input), .timeout = std::chrono::seconds(60)});
  REQUIRE(result.has_value());
  return {result->exit_status, result->out, result->err};
}

using kforecast::testing::FixtureRepo;

// One kernel, committed, then changed in a second commit (HEAD~1..HEAD): the smallest pull request.
inline void commit_one_kernel_change(const FixtureRepo& repo) {
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 2.0f; }\n");
  repo.commit("head");
}

}  // namespace kforecast::e2e
