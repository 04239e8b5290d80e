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

TEST_CASE("cuda: unresolved_name_expressions names the expressions NVRTC could not look up") {
  const std::vector<std::string> requested = {"k<1>", "g", "nope<2>", "bad(x"};
  // NVRTC 11.8's log: the expression only re-spaced, no source line echoed under the error.
  const std::string log_11_8 =
      "__nv_name_map(2): error: expected a \")\"\n\n"
      "__nv_name_map(2): error: Error in parsing name expression for lowered name lookup. Input name expression "
      "was: \" bad ( x\"\n\n"
      "__nv_name_map(6): error: identifier \"nope\" is undefined\n\n"
      "__nv_name_map(6): error: Error in parsing name expression for lowered name lookup. Input name expression "
      "was: \" nope < 2 >\"\n\n"
      "4 errors detected in the compilation of \"two.cu\".\n";
  CHECK(unresolved_name_expressions(requested, log_11_8) == std::vector<std::string>{"nope<2>", "bad(x"});
  // NVRTC 12 and 13 add the "#pragma nv_mangled_name" line; the same answer.
  const std::string log_13 =
      "__nv_name_map(2): error: Error in parsing name expression for lowered name lookup. Input name expression "
      "was: \" nope < 2 >\"\n  #pragma nv_mangled_name nope<2>\n                          ^\n";
  CHECK(unresolved_name_expressions(requested, log_13) == std::vector<std::string>{"nope<2>"});
  // A failure in the name map that quotes no expression: any of them may be the one.
  CHECK(unresolved_name_expressions(requested, "__nv_name_map(2): error: internal\n") == requested);
  // An error in the code itself is not the names' fault.
  CHECK(unresolved_name_expressions(requested, "two.cu(1): error: identifier \"y\" is undefined\n").empty());
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
