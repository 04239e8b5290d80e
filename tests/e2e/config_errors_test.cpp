// SPDX-License-Identifier: Apache-2.0
// Bad configuration through the real binary: exit 2, file:line:key, a suggestion.

#include <catch2/catch.hpp>

#include "e2e.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("e2e: an unknown key names file:line and the nearest key") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "# kforecast\n\n[cuda]\nnvrtc_libary = \"/opt/libnvrtc.so\"\n");
  for (const char* command : {"doctor", "config"}) {
    INFO(command);
    auto run = run_kforecast({command}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, StartsWith("kforecast: error: " + (repo.path() / ".kforecast.toml").string() + ":4:1: "));
    CHECK_THAT(run.err, Contains("unknown key 'cuda.nvrtc_libary' (did you mean 'cuda.nvrtc_library'?)"));
  }
}

TEST_CASE("e2e: invalid TOML, a wrong type, a key not built yet") {
  FixtureRepo repo;
  SECTION("invalid TOML") {
    repo.write(".kforecast.toml", "[cuda\n");
    auto run = run_kforecast({"doctor"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.out, Contains("config    INVALID"));
    CHECK_THAT(run.err, Contains(".kforecast.toml:1:"));
    CHECK_THAT(run.err, Contains("invalid TOML"));
  }
  SECTION("wrong type") {
    repo.write(".kforecast.toml", "[cuda]\ndriver_library = true\n");
    auto run = run_kforecast({"config"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains(":2:1: key 'cuda.driver_library' must be a string, got a boolean"));
  }
  SECTION("a report format the writers do not have is rejected") {
    repo.write(".kforecast.toml", "[report]\nformat = \"html\"\n");
    auto run = run_kforecast({"config"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains(":2:1:"));
    CHECK_THAT(run.err, Contains("report.format"));
  }
  SECTION("an explicit --config that does not exist") {
    auto run = run_kforecast({"config", "--config", "missing.toml"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains("config file 'missing.toml' not found"));
  }
}

TEST_CASE("e2e: config shows values with their origin") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[cuda]\ndriver_library = \"/opt/libcuda.so.1\"\n");
  auto run = run_kforecast({"config"}, repo.path(), {"KFORECAST_NVRTC_LIBRARY=/opt/libnvrtc.so.13"});
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("driver_library = \"/opt/libcuda.so.1\"  # from "));
  CHECK_THAT(run.out, Contains(".kforecast.toml:2"));
  CHECK_THAT(run.out, Contains("nvrtc_library = \"/opt/libnvrtc.so.13\"  # from $KFORECAST_NVRTC_LIBRARY"));
}

TEST_CASE("e2e: kforecast config checks [[harness]] tables, naming file:line:column and the key") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[[harness]]\nname = \"cpu\"\nrun = \"build/bench\"\nformat = \"gbench\"\n"
                                "[[harness.map]]\nkernels = [\"*\"]\nbenchmarks = \"BM_.*\"\n");
  auto run = run_kforecast({"config"}, repo.path());
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Contains(".kforecast.toml:3:7: [[harness]] key 'run' must hold {filter}"));
  repo.write(".kforecast.toml", "[[harness]]\nname = \"cpu\"\nrun = \"build/bench '{filter}'\"\nformat = \"gbench\"\n"
                                "[[harness.map]]\nkernels = [\"*\"]\nbenchmarks = \"BM_.*\"\n");
  CHECK(run_kforecast({"config"}, repo.path()).status == 0);
}

TEST_CASE("e2e: capture.command's keys are checked with file:line") {
  FixtureRepo repo;
  SECTION("a command that is not a string") {
    repo.write(".kforecast.toml", "[capture]\ncommand = [\"make\", \"capture\"]\n");
    auto run = run_kforecast({"config"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains(".kforecast.toml:2:1: key 'capture.command' must be a string, got an array"));
  }
  SECTION("a timeout out of range") {
    repo.write(".kforecast.toml", "[capture]\ncommand = \"build/kernel_test\"\ntimeout_seconds = 0\n");
    auto run = run_kforecast({"config"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains(".kforecast.toml:3:1:") && Contains("capture.timeout_seconds"));
  }
  SECTION("a misspelt key") {
    repo.write(".kforecast.toml", "[capture]\ncomand = \"build/kernel_test\"\n");
    auto run = run_kforecast({"config"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains(":2:1: unknown key 'capture.comand' (did you mean 'capture.command'?)"));
  }
}
