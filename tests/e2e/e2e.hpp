// SPDX-License-Identifier: Apache-2.0
#pragma once

// Runs the built kforecast binary (KF_BINARY) and makes throwaway fixture repositories.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "base/subprocess.hpp"

namespace kforecast::e2e {

struct Run {
  int status = -1;
  std::string out, err;
};

// `env` entries ("NAME=value") are added to a clean environment holding PATH and HOME only,
// so the developer's own KFORECAST_* variables cannot change a test's outcome.
inline Run run_kforecast(std::vector<std::string> args, const std::filesystem::path& cwd = {},
                         std::vector<std::string> env = {}) {
  std::vector<std::string> argv{"env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(KF_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = run_process(argv, {.working_directory = cwd.string(), .timeout = std::chrono::seconds(60)});
  REQUIRE(result.has_value());
  return {result->exit_status, result->out, result->err};
}

// A real git repository in a fresh temporary directory, removed afterwards.
class FixtureRepo {
 public:
  FixtureRepo() {
    static int counter = 0;
    m_path = std::filesystem::temp_directory_path() /
             ("kf-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
    auto init = run_process({"git", "init", "-q", m_path.string()});
    REQUIRE(init.has_value());
    REQUIRE(init->exit_status == 0);
  }
  ~FixtureRepo() { std::filesystem::remove_all(m_path); }
  FixtureRepo(const FixtureRepo&) = delete;
  FixtureRepo& operator=(const FixtureRepo&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  void write(const std::filesystem::path& relative, std::string_view text) const {
    std::filesystem::create_directories((m_path / relative).parent_path());
    std::ofstream(m_path / relative, std::ios::binary) << text;
  }

 private:
  std::filesystem::path m_path;
};

}  // namespace kforecast::e2e
