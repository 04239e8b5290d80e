// SPDX-License-Identifier: Apache-2.0
#include "kernels/launch_sites.hpp"

#include <catch2/catch.hpp>

#include "kernels/changed_kernels.hpp"
#include "scanned.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernels::testing;
using Catch::Matchers::VectorContains;

TEST_CASE("kernels: launch sites give the kernel, its template arguments and the configuration") {
  const auto sites = launch_sites(
      "void f() {\n  k<<<grid, 64>>>(a);\n  ns::t<float, (N > 2)><<<dim3(1, 2), block, smem, s>>>(b);\n"
      "  // c<<<1, 1>>>(x);\n  (*fp)<<<1, 1>>>();\n  if (a << b < c) {}\n  u<<<1, 2\n}\n");
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].kernel == "k");
  CHECK(sites[0].template_arguments.empty());
  CHECK(sites[0].configuration == "grid , 64");
  CHECK(sites[0].line == 2);
  CHECK(sites[1].kernel == "ns::t");
  CHECK(sites[1].template_arguments == "<float, (N > 2)>");
  CHECK(sites[1].configuration == "dim3 ( 1 , 2 ) , block , smem , s");
  CHECK(launch_sites("").empty());
  CHECK(launch_sites("<<<<<<>>>>>>").empty());
}

TEST_CASE("kernels: changed launches are those new in the head, layout aside") {
  const std::string base = "k<<<g, 1>>>(a);\nk<<<g, 1>>>(b);\nj<<<g, 32>>>(c);\n";
  CHECK(changed_launches(base, "k<<<g,1>>>(a);\nk<<< g, 1 >>>(b);\nj<<<g, 32>>>(c);\n").empty());
  const auto one = changed_launches(base, "k<<<g, 1>>>(a);\nk<<<g, 64>>>(b);\nj<<<g, 32>>>(c);\n");
  REQUIRE(one.size() == 1);
  CHECK(one[0].kernel == "k");
  CHECK(one[0].line == 2);
  CHECK(changed_launches(base, base + "fresh<<<1, 1>>>();\n").empty());  // not launched before
}

TEST_CASE("kernels: fixture launch_config_base.cu to _head.cu, a launch configuration change changes the kernel") {
  const SourceFiles base{{"run.cu", read_fixture("launch_config_base.cu")}};
  const SourceFiles head{{"run.cu", read_fixture("launch_config_head.cu")}};
  const RevisionSources base_sources(base), head_sources(head);
  const auto analysis = find_changed_kernels(base_sources, head_sources, {}, {"run.cu"});
  std::vector<std::string> names;
  for (const auto& kernel : analysis.kernels) {
    names.push_back(std::string(to_string(kernel.change)) + " " + kernel.head->qualified_name);
    CHECK(kernel.base.has_value());
  }
  // Before: nothing, the kernels' code being the same.
  REQUIRE(names == std::vector<std::string>{"modified reduce_rows", "modified scatter_add"});
  CHECK(analysis.kernels[0].reasons == std::vector<std::string>{"launch configuration at run.cu:24 changed"});
  CHECK(analysis.kernels[1].reasons == std::vector<std::string>{"launch configuration at run.cu:26 changed"});
}

TEST_CASE("kernels: launches compare by canonical tokens, what a formatter rewrites aside") {
  const std::string base = "k<64, Tile<N>><<<g, 1>>>(a);\nj<<<(n + 255) / 256, 256, 0, s>>>(b);\n";
  const auto sites = launch_sites(base);
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].template_arguments == "<64, Tile<N>>");  // as written, for messages
  CHECK(sites[0].compared_template_arguments == "< 64 , Tile < N > >");
  CHECK(changed_launches(base, "k<64,Tile<N> ><<<g,1>>>(a);\nj<<<(n+255)/256,\n    256,0,s>>>(b);\n").empty());
  const auto changed = changed_launches(base, "k<32, Tile<N>><<<g, 1>>>(a);\nj<<<(n + 255) / 256, 256, 0, s>>>(b);\n");
  REQUIRE(changed.size() == 1);
  CHECK(changed[0].kernel == "k");
}
