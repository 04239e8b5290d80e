// SPDX-License-Identifier: Apache-2.0
#pragma once

// A repository for `kforecast check`: src/scale.cu holds `scale` and `copy`, committed; the work
// tree then changes `scale`'s arithmetic (different machine code) and leaves `copy` alone.

#include <string>
#include <vector>

#include "support/fixture_repo.hpp"

namespace kforecast::e2e {

enum class ScaleBody { original, changed };

inline std::string scale_source(ScaleBody body) {
  return std::string(
             "__global__ void scale(float* a, int n) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n") +
         (body == ScaleBody::original ? "  if (i < n) a[i] = a[i] * 2.0f;\n"
                                      : "  if (i < n) a[i] = sqrtf(a[i]) * 2.0f + 1.0f;\n") +
         "}\n\n__global__ void copy(float* dst, const float* src) { dst[threadIdx.x] = src[threadIdx.x]; }\n";
}

inline void commit_scale_kernel(const testing::FixtureRepo& repo) {
  repo.write("src/scale.cu", scale_source(ScaleBody::original));
  repo.commit("base");
  repo.write("src/scale.cu", scale_source(ScaleBody::changed));
}

// No GPU (the driver is pointed at nothing), and compiled PTX cached inside the repository.
inline std::vector<std::string> check_environment(const testing::FixtureRepo& repo) {
  return {"KFORECAST_CUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1",
          "XDG_CACHE_HOME=" + (repo.path() / ".git/kf-cache").string()};
}

}  // namespace kforecast::e2e
