// SPDX-License-Identifier: Apache-2.0
// kforecast pr with nvcc on a unit that includes the CUDA libraries' headers without calling the
// libraries, as PyTorch's ATen/cuda/CUDAContext.h and training code do: it compiles wherever
// kforecast's set-up put nvcc (a toolkit, or the pinned wheels with the libraries' headers).
#include <catch2/catch.hpp>

#include "e2e/e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvcc(); }

namespace {

void commit_unit(const FixtureRepo& repo, const std::string& factor) {
  repo.write("src/k.cu", R"(#include <cublas_v2.h>
#include <cublasLt.h>
#include <cusparse.h>
#include <cusolverDn.h>
#include <cufft.h>
#include <curand_kernel.h>
#include <nvtx3/nvToolsExt.h>
__global__ void scale(float* x) { x[threadIdx.x] *= )" +
                             factor + R"(; }
)");
}

}  // namespace

TEST_CASE("e2e nvcc: a unit that includes cuBLAS, cuSPARSE, cuSOLVER, cuFFT, cuRAND and NVTX headers compiles") {
  FixtureRepo repo;
  commit_unit(repo, "2.0f");
  repo.commit("base");
  commit_unit(repo, "3.0f");
  repo.commit("head");
  const Run run = run_kforecast({"pr", "--base", "HEAD~1", "--no-bench"}, repo.path(),
                                {"XDG_CACHE_HOME=" + (repo.path() / ".git/kf-cache").string()});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("machine code differs"));
  CHECK_THAT(run.out, !Contains("not found"));
}
