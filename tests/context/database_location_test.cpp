// SPDX-License-Identifier: Apache-2.0
// find_compile_database and load_compile_database, on real folders.
#include "context/database_location.hpp"

#include <fstream>

#include <catch2/catch.hpp>

#include "context/context_for.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::context;
using kforecast::testing::TempDir;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, std::string_view text = "[]") {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::optional<fs::path> found(const fs::path& root, std::string_view configured = "") {
  auto result = find_compile_database(root, configured);
  REQUIRE(result);
  return *result;
}

}  // namespace

TEST_CASE("database location: none where the repository has none") {
  TempDir repo;
  fs::create_directories(repo.path() / "build" / "release");
  write(repo.path() / "src" / "compile_commands.json");                // not a build folder
  write(repo.path() / "build" / "a" / "b" / "compile_commands.json");  // three levels down
  CHECK(found(repo.path()) == std::nullopt);
  auto loaded = load_compile_database(repo.path(), "");
  REQUIRE(loaded);
  CHECK_FALSE(loaded->has_value());
}

TEST_CASE("database location: the root first, then build folders two levels deep in name order") {
  TempDir repo;
  write(repo.path() / "build" / "release" / "compile_commands.json");
  CHECK(found(repo.path()) == fs::path("build/release/compile_commands.json"));
  write(repo.path() / "build-kf" / "compile_commands.json");
  CHECK(found(repo.path()) == fs::path("build/release/compile_commands.json"));  // "build" < "build-kf"
  write(repo.path() / "build" / "compile_commands.json");
  CHECK(found(repo.path()) == fs::path("build/compile_commands.json"));
  write(repo.path() / "compile_commands.json");
  CHECK(found(repo.path()) == fs::path("compile_commands.json"));
}

TEST_CASE("database location: the configured path wins, and a configured path that is missing is an error") {
  TempDir repo;
  write(repo.path() / "compile_commands.json");
  write(repo.path() / "out" / "db.json");
  CHECK(found(repo.path(), "out/db.json") == fs::path("out/db.json"));
  auto missing = find_compile_database(repo.path(), "out/none.json");
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message, Catch::StartsWith("compile.database names 'out/none.json', which is not a file"));
}

TEST_CASE("database location: the found database is read and parsed against the repository") {
  TempDir repo;
  write(repo.path() / "build" / "compile_commands.json",
        R"([{"directory": ".", "file": "../src/k.cu", "arguments": ["nvcc", "-DX"]}])");
  auto loaded = load_compile_database(repo.path(), "");
  REQUIRE(loaded);
  REQUIRE(loaded->has_value());
  const CompileDatabase& database = **loaded;
  CHECK(database.name == "build/compile_commands.json");
  REQUIRE(database.entries.contains("src/k.cu"));
  CHECK(database.entries.at("src/k.cu").directory == repo.path() / "build");
}

TEST_CASE("database location: a database that is a symlink out of the repository is not read") {
  TempDir repo;
  TempDir elsewhere;
  write(elsewhere.path() / "secret.json", R"([{"directory": "/", "file": "k.cu", "arguments": ["nvcc"]}])");
  fs::create_directories(repo.path() / "build");
  fs::create_symlink(elsewhere.path() / "secret.json", repo.path() / "build" / "compile_commands.json");
  auto loaded = load_compile_database(repo.path(), "");
  REQUIRE_FALSE(loaded);
  CHECK(loaded.error().message.find("build/compile_commands.json") != std::string::npos);
}

TEST_CASE("database location: a malformed database is an error naming it") {
  TempDir repo;
  write(repo.path() / "compile_commands.json", "{not json");
  auto loaded = load_compile_database(repo.path(), "");
  REQUIRE_FALSE(loaded);
  CHECK_THAT(loaded.error().message, Catch::StartsWith("compile_commands.json: not valid JSON"));
}

TEST_CASE("database location: a CMake database, found, read, and a header given its including unit's arguments") {
  // SGEMM_CUDA's shape: the kernel headers are not entries; src/runner.cu includes them.
  TempDir repo;
  const std::string root = repo.path().string();
  write(repo.path() / "build-kf" / "compile_commands.json",
        R"([{"directory": ")" + root + R"(/build-kf", "file": ")" + root + R"(/src/runner.cu",
             "command": "/usr/local/cuda/bin/nvcc -I)" +
            root +
            R"(/src -O3 -DNDEBUG -std=c++17 \"--generate-code=arch=compute_86,code=[compute_86,sm_86]\" -x cu -c )" +
            root + R"(/src/runner.cu -o CMakeFiles/sgemm.dir/src/runner.cu.o"}])");
  auto loaded = load_compile_database(repo.path(), "");
  REQUIRE(loaded);
  REQUIRE(loaded->has_value());
  const ContextSources sources{repo.path(), real_folder_lookup(), &**loaded, nullptr, nullptr};
  const auto context = context_for("src/kernels/10_kernel_warptiling.cuh", sources,
                                   [](const std::string&) { return std::vector<std::string>{"src/runner.cu"}; });
  CHECK(
      context.origin_detail ==
      "build-kf/compile_commands.json (entry for src/runner.cu, which includes src/kernels/10_kernel_warptiling.cuh)");
  CHECK(nvcc_arguments(context) == std::vector<std::string>{"-Isrc", "-DNDEBUG", "-std=c++17", "-O3"});
  CHECK(nvrtc_options(context) == std::vector<std::string>{"-DNDEBUG", "-std=c++17"});
  CHECK(context.dropped.size() == 4);  // the arch, -x cu, -c and -o
  CHECK(context.refused.empty());
}
