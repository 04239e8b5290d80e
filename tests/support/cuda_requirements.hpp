// SPDX-License-Identifier: Apache-2.0
#pragma once

// The requirements of tests that need CUDA, found as kforecast itself finds the libraries: NVRTC
// (compile tests), and a driver with at least one device (GPU tests); and the one of tests of what
// a machine without NVRTC shows. A test executable's missing_requirement() (requirement.hpp)
// returns one or more; the test must link kf_cuda.

#include <filesystem>
#include <optional>
#include <string>

#include "base/environment.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvrtc.hpp"
#include "cuda/toolkit_locator.hpp"

namespace kforecast::testing {

inline std::optional<std::string> missing_nvrtc() {
  auto compiler = cuda::load_nvrtc({}, process_environment());
  if (!compiler) return compiler.error().message();
  return std::nullopt;
}

// The opposite of missing_nvrtc(): for tests of what kforecast says where NVRTC is not installed.
inline std::optional<std::string> installed_nvrtc() {
  if (missing_nvrtc()) return std::nullopt;
  return std::string("NVRTC is installed here; this test is of a machine without it");
}

inline std::optional<std::string> missing_gpu() {
  auto driver = cuda::load_driver({});
  if (!driver) return driver.error().message();
  auto devices = (*driver)->devices();
  if (!devices || devices->empty()) return std::string("no CUDA device");
  return std::nullopt;
}

// The CUDA toolkit's nvcc for tests that compile whole units, found as kforecast finds it
// (cuda/toolkit_locator.hpp), or "" where there is none.
inline std::string nvcc_for_tests() {
  auto toolkit = cuda::locate_toolkit("", process_environment());
  return toolkit ? std::filesystem::absolute(toolkit->nvcc).string() : std::string();
}

inline std::optional<std::string> missing_nvcc() {
  if (auto toolkit = cuda::locate_toolkit("", process_environment()); !toolkit) return toolkit.error().message();
  return std::nullopt;
}

}  // namespace kforecast::testing
