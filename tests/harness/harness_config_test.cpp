// SPDX-License-Identifier: Apache-2.0
// The [[harness]] tables: what they declare, every mistake named with file:line:column, and which
// harness a changed kernel maps to.
#include "harness/harness_config.hpp"

#include <catch2/catch.hpp>

#include "config/config.hpp"

using namespace kforecast::harness;
using Catch::Matchers::Contains;
using kforecast::Result;

namespace {

constexpr std::string_view good = R"([policy]
max_p_regression = 0.1

[[harness]]
name = "gpu"
build = "cmake --build build"
run = "build/bench --benchmark_filter='{filter}' --benchmark_out={out}"
format = "gbench"
rounds = 12
timeout_seconds = 90

[[harness.map]]
kernels = ["src/gemm/*.cu"]
benchmarks = "BM_Gemm.*"

[[harness.map]]
kernels = ["reduce_*"]
benchmarks = "BM_Reduce"

[[harness]]
name = "py"
run = "pytest bench -k '{filter}' --benchmark-json={out}"
format = "pytest-benchmark"

[[harness.map]]
kernels = ["*"]
benchmarks = "test_all"
)";

std::string error_of(std::string_view text) {
  auto harnesses = read_harnesses(text, ".kforecast.toml");
  REQUIRE_FALSE(harnesses.has_value());
  return harnesses.error().message;
}

}  // namespace

TEST_CASE("harness config: tables read in order, with their maps and defaults") {
  auto harnesses = read_harnesses(good, ".kforecast.toml");
  REQUIRE(harnesses.has_value());
  REQUIRE(harnesses->size() == 2);
  const Harness& gpu = harnesses->front();
  CHECK(gpu.name == "gpu");
  CHECK(gpu.format == OutputFormat::gbench);
  CHECK(gpu.rounds == 12);
  CHECK(gpu.timeout_seconds == 90);
  CHECK(gpu.origin == ".kforecast.toml:4");
  REQUIRE(gpu.maps.size() == 2);
  CHECK(gpu.maps[1].benchmarks == "BM_Reduce");
  CHECK(harnesses->back().rounds == 8);
  CHECK(harnesses->back().build.empty());
  // The config loader accepts the tables and leaves them to this reader.
  CHECK(kforecast::config::parse_config(good, ".kforecast.toml").has_value());
}

TEST_CASE("harness config: a kernel maps to the first map whose glob matches its file or name") {
  auto harnesses = read_harnesses(good, ".kforecast.toml");
  REQUIRE(harnesses.has_value());
  auto by_file = harness_for(*harnesses, "src/gemm/tiled.cu", "sgemm");
  REQUIRE(by_file.has_value());
  CHECK(by_file->map->benchmarks == "BM_Gemm.*");
  auto by_name = harness_for(*harnesses, "src/reduce.cu", "ops::reduce_sum");
  REQUIRE(by_name.has_value());
  CHECK(by_name->map->benchmarks == "BM_Reduce");
  CHECK(harness_for(*harnesses, "src/other.cu", "other")->harness->name == "py");
  auto only_gpu = *harnesses;
  only_gpu.pop_back();
  CHECK_FALSE(harness_for(only_gpu, "src/other.cu", "other").has_value());
}

TEST_CASE("harness config: mistakes are named with file, line and key") {
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"bench\"\nformat = \"gbench\"\n[[harness.map]]\nkernels = "
                      "[\"*\"]\nbenchmarks = \"x\"\n"),
             Contains(".kforecast.toml:3:7: [[harness]] key 'run' must hold {filter}"));
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"csv\"\n[[harness.map]]\nkernels = "
                      "[\"*\"]\nbenchmarks = \"x\"\n"),
             Contains(".kforecast.toml:4:10: [[harness]] key 'format' is \"csv\""));
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"simple\"\nrounds = 1\n"
                      "[[harness.map]]\nkernels = [\"*\"]\nbenchmarks = \"x\"\n"),
             Contains(":5:10: [[harness]] key 'rounds' must be an integer from 2 to 64"));
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"simple\"\nfilter = \"x\"\n"
                      "[[harness.map]]\nkernels = [\"*\"]\nbenchmarks = \"x\"\n"),
             Contains(":5:1: unknown key 'filter' in [[harness]]"));
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"simple\"\n"),
             Contains(":1:1: a [[harness]] table needs at least one [[harness.map]]"));
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"simple\"\n[[harness.map]]\n"
                      "kernels = []\nbenchmarks = \"x\"\n"),
             Contains(":6:11: [[harness.map]] key 'kernels' must be a non-empty list of globs"));
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"simple\"\n[[harness.map]]\n"
                      "kernels = [\"*\"]\n"),
             Contains(":5:1: a [[harness.map]] table needs 'benchmarks'"));
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"simple\"\ntime = \"cpu\"\n"
                      "[[harness.map]]\nkernels = [\"*\"]\nbenchmarks = \"x\"\n"),
             Contains("time = \"cpu\" needs a format that reports CPU time (gbench or nvbench), not simple"));
  CHECK_THAT(error_of("[harness]\nname = \"a\"\n"), Contains("'harness' must be an array of tables: write [[harness]]"));
  CHECK_THAT(error_of("[[harness]]\nformat = \"gbench\"\n"), Contains("a [[harness]] table needs a non-empty 'name'"));
  // Every problem on its own line, not just the first.
  const std::string several = error_of("[[harness]]\nname = 1\nrun = 2\nformat = \"x\"\n");
  CHECK(std::count(several.begin(), several.end(), '\n') >= 3);
}

TEST_CASE("harness config: a harness with 'list' and no map learns its map, and an empty list is a mistake") {
  auto read = read_harnesses("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"gbench\"\n"
                             "list = \"b --benchmark_list_tests\"\n",
                             ".kforecast.toml");
  REQUIRE(read.has_value());
  REQUIRE(read->size() == 1);
  CHECK(read->front().list == "b --benchmark_list_tests");
  CHECK(read->front().maps.empty());
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"simple\"\nlist = \"\"\n"),
             Contains(":5:8: [[harness]] key 'list' must be a non-empty command"));
  CHECK_THAT(error_of("[[harness]]\nname = \"a\"\nrun = \"b {filter}\"\nformat = \"simple\"\n"),
             Contains("or 'list' (a command printing its benchmarks' names"));
}

TEST_CASE("harness config: the filter that selects exactly some benchmarks, per format") {
  const std::vector<std::string> two{"BM_Copy/1024", "BM_Scale<float>"};
  CHECK(filter_selecting(OutputFormat::gbench, two) == "^(BM_Copy/1024|BM_Scale<float>)$");
  CHECK(filter_selecting(OutputFormat::gbench, {"a.b(c)*"}) == "^(a\\.b\\(c\\)\\*)$");
  CHECK(filter_selecting(OutputFormat::pytest_benchmark, {"test_a", "test_b"}) == "test_a or test_b");
  CHECK(filter_selecting(OutputFormat::nvbench, two) == "BM_Copy/1024");
  CHECK(filter_selecting(OutputFormat::simple, two) == "BM_Copy/1024");
  CHECK(filter_selecting(OutputFormat::gbench, {}).empty());
}

TEST_CASE("harness config: {filter} and {out} are expanded wherever they appear") {
  CHECK(expand_command("b --f='{filter}' --o={out} {filter}", "BM_A|BM_B", "/tmp/o.json") ==
        "b --f='BM_A|BM_B' --o=/tmp/o.json BM_A|BM_B");
  CHECK(expand_command("{filte} {out", "x", "y") == "{filte} {out");
}
