// SPDX-License-Identifier: Apache-2.0
// What pr hands its measuring child so that it builds as the project does, and the unit that
// builds exactly the instantiation measured.
#include "measure/shipped_build.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::measure;

TEST_CASE("shipped build: the project build file reads back as written") {
  const ProjectBuild build{"/tmp/r/base", "/tmp/r/head \"quoted\"", {"-Iinclude", "-DX=1"}, {"-Iinclude", "-DX=2", "--use_fast_math"}};
  const auto parsed = measure::parse_project_build(measure::project_build_json(build));
  REQUIRE(parsed);
  CHECK(*parsed == build);
}

TEST_CASE("shipped build: a project build file of the wrong shape is refused, naming what it needs") {
  for (const char* text : {"", "[]", "{\"reference_tree\": 1}",
                           "{\"reference_tree\": \"a\", \"candidate_tree\": \"b\", \"reference_arguments\": [1], "
                           "\"candidate_arguments\": []}",
                           "{\"reference_tree\": \"a\", \"candidate_tree\": \"b\", \"reference_arguments\": []}"}) {
    const auto parsed = measure::parse_project_build(text);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().exit_code == ExitCode::usage);
  }
}

TEST_CASE("shipped build: the measuring unit includes the kernel's file and names the instantiation") {
  CHECK(measure::measuring_unit_text("src/kernels.cuh", "tiled<64>") ==
        "#include \"src/kernels.cuh\"\nstatic const auto kforecast_measured_kernel = &tiled<64>;\n");
}
