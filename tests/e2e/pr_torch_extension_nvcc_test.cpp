// SPDX-License-Identifier: Apache-2.0
// kforecast pr with nvcc on a PyTorch extension (setup.py with CUDAExtension), as a gating job
// has it: torch installed into a Python without its dependencies, so it cannot be imported. The
// units compile with torch's headers and the flags torch's build gives them (its half-precision
// guards, undone by the project's own -U; TORCH_API_INCLUDE_EXTENSION_H; TORCH_EXTENSION_NAME),
// never with a define from a branch an opt-in environment variable guards. Without torch, the
// run's first line says what is missing and how to add it, and no compiler error is printed.
//
// The torch package here is a stand-in written for this test: a few headers that check, with
// #error, what torch's build would give the unit.
#include <catch2/catch.hpp>

#include "base/subprocess.hpp"
#include "e2e/e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvcc(); }

namespace {

// A virtual environment of the system's Python, and its site-packages folder.
std::pair<fs::path, fs::path> make_venv(const fs::path& folder) {
  const auto made = kforecast::run_process({"python3", "-m", "venv", "--without-pip", folder.string()});
  REQUIRE(made.has_value());
  REQUIRE(made->exit_status == 0);
  const fs::path python = folder / "bin" / "python";
  const auto site = kforecast::run_process({python.string(), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"});
  REQUIRE(site.has_value());
  std::string path = site->out;
  while (!path.empty() && path.back() == '\n') path.pop_back();
  return {python, fs::path(path)};
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// torch as `pip install --no-deps torch` leaves it: importing it fails, its headers are all there.
void install_stand_in_torch(const fs::path& site) {
  const fs::path torch = site / "torch";
  write_file(torch / "__init__.py", "import typing_extensions_that_no_deps_left_out\n");
  write_file(torch / "version.py", "__version__ = '2.15.0+cu130'\n");
  write_file(torch / "include" / "torch" / "extension.h", R"(#pragma once
#ifndef TORCH_API_INCLUDE_EXTENSION_H
#error "torch's build defines TORCH_API_INCLUDE_EXTENSION_H"
#endif
#ifndef __CUDA_NO_HALF2_OPERATORS__
#error "torch's build defines the half-precision guards"
#endif
#define KF_STRING2(x) #x
#define KF_STRING(x) KF_STRING2(x)
static_assert(sizeof(KF_STRING(TORCH_EXTENSION_NAME)) == 3, "TORCH_EXTENSION_NAME is the extension's last name: _C");
#include <c10/util/Half.h>
#include <torch/all.h>
)");
  write_file(torch / "include" / "c10" / "util" / "Half.h", "#pragma once\nnamespace c10 { struct Half {}; }\n");
  // torch's second include folder, as CUDAExtension adds it.
  write_file(torch / "include" / "torch" / "csrc" / "api" / "include" / "torch" / "all.h", "#pragma once\n");
}

void commit_extension(const FixtureRepo& repo, const std::string& scale) {
  repo.write("setup.py", R"(import os
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

nvcc_flags = ["-O3", "-U__CUDA_NO_HALF_OPERATORS__", "--use_fast_math"]
if os.getenv("EXT_DEBUG_CHECKS", "0") == "1":
    nvcc_flags.append("-DEXT_DEBUG_CHECKS")
setup(
    name="ext",
    ext_modules=[CUDAExtension(name="ext._C", sources=["csrc/scale.cu"], extra_compile_args={"nvcc": nvcc_flags})],
    cmdclass={"build_ext": BuildExtension},
)
)");
  // __half's operator* exists only where the project's -U undid torch's guard.
  repo.write("csrc/scale.cu", R"(#include <torch/extension.h>
#include <cuda_fp16.h>
#ifdef EXT_DEBUG_CHECKS
#error "a define only an opt-in environment variable adds reached the build"
#endif
__global__ void scale(__half* x, __half s) { x[threadIdx.x] = x[threadIdx.x] * s * __float2half()" +
                                  scale + R"(f); }
)");
}

Run pr_with_python(FixtureRepo& repo, const fs::path& python) {
  commit_extension(repo, "2.0");
  repo.commit("base");
  commit_extension(repo, "3.0");
  repo.commit("head");
  return run_kforecast({"pr", "--base", "HEAD~1", "--no-bench"}, repo.path(),
                       {"XDG_CACHE_HOME=" + (repo.path() / ".git/kf-cache").string(), "KFORECAST_PYTHON=" + python.string()});
}

}  // namespace

TEST_CASE("e2e nvcc: a PyTorch extension's unit compiles with the installed torch's headers and torch's flags") {
  const kforecast::testing::TempDir python_home;
  const auto [python, site] = make_venv(python_home.path() / "venv");
  install_stand_in_torch(site);
  FixtureRepo repo;
  const Run run = pr_with_python(repo, python);
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("machine code differs"));
  CHECK_THAT(run.out, !Contains("error"));
  CHECK_THAT(run.out, Contains("PyTorch extension (setup.py builds a PyTorch CUDAExtension)"));
  CHECK_THAT(run.out, Contains("torch 2.15.0"));
  CHECK_THAT(run.out, Contains("-DEXT_DEBUG_CHECKS (setup.py:7, in a branch not taken unless the environment sets "
                               "EXT_DEBUG_CHECKS)"));
}

TEST_CASE("e2e nvcc: without torch, the first line says which kernels were not compiled and how to add torch") {
  const kforecast::testing::TempDir python_home;
  const auto [python, site] = make_venv(python_home.path() / "venv");
  FixtureRepo repo;
  const Run run = pr_with_python(repo, python);
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  const std::string first_line = run.out.substr(0, run.out.find('\n'));
  CHECK_THAT(first_line, Contains("1 kernel not compiled: PyTorch's headers not found (setup.py builds a PyTorch "
                                  "CUDAExtension)"));
  CHECK_THAT(run.out, Contains("has no torch package installed; install the torch wheel without its dependencies"));
  CHECK_THAT(run.out + run.err, !Contains("No such file or directory"));
  CHECK_THAT(run.out + run.err, !Contains("cannot open source file"));
}
