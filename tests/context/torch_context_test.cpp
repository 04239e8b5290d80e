// SPDX-License-Identifier: Apache-2.0
// torch_context: a PyTorch extension's unit gets the flags torch's build gives it.
#include "context/torch_context.hpp"

#include <catch2/catch.hpp>

#include "context/compile_context.hpp"

using namespace kforecast::context;
using kforecast::kernels::RevisionSources;
using kforecast::kernels::SourceFiles;
using Strings = std::vector<std::string>;

namespace {

TorchHeaders headers(std::string version) {
  return {"/venv/site/torch/include", std::move(version), "/usr/include/python3.11", {}, "python3's torch"};
}

}  // namespace

TEST_CASE("torch context: setuptools' CUDAExtension flags, the project's -U undoing the half guards") {
  CompileContext context;
  context.include_dirs = {"csrc"};
  context.defines = {{"PROJECT_FLAG", "1"}};
  context.undefines = {"__CUDA_NO_HALF_OPERATORS__"};
  context.flags = {"-expt-relaxed-constexpr", "--use_fast_math"};
  add_torch_build(context, {TorchBuild::Kind::setuptools, "_C", "setup.py"}, headers("2.15.0"));
  CHECK(context.include_dirs == Strings{"csrc", "/venv/site/torch/include", "/venv/site/torch/include/torch/csrc/api/include",
                                        "/usr/include/python3.11"});
  const auto arguments = nvcc_arguments(context);
  const Strings expected{"-Icsrc",
                         "-I/venv/site/torch/include",
                         "-I/venv/site/torch/include/torch/csrc/api/include",
                         "-I/usr/include/python3.11",
                         "-D__CUDA_NO_HALF_OPERATORS__",
                         "-D__CUDA_NO_HALF_CONVERSIONS__",
                         "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
                         "-D__CUDA_NO_HALF2_OPERATORS__",
                         "-DPROJECT_FLAG=1",
                         "-DTORCH_API_INCLUDE_EXTENSION_H",
                         "-DTORCH_EXTENSION_NAME=_C",
                         "-U__CUDA_NO_HALF_OPERATORS__",
                         "-std=c++20",
                         "-expt-relaxed-constexpr",
                         "--use_fast_math"};
  CHECK(arguments == expected);
  CHECK(context.origin_detail.ends_with("; PyTorch's build flags (python3's torch)"));
}

TEST_CASE("torch context: the standard follows torch's version unless the project gives one") {
  CompileContext older;
  add_torch_build(older, {TorchBuild::Kind::setuptools, "", "setup.py"}, headers("2.8.0"));
  CHECK(older.standard == "c++17");
  CHECK(std::ranges::none_of(older.defines, [](const auto& d) { return d.first == "TORCH_EXTENSION_NAME"; }));
  CompileContext given;
  given.standard = "c++17";
  add_torch_build(given, {TorchBuild::Kind::setuptools, "", "setup.py"}, headers("2.15.0"));
  CHECK(given.standard == "c++17");
}

TEST_CASE("torch context: CMake's find_package(Torch) gives no half guards and both lambda flags") {
  CompileContext context;
  context.flags = {"--extended-lambda"};
  add_torch_build(context, {TorchBuild::Kind::cmake, "", "CMakeLists.txt"}, headers("2.15.0"));
  CHECK(context.flags == Strings{"--extended-lambda", "--expt-relaxed-constexpr"});
  CHECK(std::ranges::none_of(context.defines, [](const auto& d) { return d.first.starts_with("__CUDA_NO_HALF"); }));
  CHECK(std::ranges::any_of(context.defines, [](const auto& d) { return d.first == "USE_DISTRIBUTED"; }));
}

TEST_CASE("torch context: which units reach a PyTorch header the tree does not hold") {
  const SourceFiles files{{"csrc/ops.cu", "#include \"ops.h\"\n"},
                          {"csrc/ops.h", "#include <ATen/cuda/CUDAContext.h>\n"},
                          {"csrc/plain.cu", "#include <cuda_fp16.h>\n"},
                          {"csrc/vendored.cu", "#include <pybind11/pybind11.h>\n"},
                          {"third_party/pybind11/include/pybind11/pybind11.h", ""}};
  const RevisionSources tree(files);
  CHECK(torch_header_reached(tree, "csrc/ops.cu") == "ATen/cuda/CUDAContext.h");
  CHECK_FALSE(torch_header_reached(tree, "csrc/plain.cu"));
  CHECK_FALSE(torch_header_reached(tree, "csrc/vendored.cu"));  // the tree holds it
  CHECK_FALSE(torch_header_reached(tree, "csrc/absent.cu"));
}

TEST_CASE("torch context: the CUDA libraries pip installed come after torch's and Python's folders") {
  CompileContext context;
  TorchHeaders found = headers("2.15.0");
  found.library_includes = {"/venv/site/nvidia/nccl/include", "/venv/site/nvidia/nvshmem/include"};
  add_torch_build(context, {TorchBuild::Kind::setuptools, "_C", "setup.py"}, found);
  CHECK(context.include_dirs == Strings{"/venv/site/torch/include", "/venv/site/torch/include/torch/csrc/api/include",
                                        "/usr/include/python3.11", "/venv/site/nvidia/nccl/include",
                                        "/venv/site/nvidia/nvshmem/include"});
}
