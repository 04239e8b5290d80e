// SPDX-License-Identifier: Apache-2.0
#include "forecasters/compiler_facts.hpp"

#include <catch2/catch.hpp>

#include "cuda/fake_compiler.hpp"

using namespace kforecast;
using namespace kforecast::forecasters;

TEST_CASE("cli: the PTX instruction mix of one entry") {
  const std::string ptx =
      ".visible .entry _Z1kPf(\n\t.param .u64 p\n)\n{\n\t.reg .f32 %f<3>;\n\tld.global.f32 %f1, [%rd1];\n"
      "\tst.shared.f32 [%r1], %f1;\n\tbar.sync 0;\n\tfma.rn.f32 %f2, %f1, %f1, %f1;\n\tst.global.f32 [%rd1], %f2;\n"
      "\tret;\n}\n.visible .entry _Z5otherPf(\n\t.param .u64 p\n)\n{\n\tatom.global.add.f32 %f1, [%rd1], %f2;\n}\n";
  const std::string mix = forecasters::ptx_instruction_mix(ptx, "_Z1kPf");
  CHECK_THAT(mix, Catch::Contains("1 global loads") && Catch::Contains("1 global stores") &&
                      Catch::Contains("1 shared stores") && Catch::Contains("1 fma") && Catch::Contains("1 barriers"));
  CHECK_THAT(mix, !Catch::Contains("atomics"));  // the other entry's
  CHECK_THAT(forecasters::ptx_instruction_mix(ptx, "_Z5otherPf"), Catch::Contains("1 atomics"));
  CHECK(forecasters::ptx_instruction_mix(ptx, "_Z7missingv").empty());
}

TEST_CASE("cli: compiler facts from a compile for the target GPU, or none") {
  using namespace kforecast::cuda;
  FakeCompiler compiler([](const CompileRequest& request) -> kforecast::Result<CompileOutput> {
    if (request.source.find("broken") != std::string::npos) return kforecast::usage_error("error: broken");
    CompileOutput output;
    output.ptx = ".visible .entry _Z1kPf(\n)\n{\n\tld.global.f32 %f1, [%rd1];\n}\n";
    output.lowered_names = {{"k", "_Z1kPf"}};
    KernelResources resources;
    resources.name = "_Z1kPf";
    resources.arch = "sm_90";
    resources.registers = 40;
    resources.spill_store_bytes = 8;
    resources.shared_bytes = 4096;
    resources.barriers = 1;
    output.functions = {resources};
    return output;
  });
  kforecast::policy::CompileUnit unit{"k.cu", "__global__ void k(float*) {}", {}, {}, {"-default-device"}};
  const std::string facts = forecasters::compiler_facts(compiler, unit, "k", "sm_90");
  CHECK_THAT(facts, Catch::Contains("for sm_90: 40 registers per thread, 8 bytes spill stores") &&
                        Catch::Contains("4096 bytes static shared memory") && Catch::Contains("1 barriers") &&
                        Catch::Contains("1 global loads"));
  REQUIRE(compiler.requests().size() == 1);
  CHECK(compiler.requests()[0].arch == "sm_90");  // machine code, so ptxas reports resources
  CHECK(compiler.requests()[0].name_expressions == std::vector<std::string>{"k"});

  unit.source = "broken";
  CHECK(forecasters::compiler_facts(compiler, unit, "k", "sm_90").empty());
}
