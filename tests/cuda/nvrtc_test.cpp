// SPDX-License-Identifier: Apache-2.0
// The parts of the NVRTC adapter that need no NVRTC; compiling for real is nvrtc_compile_test.cpp.
#include "cuda/nvrtc.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::cuda;

TEST_CASE("cuda: nvrtc_options") {
  CompileRequest request;
  request.arch = "sm_80";
  request.include_dirs = {"include", "/opt/cutlass/include"};
  request.defines = {{"TILE", "64"}, {"USE_FAST_MATH", ""}};
  request.options = {"--std=c++17"};
  CHECK(nvrtc_options(request) ==
        std::vector<std::string>{"--gpu-architecture=sm_80", "--ptxas-options=--verbose", "--include-path=include",
                                 "--include-path=/opt/cutlass/include", "--define-macro=TILE=64",
                                 "--define-macro=USE_FAST_MATH", "--std=c++17"});
}

TEST_CASE("cuda: log_excerpt") {
  SECTION("a short log is kept whole, without its trailing newline") {
    CHECK(log_excerpt("a.cu(1): error: x\n1 error detected\n") == "a.cu(1): error: x\n1 error detected");
  }
  SECTION("a long log keeps its first lines and counts the rest") {
    std::string log;
    for (int i = 0; i < 100; ++i) log += "line " + std::to_string(i) + "\n";
    const auto excerpt = log_excerpt(log, 3);
    CHECK(excerpt == "line 0\nline 1\nline 2\n... (97 more lines of compile log)");
  }
}

TEST_CASE("cuda: NvrtcCompiler::load without NVRTC") {
  SECTION("nothing found: what is missing, every path tried, and the settings that fix it") {
    const std::vector<std::string> candidates = {"/nonexistent/lib64/libnvrtc.so.13", "libnvrtc-kforecast-none.so"};
    auto compiler = NvrtcCompiler::load(candidates);
    REQUIRE_FALSE(compiler.has_value());
    const auto message = compiler.error().message();
    CHECK(message.starts_with("NVRTC not found (tried /nonexistent/lib64/libnvrtc.so.13, libnvrtc-kforecast-none.so)"));
    CHECK(message.find("compiler facts and benchmarks unavailable") != std::string::npos);
    CHECK(message.find("cuda.nvrtc_library / KFORECAST_NVRTC_LIBRARY") != std::string::npos);
    CHECK(compiler.error().tried.size() == 2);
  }
  SECTION("a library that is not NVRTC is skipped, and said so") {
    const std::vector<std::string> candidates = {"libc.so.6", "/nonexistent/libnvrtc.so"};
    auto compiler = NvrtcCompiler::load(candidates);
    REQUIRE_FALSE(compiler.has_value());
    CHECK(compiler.error().what == "no usable NVRTC found");
    REQUIRE(compiler.error().tried.size() == 2);
    CHECK(compiler.error().tried[0].error == "opened, but it does not export nvrtcGetErrorString");
  }
}
