// SPDX-License-Identifier: Apache-2.0
#include "cubin/parameter_layout.hpp"

#include <fstream>

#include <catch2/catch.hpp>

using namespace kforecast::cubin;

TEST_CASE("cubin: a kernel's parameter layout from its KPARAM_INFO records") {
  // tests/fuzz/cubin_seeds.cu built by nvcc for sm_90: tiled<32>(float*) and
  // withlocal<Local>(Local, float*), Local a struct of one float.
  for (const auto* name : {"whole_program_sm90.cubin", "relocatable_sm90.cubin"}) {
    INFO(name);
    std::ifstream in(std::string(KF_SOURCE_DIR) + "/fixtures/fuzz/cubin/" + name, std::ios::binary);
    REQUIRE(in.good());
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    auto kernels = read_cubin_kernels(std::span(reinterpret_cast<const std::byte*>(text.data()), text.size()));
    REQUIRE(kernels.has_value());
    bool saw_tiled = false, saw_withlocal = false;
    for (const auto& kernel : *kernels) {
      if (kernel.name == "tiled") {
        saw_tiled = true;
        CHECK(parameter_layout(kernel) == std::vector<ParameterSlot>{{0, 0, 8}});
      }
      if (kernel.name == "withlocal") {
        saw_withlocal = true;
        CHECK(parameter_layout(kernel) == std::vector<ParameterSlot>{{0, 0, 4}, {1, 8, 8}});
      }
    }
    CHECK(saw_tiled);
    CHECK(saw_withlocal);
  }
}

TEST_CASE("cubin: a parameter record of another length is not read as a parameter") {
  CubinKernel kernel;
  kernel.body.attributes.push_back({0x17, std::vector<std::byte>(8), {}});
  CHECK(parameter_layout(kernel).empty());
}
