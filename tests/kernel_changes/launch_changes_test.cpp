// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/launch_changes.hpp"

#include <catch2/catch.hpp>

#include "kernel_changes/changed_kernels.hpp"
#include "support/scanned.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernel_changes;
using namespace kforecast::kernels::testing;

TEST_CASE(
    "kernel_changes: fixture launch_config_base.cu to _head.cu, a launch configuration change changes the kernel") {
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
