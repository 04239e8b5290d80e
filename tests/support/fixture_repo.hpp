// SPDX-License-Identifier: Apache-2.0
#pragma once

// A real git repository in a fresh temporary directory, removed afterwards. Commits use a fixed
// identity and date so their hashes are the same on every machine.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "base/subprocess.hpp"
#include "support/temp_dir.hpp"

namespace kforecast::testing {

class FixtureRepo {
 public:
  FixtureRepo() : m_path(m_directory.path()) { git({"init", "-q", "-b", "main"}); }
  FixtureRepo(const FixtureRepo&) = delete;
  FixtureRepo& operator=(const FixtureRepo&) = delete;

  const std::filesystem::path& path() const { return m_path; }

  void write(const std::filesystem::path& relative, std::string_view text) const {
    std::filesystem::create_directories((m_path / relative).parent_path());
    std::ofstream(m_path / relative, std::ios::binary) << text;
  }

  // Runs git in the repository; the test fails if git does.
  std::string git(std::vector<std::string> args) const {
    std::vector<std::string> argv{"env",
                                  "GIT_AUTHOR_NAME=kforecast",
                                  "GIT_AUTHOR_EMAIL=test@kforecast.invalid",
                                  "GIT_COMMITTER_NAME=kforecast",
                                  "GIT_COMMITTER_EMAIL=test@kforecast.invalid",
                                  "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z",
                                  "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
                                  "git",
                                  "-C",
                                  m_path.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = run_process(argv);
    REQUIRE(result.has_value());
    INFO(result->err);
    REQUIRE(result->exit_status == 0);
    return result->out;
  }

  // Stages everything and commits; returns the new commit's hash.
  std::string commit(const std::string& message) const {
    git({"add", "-A"});
    git({"commit", "-q", "--allow-empty", "-m", message});
    std::string sha = git({"rev-parse", "HEAD"});
    sha.pop_back();
    return sha;
  }

 private:
  TempDir m_directory;
  std::filesystem::path m_path;
};

}  // namespace kforecast::testing
