// SPDX-License-Identifier: Apache-2.0
#include "hardware/gpu_specs.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string_view>

#include "hardware/arch_limits.hpp"

using namespace kforecast::hardware;

TEST_CASE("gpu: every GPU in the table has a unique name and its architecture's limits") {
  std::set<std::string_view> names;
  for (const GpuSpec& spec : gpu_specs()) {
    CHECK(names.insert(spec.name).second);
    CHECK(arch_limits(spec.compute_capability).has_value());
    CHECK(spec.multiprocessors > 0);
    CHECK(spec.boost_clock_mhz > 0);
    CHECK(spec.memory_bandwidth_gbs > 0);
  }
}

TEST_CASE("gpu: a row by its exact table name") {
  const auto h100 = gpu_spec("H100");
  REQUIRE(h100);
  CHECK(h100->compute_capability == 90);
  CHECK(h100->multiprocessors == 132);
  CHECK(h100->boost_clock_mhz == 1980);
  CHECK(h100->memory_bandwidth_gbs == 3350);
  CHECK(gpu_spec("RTX 4090")->full_name == "NVIDIA GeForce RTX 4090 24GB");
  CHECK_FALSE(gpu_spec("h100"));  // matching what a user typed is each user's own rule
  CHECK_FALSE(gpu_spec("H1000"));
}

TEST_CASE("hardware: the names a message lists are the table's, in its order") {
  const std::string names = kforecast::hardware::gpu_names();
  CHECK(names.starts_with("V100, T4, "));
  CHECK_THAT(names, Catch::Contains("H100") && Catch::Contains("L40S") && Catch::Contains("RTX 6000 Ada"));
  CHECK(names.find("H100") < names.find("H200"));
}
