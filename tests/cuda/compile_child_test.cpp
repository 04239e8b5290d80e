// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "cuda/compile_child.hpp"
#include "cuda/isolated_compiler.hpp"

using namespace kforecast::cuda;

TEST_CASE("cuda: the compiler child's arguments round-trip") {
  CompileChildSettings settings{"/usr/local/cuda/lib64/libnvrtc.so.13", {"/usr/local/cuda/include"}, 1 << 30, 60};
  const auto parsed = parse_compile_child_arguments(compile_child_arguments(settings));
  REQUIRE(parsed);
  CHECK(parsed->nvrtc_library == settings.nvrtc_library);
  CHECK(parsed->readable == settings.readable);
  CHECK(parsed->max_memory_bytes == settings.max_memory_bytes);
  CHECK(parsed->max_cpu_seconds == 60);
  CHECK_FALSE(parse_compile_child_arguments(std::vector<std::string>{"--memory", "lots"}));
  CHECK_FALSE(parse_compile_child_arguments(std::vector<std::string>{"--read"}));
  CHECK_FALSE(parse_compile_child_arguments(std::vector<std::string>{}));  // --nvrtc is required
}

TEST_CASE("cuda: compile logs quote only the request's own files") {
  const std::string log =
      "kernel.cu(3): error: identifier \"x\" is undefined\n"
      "      x = 1;\n"
      "      ^\n"
      "\n"
      "/etc/secret.h(1): error: unrecognized token\n"
      "  GITHUB_TOKEN=ghp_leak\n"
      "  ^\n"
      "\n"
      "util.cuh(2): warning: unused\n"
      "  int unused;\n";
  const std::vector<std::string> files = {"kernel.cu", "util.cuh"};
  const std::string kept = quote_only_project_files(log, files);
  CHECK(kept.find("x = 1;") != std::string::npos);
  CHECK(kept.find("/etc/secret.h(1): error: unrecognized token") != std::string::npos);
  CHECK(kept.find("ghp_leak") == std::string::npos);
  CHECK(kept.find("int unused;") != std::string::npos);
  CHECK(kept.find("(2 quoted lines of files outside the repository left out)") != std::string::npos);
}

TEST_CASE("cuda: the compiler child's environment holds no secret, and what starting it needs") {
  using kforecast::cuda::compile_child_environment;
  const auto env = kforecast::fixed_environment({{"GITHUB_TOKEN", "ghs_secret_value"},
                                                 {"KFORECAST_API_KEY", "sk-secret"},
                                                 {"LD_LIBRARY_PATH", "/opt/kforecast/lib"},
                                                 {"HOME", "/home/runner"}});
  auto environment = compile_child_environment("/tmp/scratch", env);
  // The sanitizer build (tests only) also turns the child's leak check off.
  std::erase(environment, "ASAN_OPTIONS=detect_leaks=0");
  CHECK(environment == std::vector<std::string>{"PATH=/usr/bin:/bin", "HOME=/tmp/scratch", "TMPDIR=/tmp/scratch",
                                                "LC_ALL=C", "LD_LIBRARY_PATH=/opt/kforecast/lib"});
  auto bare = compile_child_environment("/s", kforecast::fixed_environment({}));
  std::erase(bare, "ASAN_OPTIONS=detect_leaks=0");
  CHECK(bare.size() == 4);
}
