// SPDX-License-Identifier: Apache-2.0
#include "forecasters/local_hardware.hpp"

#include <catch2/catch.hpp>

#include "cuda/fake_driver.hpp"

using namespace kforecast;
using Catch::Matchers::Contains;

TEST_CASE("local gpu: the driver's figures as the LLM prompt describes them") {
  const auto gpu = forecasters::local_hardware_properties(cuda::fake_h100());
  CHECK(gpu.arch == "sm_90");
  CHECK(gpu.memory_bandwidth_gbs == Approx(3352.32));  // 2 x 2619 MHz x 5120 bits / 8
  const std::string text = llm::describe(gpu);
  CHECK_THAT(text, Contains("NVIDIA H100 80GB HBM3 (queried from the local driver) (Hopper architecture, sm_90)") &&
                       Contains("132 SMs at up to 1.98 GHz") && Contains("79.2044 GiB device memory, 3352.32 GB/s") &&
                       Contains("50 MiB L2 cache") &&
                       Contains("up to 228 KiB shared memory per SM, 65536 registers per SM, 2048 threads per SM"));
  CHECK_THAT(text, !Contains("TFLOPS"));  // the driver does not report peak rates: nothing is made up

  auto ada = cuda::fake_h100();
  ada.compute_major = 8;
  ada.compute_minor = 9;
  CHECK(forecasters::local_hardware_properties(ada).architecture == "Ada Lovelace");
  ada.compute_major = 13;
  CHECK(forecasters::local_hardware_properties(ada).architecture == "compute capability 13.9");
}
