// SPDX-License-Identifier: Apache-2.0
#include "llm/gpu_properties.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::llm;

TEST_CASE("llm: the GPU table holds current data-centre and workstation GPUs") {
  for (const char* name : {"V100", "T4", "A10", "A100", "L4", "L40S", "H100", "H200", "B200", "RTX 4090"}) {
    auto gpu = find_gpu(name);
    REQUIRE(gpu);
    CHECK(gpu->multiprocessors > 0);
    CHECK(gpu->memory_bandwidth_gbs > 0);
    CHECK(gpu->fp32_tflops > 0);
    CHECK_THAT(gpu->arch, Catch::StartsWith("sm_"));
  }
  CHECK(find_gpu("rtx-4090")->name == "RTX 4090");
  CHECK(find_gpu("h100")->arch == "sm_90");
  CHECK_FALSE(find_gpu("H1000"));
}

TEST_CASE("llm: a GPU's description gives the figures the model needs") {
  const std::string text = describe(*find_gpu("H100"));
  CHECK_THAT(text, Catch::Contains("132 SMs") && Catch::Contains("3350 GB/s") && Catch::Contains("sm_90") &&
                       Catch::Contains("228 KiB shared memory"));
  GpuProperties queried{"local", "NVIDIA Some GPU", "unknown", "sm_120"};
  CHECK_THAT(describe(queried), Catch::Contains("NVIDIA Some GPU") && !Catch::Contains("SMs"));
}
