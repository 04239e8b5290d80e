// SPDX-License-Identifier: Apache-2.0
// What a compile of code under review may read: the repository's files (handed over in memory)
// and the toolkit's headers, nothing else.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cuda/include_confinement.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace kforecast::cuda;
using Catch::Matchers::Contains;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

CompileRequest request_for(std::string source, std::string file_name = "kernels/k.cu") {
  CompileRequest request;
  request.source = std::move(source);
  request.file_name = std::move(file_name);
  return request;
}

}  // namespace

TEST_CASE("cuda: includes that leave the repository are refused before any compiler runs") {
  const IncludeRoots roots;
  for (const auto& [source, expected] : std::vector<std::pair<std::string, std::string>>{
           {"#include \"/proc/self/environ\"\n", "absolute path '/proc/self/environ'"},
           {"#include </etc/passwd>\n", "absolute path '/etc/passwd'"},
           {"#include \"../../../../../../proc/self/environ\"\n", "climbs with '..'"},
           {"#define P \"/proc/self/environ\"\n#include P\n", "computed include 'P'"},
           {"#embed \"/proc/self/environ\"\n", "#embed reads a file's bytes"},
           {"#if __has_include(\"/proc/self/cmdline\")\n#endif\n", "absolute path '/proc/self/cmdline'"},
           {"#include \"a\\\\..\\\\b.h\"\n", "backslash"},
       }) {
    INFO(source);
    auto confined = confine_includes(request_for(source), roots);
    REQUIRE_FALSE(confined);
    CHECK_THAT(confined.error().message, Contains(expected));
    CHECK_THAT(confined.error().message, Contains("kernels/k.cu:"));
    CHECK(confined.error().exit_code == kforecast::ExitCode::gate_failed);
  }
}

TEST_CASE("cuda: headers given in memory and toolkit headers are allowed") {
  auto request = request_for("#include \"../common/util.cuh\"\n#include <cuda_fp16.h>\n#include \"missing.h\"\n");
  request.headers.push_back({"../common/util.cuh", "#include \"deeper.cuh\"\n"});
  auto confined = confine_includes(request, {});
  REQUIRE(confined);
  CHECK(confined->headers.size() == 1);
}

TEST_CASE("cuda: include folders outside the repository and the toolkit are refused") {
  kforecast::testing::TempDir toolkit;
  write(toolkit.path() / "cuda.h", "");
  auto request = request_for("__global__ void k() {}\n");
  request.include_dirs = {toolkit.path().string()};
  IncludeRoots roots;
  roots.toolkit = {toolkit.path()};
  auto kept = confine_includes(request, roots);
  REQUIRE(kept);
  CHECK(kept->include_dirs.size() == 1);

  request.include_dirs = {"/proc/self"};
  auto refused = confine_includes(request, roots);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Contains("include folder '/proc/self' is outside"));
}

TEST_CASE("cuda: project headers are read from the work tree, inside the repository only") {
  kforecast::testing::TempDir repository;
  write(repository.path() / "kernels/common.cuh", "#include \"../include/deep.cuh\"\n");
  write(repository.path() / "include/deep.cuh", "#define DEEP 1\n");
  write(repository.path() / ".git/config", "[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n");
  IncludeRoots roots;
  roots.work_tree = repository.path();

  SECTION("headers beside the file and the ones they include, handed over in memory") {
    auto confined = confine_includes(request_for("#include \"common.cuh\"\n"), roots);
    REQUIRE(confined);
    REQUIRE(confined->headers.size() == 2);
    CHECK(confined->headers[0].include_name == "common.cuh");
    CHECK(confined->headers[1].include_name == "../include/deep.cuh");
    CHECK(confined->headers[1].text == "#define DEEP 1\n");
  }
  SECTION("a project include folder is searched here, and not handed to the compiler") {
    auto request = request_for("#include <deep.cuh>\n");
    request.include_dirs = {"include"};
    auto confined = confine_includes(request, roots);
    REQUIRE(confined);
    CHECK(confined->include_dirs.empty());
    REQUIRE(confined->headers.size() == 1);
    CHECK(confined->headers[0].text == "#define DEEP 1\n");
  }
  SECTION(".git is never read") {
    auto confined = confine_includes(request_for("#include \"../.git/config\"\n"), roots);
    REQUIRE_FALSE(confined);
    CHECK_THAT(confined.error().message, Contains("inside .git"));
  }
  SECTION(".git named from the root, as a header neither kforecast nor the compiler has, is refused by name") {
    for (const char* source : {"#include \".git/config\"\n", "#include <.git/config>\n",
                               "#include \"sub/.git/HEAD\"\n"}) {
      auto confined = confine_includes(request_for(source), roots);
      REQUIRE_FALSE(confined);
      CHECK_THAT(confined.error().message, Contains("names a file inside .git"));
    }
  }
  SECTION("a committed symlink that leads out is refused") {
    fs::create_symlink("/proc/self/environ", repository.path() / "kernels/env.cuh");
    auto confined = confine_includes(request_for("#include \"env.cuh\"\n"), roots);
    REQUIRE_FALSE(confined);
    CHECK_THAT(confined.error().message, Contains("symbolic link"));
  }
  SECTION("a folder symlink that leads out is refused too") {
    fs::create_directory_symlink("/proc/self", repository.path() / "kernels/self");
    auto confined = confine_includes(request_for("#include \"self/environ\"\n"), roots);
    REQUIRE_FALSE(confined);
    CHECK_THAT(confined.error().message, Contains("symbolic link"));
  }
  SECTION("a header above the size limit is refused, not read") {
    roots.max_header_bytes = 4;
    auto confined = confine_includes(request_for("#include \"common.cuh\"\n"), roots);
    REQUIRE_FALSE(confined);
    CHECK_THAT(confined.error().message, Contains("above the limit"));
  }
}

TEST_CASE("cuda: only language, definition and code-generation options reach the compiler") {
  for (const char* option :
       {"-default-device", "-minimal", "-std=c++17", "-DTILE=64", "--use_fast_math", "--fmad=false"})
    CHECK(allowed_compile_option(option));
  for (const char* option : {"--pre-include=/proc/self/environ", "-include", "--include-path=/etc", "-I/etc",
                             "@flags.rsp", "-Xcompiler", "--run", "--load-plugin=x.so", "-ccbin=/tmp/x"}) {
    INFO(option);
    CHECK_FALSE(allowed_compile_option(option));
  }
  auto request = request_for("__global__ void k() {}\n");
  request.options = {"-default-device", "--pre-include=/proc/self/environ"};
  auto refused = confine_includes(request, {});
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Contains("compiler option '--pre-include=/proc/self/environ' is not allowed"));
}
