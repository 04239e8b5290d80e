// SPDX-License-Identifier: Apache-2.0
// nvcc_arguments and nvrtc_options: one context in each compiler's spelling.
#include "context/compile_context.hpp"

#include <catch2/catch.hpp>

#include "cuda/include_confinement.hpp"

using namespace kforecast::context;
using Strings = std::vector<std::string>;

namespace {

CompileContext tiny_cuda_nn_like() {
  CompileContext context;
  context.include_dirs = {"include", "dependencies", "/usr/local/cuda/include"};
  context.defines = {{"TCNN_MIN_GPU_ARCH", "80"}, {"TCNN_SHAMPOO", ""}};
  context.undefines = {"NDEBUG"};
  context.standard = "c++17";
  context.flags = {"--extended-lambda", "--expt-relaxed-constexpr", "-O3",       "--use_fast_math", "--fmad=false",
                   "-lineinfo",         "-maxrregcount=64",         "-Xptxas=-v"};
  return context;
}

}  // namespace

TEST_CASE("compile context: nvcc gets folders, defines, the standard and every flag") {
  CHECK(nvcc_arguments(tiny_cuda_nn_like()) ==
        Strings{"-Iinclude", "-Idependencies", "-I/usr/local/cuda/include", "-DTCNN_MIN_GPU_ARCH=80", "-DTCNN_SHAMPOO",
                "-UNDEBUG", "-std=c++17", "--extended-lambda", "--expt-relaxed-constexpr", "-O3", "--use_fast_math",
                "--fmad=false", "-lineinfo", "-maxrregcount=64", "-Xptxas=-v"});
  CHECK(nvcc_arguments(CompileContext{}).empty());
}

TEST_CASE("compile context: NVRTC gets only what it accepts, and no include folders") {
  const Strings options = nvrtc_options(tiny_cuda_nn_like());
  CHECK(options == Strings{"-DTCNN_MIN_GPU_ARCH=80", "-DTCNN_SHAMPOO", "-UNDEBUG", "-std=c++17", "--use_fast_math",
                           "--fmad=false", "-lineinfo", "-maxrregcount=64"});
  for (const auto& option : options) CHECK(kforecast::cuda::allowed_compile_option(option));
}

TEST_CASE("compile context: each origin has a name for the report") {
  CHECK(origin_name(ContextOrigin::compile_database) == "compile database");
  CHECK(origin_name(ContextOrigin::config) == "config");
  CHECK(origin_name(ContextOrigin::inferred) == "inferred");
}
