// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "base/repository_file.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace kforecast;

TEST_CASE("base: a repository file is read only inside the repository") {
  testing::TempDir root;
  fs::create_directories(root.path() / "src");
  fs::create_directories(root.path() / ".git");
  std::ofstream(root.path() / "src/a.cuh") << "inside";
  std::ofstream(root.path() / ".git/config") << "token";
  fs::create_symlink("a.cuh", root.path() / "src/alias.cuh");
  fs::create_symlink("/proc/self/environ", root.path() / "src/env.cuh");
  fs::create_symlink("../.git/config", root.path() / "src/config.cuh");

  CHECK(read_repository_file(root.path(), "src/a.cuh", 100).value() == "inside");
  CHECK(read_repository_file(root.path(), "src/alias.cuh", 100).value() == "inside");
  CHECK(read_repository_file(root.path(), "src/missing.cuh", 100).error().problem == RepositoryFileProblem::missing);
  CHECK(read_repository_file(root.path(), "src", 100).error().problem == RepositoryFileProblem::missing);
  CHECK(read_repository_file(root.path(), "src/env.cuh", 100).error().problem == RepositoryFileProblem::outside);
  CHECK(read_repository_file(root.path(), "/proc/self/environ", 100).error().problem == RepositoryFileProblem::outside);
  CHECK(read_repository_file(root.path(), "src/../../x", 100).error().problem == RepositoryFileProblem::outside);
  CHECK(read_repository_file(root.path(), ".git/config", 100).error().problem == RepositoryFileProblem::git_internal);
  CHECK(read_repository_file(root.path(), "src/config.cuh", 100).error().problem ==
        RepositoryFileProblem::git_internal);
  CHECK(read_repository_file(root.path(), "src/a.cuh", 3).error().problem == RepositoryFileProblem::too_large);
  // The refusal names the file and why, never its contents.
  CHECK(read_repository_file(root.path(), "src/config.cuh", 100).error().message.find("token") == std::string::npos);
}
