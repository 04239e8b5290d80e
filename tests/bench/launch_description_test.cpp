// SPDX-License-Identifier: Apache-2.0
#include "bench/launch_description.hpp"

#include <catch2/catch.hpp>

#include "bench/launch_spec_reader.hpp"

using namespace kforecast::bench;
using Catch::Matchers::Contains;
using kforecast::kernels::Parameter;

namespace {

LaunchSpec spec_of(std::string_view toml) {
  auto specs = read_config_specs(toml, ".kforecast.toml");
  if (!specs) FAIL(specs.error().message);
  REQUIRE(specs->size() == 1);
  return specs->front();
}

const std::vector<Parameter> sgemm_parameters{{"int", "M", ""},          {"int", "N", ""},
                                              {"int", "K", ""},          {"float", "alpha", ""},
                                              {"const float*", "A", ""}, {"const float* __restrict__", "B", ""},
                                              {"float", "beta", ""},     {"float*", "C", ""}};

constexpr std::string_view sgemm_spec = R"spec([[kernel]]
name = "sgemm"
sizes = [{ M = 4096, N = 2048, K = 100 }, { M = 64, N = 64, K = 64 }]
grid = ["ceil_div(N, 64)", "ceil_div(M, 64)"]
block = [16, 16]
shared_bytes = "64 * 64 * 4"
[kernel.args]
M = "M"
N = "N"
K = "K"
alpha = "1.5"
A = { count = "M * K" }
B = { count = "K * N", init = "normal(0, 1)" }
beta = 0
C = { count = "M * N", role = "inout" }
)spec";

}  // namespace

TEST_CASE("bench: a launch description gives the expressions and each size evaluated") {
  const auto description = describe_launch(spec_of(sgemm_spec), sgemm_parameters, "the config");
  const std::string& text = description.text;
  CHECK(description.problems.empty());
  CHECK_THAT(text, Contains("launch spec at .kforecast.toml:1 (the config) for sgemm"));
  // As written.
  CHECK_THAT(text, Contains("grid = [ceil_div(N, 64), ceil_div(M, 64)]") && Contains("block = [16, 16]") &&
                       Contains("dynamic shared memory bytes = 64 * 64 * 4") &&
                       Contains("B: buffer, count = K * N, init = normal(0, 1), input") &&
                       Contains("C: buffer, count = M * N, input and output") && Contains("alpha: scalar = 1.5"));
  // Evaluated, size by size.
  CHECK_THAT(text, Contains("Problem sizes (2), evaluated:"));
  CHECK_THAT(text, Contains("size K=100 M=4096 N=2048: grid (32, 64, 1), block (16, 16, 1), dynamic shared memory "
                            "16384 bytes; 2048 blocks of 256 threads (524288 threads)"));
  CHECK_THAT(text, Contains("A: buffer of 409600 float elements (1638400 bytes), input") &&
                       Contains("C: buffer of 8388608 float elements (33554432 bytes), input and output") &&
                       Contains("M: int = 4096") && Contains("alpha: float = 1.5") && Contains("beta: float = 0"));
  CHECK_THAT(text, Contains("size K=64 M=64 N=64: grid (1, 1, 1), block (16, 16, 1)") &&
                       Contains("A: buffer of 4096 float elements"));
}

TEST_CASE("bench: a size that does not resolve is shown unevaluated and returned as a problem") {
  auto spec = spec_of(sgemm_spec);
  spec.sizes[1]["N"] = 0;  // ceil_div(0, 64) = 0 blocks: not a launch
  const auto description = describe_launch(spec, sgemm_parameters, "the config");
  CHECK_THAT(description.text, Contains("grid (32, 64, 1)") && Contains("size K=64 M=64 N=0: not evaluated ("));
  REQUIRE(description.problems.size() == 1);
  CHECK_THAT(description.problems[0],
             Contains("size K=64 M=64 N=0") && Contains(".kforecast.toml:1") && Contains("grid[0]"));

  // Bound to parameters the spec does not name: every size fails, each says why.
  const auto renamed = describe_launch(spec_of(sgemm_spec), {{"float*", "out", ""}}, "the config");
  CHECK(renamed.problems.size() == 2);
  CHECK_THAT(renamed.problems[0], Contains("the kernel has no parameter"));
  CHECK_THAT(renamed.text, Contains("grid = [ceil_div(N, 64), ceil_div(M, 64)]"));  // still as written
}

TEST_CASE("bench: a launch description is bounded: sizes past the limit and long expressions are cut") {
  std::string toml = "[[kernel]]\nname = \"k\"\nsizes = [";
  for (int i = 1; i <= 20; ++i) toml += (i > 1 ? ", " : "") + std::string("{ n = ") + std::to_string(i * 32) + " }";
  std::string long_grid = "n / 32";
  for (int i = 0; i < 100; ++i) long_grid += " + 0";
  toml += "]\ngrid = [\"" + long_grid + "\"]\nblock = [32]\n[kernel.args]\nn = \"n\"\n";
  const auto description = describe_launch(spec_of(toml), {{"int", "n", ""}}, "x");
  CHECK_THAT(description.text, Contains("Problem sizes (20), evaluated:") &&
                                   Contains("[... 12 more sizes not shown ...]") && Contains("size n=256:") &&
                                   !Contains("size n=288:") && Contains("grid (8, 1, 1)") &&
                                   Contains("grid = [n / 32 + 0 + 0") && Contains("...]"));
  CHECK(description.problems.empty());
  CHECK(description.text.size() < 4000);
}

TEST_CASE("bench: a spec without sizes describes its one launch") {
  const auto description =
      describe_launch(spec_of("[[kernel]]\nname = \"k\"\ngrid = [8]\nblock = [128]\n[kernel.args]\nx = { count = "
                              "\"1024\", type = \"float\" }\n"),
                      {{"T*", "x", ""}}, "x");
  CHECK(description.problems.empty());
  CHECK_THAT(description.text, Contains("size default: grid (8, 1, 1), block (128, 1, 1)") &&
                                   Contains("x: buffer of 1024 float elements (4096 bytes), input"));
}
