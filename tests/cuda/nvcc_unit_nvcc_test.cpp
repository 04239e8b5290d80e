// SPDX-License-Identifier: Apache-2.0
// nvcc compiling whole units of a revision's tree, confined, as kforecast runs it on code under
// review: the cubin and the project headers read come back; a broken unit is its log; a unit that
// asks for a file outside the tree gets nothing of it.
#include <fstream>

#include <catch2/catch.hpp>

#include "base/process_confinement.hpp"
#include "cuda/nvcc_unit.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::cuda;
using kforecast::testing::TempDir;

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_nvcc(); }

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

NvccUnitCompiler compiler() {
  NvccSettings settings;
  settings.nvcc = testing::nvcc_for_tests();
  settings.version = "test";
  settings.program = KF_BINARY;
  settings.timeout = std::chrono::seconds(120);
  return NvccUnitCompiler(settings);
}

}  // namespace

TEST_CASE("nvcc unit: a unit with host code and a project header compiles to a cubin, and names what it read") {
  TempDir tree;
  write(tree.path() / "include/lib/common.h", "#pragma once\n#include <cstdint>\n#define SCALE 2.0f\n");
  write(tree.path() / "src/k.cu",
        "#include <lib/common.h>\n#include <cstdio>\n#include <vector>\n"
        "template <int N> __global__ void scale(float* p) { p[threadIdx.x % N] *= SCALE; }\n"
        "int main() { std::vector<float> v(4); scale<4><<<1, 4>>>(nullptr); std::printf(\"%zu\", v.size()); }\n");
  const auto built = compiler().compile({tree.path(), "src/k.cu", {"-Iinclude", "-std=c++17"}, "sm_90"});
  REQUIRE(built);
  REQUIRE(built->cubin.size() > 4);
  CHECK(std::memcmp(built->cubin.data(), "\x7f" "ELF", 4) == 0);
  CHECK(built->project_headers == std::vector<std::string>{"include/lib/common.h"});
  CHECK(std::ranges::find(built->command, "-Iinclude") != built->command.end());
}

TEST_CASE("nvcc unit: a unit that does not compile is its log, first error in the project's file") {
  TempDir tree;
  write(tree.path() / "bad.cu", "__global__ void k(float* p) { int x = ; }\n");
  const auto built = compiler().compile({tree.path(), "bad.cu", {}, "sm_90"});
  REQUIRE_FALSE(built);
  CHECK(built.error().exit_code == ExitCode::gate_failed);
  CHECK(built.error().message.find("bad.cu(1): error") != std::string::npos);
}

TEST_CASE("nvcc unit: a unit that includes a file outside the tree does not get it") {
  TempDir tree, outside;
  write(outside.path() / "secret.h", "KF_SECRET_TOKEN_7f3a is not code\n");
  write(tree.path() / "k.cu", "#include \"" + (outside.path() / "secret.h").string() + "\"\n__global__ void k() {}\n");
  const auto built = compiler().compile({tree.path(), "k.cu", {}, "sm_90"});
  if (!file_confinement_support().files_confined) {
    WARN("Landlock is unavailable here: nvcc's reads are not confined; " << file_confinement_support().detail);
    return;
  }
  REQUIRE_FALSE(built);
  CHECK(built.error().message.find("KF_SECRET_TOKEN_7f3a") == std::string::npos);
}

TEST_CASE("nvcc unit: a unit path that leaves the tree is refused before nvcc runs") {
  TempDir tree;
  for (const char* unit : {"../k.cu", "/etc/passwd", "-Xcompiler=x", ""}) {
    const auto built = compiler().compile({tree.path(), unit, {}, "sm_90"});
    REQUIRE_FALSE(built);
    CHECK(built.error().message.find("not a path inside the repository") != std::string::npos);
  }
}

TEST_CASE("nvcc unit: a tree given as a relative path is readable to the confined nvcc") {
  // Regression: the confinement named the tree as given, and nvcc runs inside it, so a relative
  // tree was read as tree/tree and nvcc could not open its own unit ("Permission denied").
  TempDir tree;
  write(tree.path() / "k.cu", "__global__ void k(float* p) { p[0] = 1.0f; }\n");
  const auto previous = std::filesystem::current_path();
  std::filesystem::current_path(tree.path().parent_path());
  const auto built = compiler().compile({tree.path().filename(), "k.cu", {}, "sm_90"});
  std::filesystem::current_path(previous);
  INFO((built ? std::string() : built.error().message));
  CHECK(built.has_value());
}
