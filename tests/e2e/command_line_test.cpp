// SPDX-License-Identifier: Apache-2.0
// Whether doctor reports NVRTC installed or not is in doctor_nvrtc_test.cpp and doctor_no_nvrtc_test.cpp,
// each skipped where its requirement is not met.
#include <catch2/catch.hpp>

#include "e2e.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("e2e: --version, --help and help CMD") {
  auto version = run_kforecast({"--version"});
  CHECK(version.status == 0);
  CHECK_THAT(version.out, StartsWith("kforecast 0."));
  auto help = run_kforecast({"--help"});
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Contains("usage: kforecast COMMAND"));
  CHECK_THAT(help.out, Contains("doctor"));
  auto help_pr = run_kforecast({"help", "pr"});
  CHECK(help_pr.status == 0);
  CHECK_THAT(help_pr.out, Contains("--base REV"));
}

TEST_CASE("e2e: an unknown command suggests the nearest one and exits 2") {
  auto typo = run_kforecast({"bnech"});
  CHECK(typo.status == 2);
  CHECK(typo.out.empty());
  CHECK_THAT(typo.err, StartsWith("kforecast: error: unknown command 'bnech' (did you mean 'bench'?)"));
  auto nothing = run_kforecast({});
  CHECK(nothing.status == 2);
  CHECK_THAT(nothing.err, Contains("usage: kforecast COMMAND"));
}

TEST_CASE("e2e: check on a file that does not exist exits 2, never 0") {
  auto check = run_kforecast({"check", "kernel.cu"});
  CHECK(check.status == 2);
  CHECK_THAT(check.err, StartsWith("kforecast: error: kernel.cu: no such file"));
}

TEST_CASE("e2e: doctor on a repository without a config") {
  FixtureRepo repo;
  auto doctor = run_kforecast({"doctor"}, repo.path());
  CHECK(doctor.status == 0);
  CHECK_THAT(doctor.out, Contains("no .kforecast.toml: defaults apply"));
  CHECK_THAT(doctor.out, Contains("git version"));
  // What confines the compiler of code under review, whether or not the OS can: each layer.
  for (const char* line : {"\n  sandbox   ", "\n  landlock  ", "\n  seccomp   ", "\n  netns     ", "\n  privs     ",
                           "\n  limits    "})
    CHECK_THAT(doctor.out, Contains(line));
  CHECK(doctor.err.empty());
}

TEST_CASE("e2e: doctor finds the repository's config from a subdirectory") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[cuda]\ndriver_library = \"libcuda.so.1\"\n");
  repo.write("src/kernels/.keep", "");
  auto doctor = run_kforecast({"doctor"}, repo.path() / "src/kernels");
  CHECK(doctor.status == 0);
  CHECK_THAT(doctor.out, Contains("config    ok: " + (repo.path() / ".kforecast.toml").string()));
}

TEST_CASE("e2e: an explicit NVRTC path is used as given, never searched around") {
  FixtureRepo repo;
  auto doctor = run_kforecast({"doctor"}, repo.path(), {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so.13"});
  CHECK(doctor.status == 0);
  CHECK_THAT(doctor.out, Contains("  nvrtc     not available: NVRTC not found (tried /nonexistent/libnvrtc.so.13)"));
}
