// SPDX-License-Identifier: Apache-2.0
// read_setup_py_defines: a Python extension's defines, read from setup.py without Python.
#include "context/setup_py_defines.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
using Strings = std::vector<std::string>;

namespace {

Strings texts(const std::vector<FoundDefine>& defines) {
  Strings out;
  for (const auto& define : defines) {
    std::string text;
    for (char c : define.text) text += c == unknown_open ? '{' : c == unknown_close ? '}' : c;
    out.push_back(text);
  }
  return out;
}

}  // namespace

TEST_CASE("setup.py defines: -D strings in nvcc and cxx lists, and define_macros tuples") {
  // The shapes of PyTorch extensions' setup.py files, written for this test.
  const auto defines = read_setup_py_defines(R"(
import os
cc = detect()
nvcc_flags = ["-O3", "-DUSE_FP16=1", '--use_fast_math', f"-DMIN_ARCH={cc}"]  # "-DIN_COMMENT"
cxx_flags = ["-DHOST_ONLY"]
if hip:
    nvcc_flags += ["-DHIP_HALF"]
ext = CUDAExtension(
    "ext", ["a.cu"],
    define_macros=[("WITH_CUDA", None), ("VERSION", "2"), ('LEVEL', 3), ("DYNAMIC", level)],
    extra_compile_args={"cxx": cxx_flags, "nvcc": nvcc_flags + [r'-DRAW=\d']},
)
doc = """a -DNOT_A_FLAG inside text"""
)",
                                             "setup.py");
  CHECK(texts(defines) == Strings{"USE_FP16=1", "MIN_ARCH={cc}", "HOST_ONLY", "HIP_HALF", "WITH_CUDA", "VERSION=2",
                                  "LEVEL=3", "DYNAMIC={level}", "RAW=\\d"});
  CHECK(defines[0].where == "setup.py:4");
  CHECK(defines[4].where == "setup.py:10");
}

TEST_CASE("setup.py defines: a dictionary key define_macros, and an f-string's doubled braces") {
  const auto defines =
      read_setup_py_defines("kwargs = {'define_macros': [('A', '1')]}\nx = f'-DB={{literal}}'\n", "setup.py");
  CHECK(texts(defines) == Strings{"A=1", "B={literal}"});
}

TEST_CASE("setup.py defines: the cmake arguments a setup.py builds are not macros") {
  // vLLM's shape, written for this test: setup.py runs CMake with "-DNAME={}".format(value)
  // arguments. CMAKE_* are CMake's own settings; the rest have values only Python knows.
  const auto defines = read_setup_py_defines(R"(
cmake_args = [
    '-DCMAKE_BUILD_TYPE={}'.format(cfg),
    "-DCMAKE_CUDA_COMPILER_LAUNCHER=sccache",
    '-DPROJECT_TARGET_DEVICE={}'.format(device),
]
nvcc = ["-DWITH_KERNELS=1"]
)",
                                             "setup.py");
  CHECK(texts(defines) == Strings{"PROJECT_TARGET_DEVICE={PROJECT_TARGET_DEVICE}", "WITH_KERNELS=1"});
}

TEST_CASE("setup.py defines: bad input gives what it can, never a crash") {
  CHECK(read_setup_py_defines("", "setup.py").empty());
  CHECK(texts(read_setup_py_defines("x = \"-DOPEN\ny = '-DNEXT'\n", "setup.py")) == Strings{"OPEN", "NEXT"});
  CHECK(texts(read_setup_py_defines("x = '''-DNEVER_CLOSED", "setup.py")) == Strings{"NEVER_CLOSED"});
  CHECK(read_setup_py_defines("define_macros=[(\"A\", ", "setup.py").empty());
  CHECK(texts(read_setup_py_defines("f\"-DX={unclosed\"", "setup.py")) == Strings{"X={unclosed}"});
  CHECK(read_setup_py_defines("\"-D\"", "setup.py").empty());
}
