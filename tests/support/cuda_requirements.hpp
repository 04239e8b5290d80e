// SPDX-License-Identifier: Apache-2.0
#pragma once

// The requirements of tests that need CUDA, found as kforecast itself finds the libraries: NVRTC
// (compile tests), and a driver with at least one device (GPU tests); and the one of tests of what
// a machine without NVRTC shows. A test executable's missing_requirement() (requirement.hpp)
// returns one or more; the test must link kf_cuda.

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "base/environment.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvrtc.hpp"
#include "cuda/toolkit_locator.hpp"

namespace kforecast::testing {

// The libraries a test loads, as kforecast loads them without a config file: the environment's
// KFORECAST_NVRTC_LIBRARY and KFORECAST_CUDA_DRIVER_LIBRARY where set (the settings a skipped
// test's message suggests), else the search (cuda/library_search.hpp), which CUDA_HOME leads.
inline cuda::LoaderOptions test_loader_options() {
  const auto variable = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value != nullptr ? value : "");
  };
  return {variable("KFORECAST_NVRTC_LIBRARY"), variable("KFORECAST_CUDA_DRIVER_LIBRARY")};
}

inline cuda::LoadedCompiler load_test_nvrtc() { return cuda::load_nvrtc(test_loader_options(), process_environment()); }

inline std::optional<std::string> missing_nvrtc() {
  auto compiler = load_test_nvrtc();
  if (!compiler) return compiler.error().message() + " (scripts/setup.sh installs CUDA's NVRTC wheel)";
  return std::nullopt;
}

// The opposite of missing_nvrtc(): for tests of what kforecast says where NVRTC is not installed.
inline std::optional<std::string> installed_nvrtc() {
  if (missing_nvrtc()) return std::nullopt;
  return std::string(
      "NVRTC is installed here; this test is of a machine without it (run it with "
      "KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so, or where no CUDA is installed)");
}

inline std::optional<std::string> missing_gpu() {
  auto driver = cuda::load_driver(test_loader_options());
  if (!driver) return driver.error().message();
  auto devices = (*driver)->devices();
  if (!devices) return devices.error().message + ": run on a machine with an NVIDIA GPU and its driver";
  if (devices->empty()) return std::string("the CUDA driver reports no device: run on a machine with an NVIDIA GPU");
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
