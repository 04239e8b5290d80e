// SPDX-License-Identifier: Apache-2.0
#include "bench/resolved_launch.hpp"

#include <cstring>

#include <catch2/catch.hpp>

#include "bench/launch_spec_reader.hpp"

using namespace kforecast::bench;
using kforecast::kernels::Parameter;

namespace {

LaunchSpec spec_of(std::string_view toml) {
  auto specs = read_config_specs(toml, "k.toml");
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
sizes = [{ M = 4096, N = 2048, K = 100 }]
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
C = { count = "M * N", role = "inout", rtol = 1e-3 }
)spec";

}  // namespace

TEST_CASE("bench: a spec resolves against the kernel's signature") {
  const LaunchSpec spec = spec_of(sgemm_spec);
  auto launch = resolve_launch(spec, spec.sizes[0], sgemm_parameters);
  if (!launch) FAIL(launch.error().message);
  CHECK(launch->grid == std::array<std::uint32_t, 3>{32, 64, 1});
  CHECK(launch->block == std::array<std::uint32_t, 3>{16, 16, 1});
  CHECK(launch->shared_bytes == 16384);
  CHECK(launch->size_text() == "K=100 M=4096 N=2048");
  REQUIRE(launch->arguments.size() == 8);
  const auto& alpha = launch->arguments[3];
  CHECK_FALSE(alpha.buffer);
  float value = 0;
  REQUIRE(alpha.scalar_bytes.size() == 4);
  std::memcpy(&value, alpha.scalar_bytes.data(), 4);
  CHECK(value == 1.5f);
  int m = 0;
  std::memcpy(&m, launch->arguments[0].scalar_bytes.data(), 4);
  CHECK(m == 4096);
  const auto& a = launch->arguments[4];
  CHECK(a.buffer);
  CHECK(a.count == 409600);
  CHECK(a.type.name == "float");
  CHECK(a.rtol == 1e-4);  // float32's default
  CHECK(a.init.distribution == Distribution::uniform);
  const auto& c = launch->arguments[7];
  CHECK(c.role == Role::inout);
  CHECK(c.rtol == 1e-3);
  CHECK(c.bytes() == 4096LL * 2048 * 4);
}

TEST_CASE("bench: binding mistakes name the key") {
  LaunchSpec spec = spec_of(sgemm_spec);
  const auto error_of = [&](const LaunchSpec& s, const std::vector<Parameter>& parameters) {
    auto launch = resolve_launch(s, s.sizes[0], parameters);
    REQUIRE_FALSE(launch.has_value());
    return launch.error().message;
  };
  auto missing = sgemm_parameters;
  missing.push_back({"float*", "D", ""});
  CHECK(error_of(spec, missing) ==
        "k.toml:1: [[kernel]] 'sgemm': key 'args.D': missing: parameter 'float* D' needs a value");
  auto renamed = sgemm_parameters;
  renamed[7].name = "Cout";
  CHECK(error_of(spec, renamed).find("key 'args.C': the kernel has no parameter 'C'") != std::string::npos);
  auto scalar_as_pointer = sgemm_parameters;
  scalar_as_pointer[0].type = "int*";
  CHECK(error_of(spec, scalar_as_pointer).find("'M' is a pointer (int*); give a buffer table") != std::string::npos);
  auto templated = sgemm_parameters;
  templated[4].type = "const T*";
  CHECK(error_of(spec, templated).find("element type 'T' cannot be filled; set type = \"float\"") != std::string::npos);
  auto narrow = sgemm_parameters;
  narrow[0].type = "short";
  spec.sizes[0]["M"] = 100000;
  CHECK(error_of(spec, narrow).find("key 'args.M': 'M' is 100000, which does not fit short") != std::string::npos);
  spec = spec_of(sgemm_spec);
  spec.grid[0] = "N / (K - 100)";
  CHECK(error_of(spec, sgemm_parameters).find("key 'grid[0]': expression 'N / (K - 100)': division by zero") !=
        std::string::npos);
  spec = spec_of(sgemm_spec);
  spec.block = {"2048"};
  CHECK(error_of(spec, sgemm_parameters).find("key 'block[0]'") != std::string::npos);
  spec = spec_of(sgemm_spec);
  spec.block = {"64", "32"};
  CHECK(error_of(spec, sgemm_parameters).find("more than 1024 threads") != std::string::npos);
  spec = spec_of(sgemm_spec);
  spec.grid = {"0"};
  CHECK(error_of(spec, sgemm_parameters).find("it must be from 1") != std::string::npos);
}

TEST_CASE("bench: a buffer type override fills a template parameter") {
  const LaunchSpec spec = spec_of(R"spec([[kernel]]
name = "fill<float>"
grid = [1]
block = [32]
args = { out = { count = 32, type = "__half", role = "out" }, n = 32 }
)spec");
  auto launch = resolve_launch(spec, spec.sizes[0], {{"T*", "out", ""}, {"size_t", "n", ""}});
  if (!launch) FAIL(launch.error().message);
  CHECK(launch->arguments[0].type.name == "__half");
  CHECK(launch->arguments[0].rtol == 1e-2);
  CHECK(launch->arguments[1].scalar_bytes.size() == 8);
}
