// SPDX-License-Identifier: Apache-2.0
#pragma once

// The two requirements of tests that need CUDA, found as kforecast itself finds the libraries:
// NVRTC (compile tests), and a driver with at least one device (GPU tests). A test executable's
// missing_requirement() (requirement.hpp) returns one or both; the test must link kf_cuda.

#include <optional>
#include <string>

#include "base/environment.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvrtc.hpp"

namespace kforecast::testing {

inline std::optional<std::string> missing_nvrtc() {
  auto compiler = cuda::load_nvrtc({}, process_environment());
  if (!compiler) return compiler.error().message();
  return std::nullopt;
}

inline std::optional<std::string> missing_gpu() {
  auto driver = cuda::load_driver({});
  if (!driver) return driver.error().message();
  auto devices = (*driver)->devices();
  if (!devices || devices->empty()) return std::string("no CUDA device");
  return std::nullopt;
}

}  // namespace kforecast::testing
