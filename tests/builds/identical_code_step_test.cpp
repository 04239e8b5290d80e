// SPDX-License-Identifier: Apache-2.0
// The identical-code step over a FakeCompiler: one compile per unit and side, however many of its
// kernels changed, and the typed spelling only when NVRTC could not resolve a plain name.
#include "builds/identical_code_step.hpp"

#include <catch2/catch.hpp>

#include "cuda/fake_compiler.hpp"
#include "support/gate_fakes.hpp"

using namespace kforecast;
using namespace kforecast::builds;
using kforecast::test::compile_by_length;

namespace {

struct Scenario {
  kernels::SourceFiles base_files{{"k.cu",
                                   "__global__ void a(float* x) { x[0] = 1; }\n"
                                   "__global__ void b(float* x) { x[0] = 2; }\n"}};
  kernels::SourceFiles head_files{{"k.cu",
                                   "__global__ void a(float* x) { x[0] = 3; }\n"
                                   "__global__ void b(float* x) { x[0] = 4; }\n"}};
  kernels::RevisionSources base{base_files}, head{head_files};
  std::vector<kernel_changes::ChangedKernel> changed =
      kernel_changes::find_changed_kernels(base, head, {}, {"k.cu"}).kernels;
};

}  // namespace

TEST_CASE("cli: kernels of one file are compared in one compile per side") {
  Scenario scenario;
  REQUIRE(scenario.changed.size() == 2);
  cuda::FakeCompiler compiler(compile_by_length);
  const auto verdicts = compare_changed_kernels(scenario.base, scenario.head, scenario.changed, {compiler, "sm_90"});
  CHECK(compiler.requests().size() == 2);
  CHECK(compiler.requests()[0].name_expressions.size() == 2);
  REQUIRE(verdicts.size() == 2);
  CHECK(verdicts[0].outcome == policy::CodeComparison::identical);  // same length: same fake code
  CHECK(verdicts[0].names == std::vector<std::string>{"a"});
  CHECK(compiler.requests()[0].options == std::vector<std::string>{"-default-device"});
}

TEST_CASE("cli: a name NVRTC cannot resolve is retried in its typed spelling") {
  Scenario scenario;
  cuda::FakeCompiler compiler([](const cuda::CompileRequest& request) -> Result<cuda::CompileOutput> {
    for (const auto& expression : request.name_expressions)
      if (!expression.starts_with("static_cast"))
        return fail(ExitCode::could_not_run,
                    "see the compile log\n__nv_name_map(2): error: cannot determine which "
                    "instance of overloaded function \"a\" is intended");
    return compile_by_length(request);
  });
  const auto verdicts = compare_changed_kernels(scenario.base, scenario.head, scenario.changed, {compiler, "sm_90"});
  REQUIRE(compiler.requests().size() == 4);
  CHECK(compiler.requests()[3].name_expressions[0] == "static_cast<void (*)(float*)>(a)");
  CHECK(verdicts[0].outcome == policy::CodeComparison::identical);
  SECTION("an error in the source itself is a compile failure, not a naming problem") {
    cuda::FakeCompiler broken([](const cuda::CompileRequest&) -> Result<cuda::CompileOutput> {
      return fail(ExitCode::could_not_run,
                  "k.cu(1): error: expected a '}'\n__nv_name_map(2): error: identifier \"a\" is undefined");
    });
    const auto failed = compare_changed_kernels(scenario.base, scenario.head, scenario.changed, {broken, "sm_90"});
    CHECK(broken.requests().size() == 2);
    CHECK(failed[0].outcome == policy::CodeComparison::both_failed);  // the same broken compiler for both sides
  }
}
