// SPDX-License-Identifier: Apache-2.0
// read_setup_py: a Python extension's defines and flags, read from setup.py without Python.
#include "context/setup_py_build.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
using Strings = std::vector<std::string>;

namespace {

std::vector<FoundDefine> read_setup_py_defines(std::string_view text, std::string_view name) {
  return read_setup_py(text, name).defines;
}

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
if use_fp8:
    nvcc_flags += ["-DFP8_PATH"]
ext = CUDAExtension(
    "ext", ["a.cu"],
    define_macros=[("WITH_CUDA", None), ("VERSION", "2"), ('LEVEL', 3), ("DYNAMIC", level)],
    extra_compile_args={"cxx": cxx_flags, "nvcc": nvcc_flags + [r'-DRAW=\d']},
)
doc = """a -DNOT_A_FLAG inside text"""
)",
                                             "setup.py");
  CHECK(texts(defines) == Strings{"USE_FP16=1", "MIN_ARCH={cc}", "HOST_ONLY", "FP8_PATH", "WITH_CUDA", "VERSION=2",
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

TEST_CASE("setup.py build: ROCm branches and opt-in environment variables give nothing") {
  // The shapes of real extensions' setup.py files, written for this test: a HIP build picked by
  // torch.version.hip, a debug define behind an environment variable that is unset by default,
  // and one behind a variable that defaults to on.
  const auto build = read_setup_py(R"(
import os
HIP_BUILD = bool(torch.version.hip)
FORCE = os.getenv("PROJECT_FORCE_BUILD", "FALSE") == "TRUE"
flags = ["-O3"]
if HIP_BUILD:
    flags.append("-DBUILD_PYTHON_PACKAGE")
    flags += ["-U__CUDA_NO_HALF_OPERATORS__"]
else:
    flags += ["-U__CUDA_NO_HALF_CONVERSIONS__", "--use_fast_math"]
if int(os.getenv('DISABLE_SM90_FEATURES', 0)):
    flags.append('-DDISABLE_SM90_FEATURES')
    assert False
else:
    flags.extend(['-rdc=true'])
if int(os.getenv('DISABLE_AGGRESSIVE_PTX_INSTRS', '1')):
    flags.append('-DDISABLE_AGGRESSIVE_PTX_INSTRS')
if 'TOPK_BITS' in os.environ:
    flags.append(f'-DTOPK_BITS={bits}')
if FORCE:
    flags.append("-DFORCED")
elif detect():
    flags.append("-DDETECTED")
setup(ext_modules=[CUDAExtension(name="pkg.sub._C", sources=["a.cu"], extra_compile_args={"nvcc": flags})])
)",
                                   "setup.py");
  CHECK(texts(build.defines) == Strings{"DISABLE_AGGRESSIVE_PTX_INSTRS", "DETECTED"});
  CHECK(texts(build.undefines) == Strings{"__CUDA_NO_HALF_CONVERSIONS__"});
  CHECK(texts(build.flags) == Strings{"--use_fast_math", "-rdc=true"});
  REQUIRE(build.not_taken.size() == 5);
  CHECK(build.not_taken[0] == "-DBUILD_PYTHON_PACKAGE (setup.py:7, in a ROCm (HIP) branch)");
  CHECK(build.not_taken[2] ==
        "-DDISABLE_SM90_FEATURES (setup.py:12, in a branch not taken unless the environment sets DISABLE_SM90_FEATURES)");
  CHECK(build.not_taken[4].starts_with("-DFORCED (setup.py:21, in a branch not taken unless the environment sets "
                                       "PROJECT_FORCE_BUILD"));
  CHECK(build.torch_extension);
  CHECK(build.extension_name == "_C");
}

TEST_CASE("setup.py build: a branch whose condition is not known keeps its flags") {
  const auto build = read_setup_py(R"(
if cuda_version >= Version("12.0"):
    nvcc_flags = ["-DNEW_CUDA", "--expt-extended-lambda"]
else:
    nvcc_flags = ["-DOLD_CUDA"]
ext = CUDAExtension("plain_name", ["k.cu"])
)",
                                   "setup.py");
  CHECK(texts(build.defines) == Strings{"NEW_CUDA", "OLD_CUDA"});
  CHECK(texts(build.flags) == Strings{"--expt-extended-lambda"});
  CHECK(build.not_taken.empty());
  CHECK(build.extension_name == "plain_name");
}

TEST_CASE("setup.py build: not a PyTorch extension without torch's build helpers") {
  const auto build = read_setup_py("from setuptools import setup, Extension\nsetup(ext_modules=[Extension('x', ['x.c'])])\n",
                                   "setup.py");
  CHECK_FALSE(build.torch_extension);
  CHECK(read_setup_py("from torch.utils.cpp_extension import BuildExtension\n", "setup.py").torch_extension);
  CHECK(read_setup_py("ext = CUDAExtension(name=f'{pkg}._C')\n", "setup.py").extension_name.empty());
}
