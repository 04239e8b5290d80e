// SPDX-License-Identifier: Apache-2.0
#include "cuda/ptxas_report.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

using namespace kforecast::cuda;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(KF_SOURCE_DIR) + "/fixtures/fuzz/ptxas_report/" + name, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("cuda: parse_ptxas_report") {
  SECTION("NVRTC 13's report of one kernel") {
    const auto functions = parse_ptxas_report(fixture("nvrtc13_brief_example.log"));
    REQUIRE(functions.size() == 1);
    const auto& k = functions[0];
    CHECK(k.name == "k");
    CHECK(k.arch == "sm_90");
    CHECK(k.kind == FunctionKind::kernel);
    CHECK(k.registers == 34);
    CHECK(k.barriers == 1);
    CHECK(k.stack_frame_bytes == 256);
    CHECK(k.spill_store_bytes == 0);
    CHECK(k.spill_load_bytes == 0);
    CHECK(k.cumulative_stack_bytes == 256);
    CHECK(k.shared_bytes == 1024);
    CHECK(k.constant_bytes == 0);
  }
  SECTION("several kernels and a __device__ function, in report order") {
    const auto functions = parse_ptxas_report(fixture("nvrtc13_sm90_stack_smem_device_function.log"));
    REQUIRE(functions.size() == 3);
    CHECK(functions[0].name == "_Z5scaleILi4EEvPf");
    CHECK(functions[0].registers == 8);
    CHECK(functions[0].barriers == 0);
    CHECK(functions[1].name == "stacky");
    CHECK(functions[1].registers == 40);
    CHECK(functions[1].barriers == 1);
    CHECK(functions[1].stack_frame_bytes == 384);
    CHECK(functions[1].shared_bytes == 1024);
    CHECK(functions[2].name == "_Z6helperPfi");
    CHECK(functions[2].kind == FunctionKind::device_function);
    CHECK(functions[2].arch == "sm_90");
    CHECK(functions[2].registers == 0);
    REQUIRE(find_function(functions, "stacky") == &functions[1]);
    CHECK(find_function(functions, "missing") == nullptr);
  }
  SECTION("spills, and the module's own gmem/cmem line belongs to no function") {
    const auto functions = parse_ptxas_report(fixture("nvrtc13_sm86_spills.log"));
    REQUIRE(functions.size() == 2);
    const auto* spilly = find_function(functions, "spilly");
    REQUIRE(spilly != nullptr);
    CHECK(spilly->registers == 24);
    CHECK(spilly->spill_store_bytes == 412);
    CHECK(spilly->spill_load_bytes == 412);
    CHECK(spilly->stack_frame_bytes == 224);
    CHECK(spilly->constant_bytes == 372);
  }
  SECTION("relocatable device code: device functions without a 'Used' line") {
    const auto functions = parse_ptxas_report(fixture("nvrtc13_sm80_rdc.log"));
    REQUIRE(functions.size() == 4);
    CHECK(functions[0].name == "_Z6helperPfi$1");
    CHECK(functions[0].kind == FunctionKind::device_function);
    CHECK(functions[0].stack_frame_bytes == 136);
    CHECK(functions[0].arch.empty());
    CHECK(functions[0].constant_bytes == 0);
    const auto* stacky = find_function(functions, "stacky");
    REQUIRE(stacky != nullptr);
    CHECK(stacky->registers == 32);
    CHECK(stacky->constant_bytes == 372);
  }
  SECTION("the older layout: indented properties, several constant banks, no barriers") {
    const auto functions = parse_ptxas_report(fixture("cuda11_nvcc_layout.log"));
    REQUIRE(functions.size() == 3);
    CHECK(functions[0].registers == 8);
    CHECK(functions[0].constant_bytes == 352);
    CHECK(functions[1].name == "_Z4tileILi32EEvPKfPf");
    CHECK(functions[1].registers == 255);
    CHECK(functions[1].shared_bytes == 4224);
    CHECK(functions[1].constant_bytes == 368 + 16);
    CHECK(functions[1].stack_frame_bytes == 16);
    CHECK(functions[1].spill_store_bytes == 8);
    CHECK(functions[1].spill_load_bytes == 4);
    CHECK(functions[2].name == "_Z6helperf");
    CHECK(functions[2].kind == FunctionKind::device_function);
    CHECK(functions[2].stack_frame_bytes == 8);
  }
  SECTION("CRLF line ends and an lmem field") {
    const auto functions = parse_ptxas_report(
        "ptxas info    : Compiling entry function 'k' for 'sm_70'\r\n"
        "ptxas info    : Used 12 registers, 16 bytes lmem, 8 bytes smem\r\n");
    REQUIRE(functions.size() == 1);
    CHECK(functions[0].arch == "sm_70");
    CHECK(functions[0].registers == 12);
    CHECK(functions[0].local_bytes == 16);
    CHECK(functions[0].shared_bytes == 8);
  }
  SECTION("a compile error log, garbage and hostile numbers give nothing and do not crash") {
    CHECK(parse_ptxas_report(fixture("nvrtc13_compile_error.log")).empty());
    CHECK(parse_ptxas_report("").empty());
    CHECK(parse_ptxas_report("\n\n\n").empty());
    CHECK(parse_ptxas_report(std::string(100000, '\'')).empty());
    CHECK(parse_ptxas_report("Used 99999999999999999999999 registers, -5 bytes smem").empty());
    const auto functions = parse_ptxas_report(
        "Compiling entry function 'x' for '\nUsed 99999999999999999999999 registers, -5 bytes smem, "
        "9223372036854775807 bytes cmem[0], 9223372036854775807 bytes cmem[1]\nFunction properties for\n");
    REQUIRE(functions.size() == 1);
    CHECK(functions[0].registers == 0);
    CHECK(functions[0].shared_bytes == 0);
    CHECK(functions[0].constant_bytes == 9223372036854775807);
  }
  SECTION("random bytes never crash") {
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
      std::string input(static_cast<std::size_t>(rng() % 512), '\0');
      for (auto& c : input) c = static_cast<char>(rng());
      (void)parse_ptxas_report(input);
    }
  }
}
