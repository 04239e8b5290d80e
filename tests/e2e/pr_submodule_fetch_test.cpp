// SPDX-License-Identifier: Apache-2.0
// `kforecast pr` with compile.submodules = "fetch": a submodule the checkout left empty (as
// actions/checkout does by default) is fetched at the commit each revision pins, from the URL the
// base revision's .gitmodules gives, and the report says so. The https URL reaches a local
// library through git's url.<base>.insteadOf in a global git config of the test's; the rest is
// real git and the real binary.

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

namespace {

struct SubmoduleProject {
  FixtureRepo library, project;
  kforecast::testing::TempDir home;
  std::string first, second;

  // The base pins library v1 and asks for fetching in its config (`base_config`); the head pins
  // v2, changes the kernel, and writes `head_config`.
  SubmoduleProject(const std::string& base_config, const std::string& head_config) {
    library.write("include/lib/util.h", "#pragma once\n__device__ inline float lib_scale(float x) { return x * 2.0f; }\n");
    first = library.commit("v1");
    library.write("include/lib/util.h", "#pragma once\n__device__ inline float lib_scale(float x) { return x * 4.0f; }\n");
    second = library.commit("v2");
    library.git({"config", "uploadpack.allowReachableSHA1InWant", "true"});
    pin(first, "__global__ void k(float* a) { a[threadIdx.x] = lib_scale(1.0f); }\n", base_config);
    pin(second, "__global__ void k(float* a) { a[threadIdx.x] = lib_scale(3.0f); }\n", head_config);
    std::ofstream(home.path() / "gitconfig") << fmt::format(
        "[url \"{}\"]\n\tinsteadOf = https://kforecast.invalid/lib.git\n[protocol \"file\"]\n\tallow = always\n",
        library.path().string());
  }

  void pin(const std::string& commit, const std::string& kernel, const std::string& config) {
    project.write(".gitmodules", "[submodule \"lib\"]\n\tpath = third_party/lib\n\turl = https://kforecast.invalid/lib.git\n");
    project.write("src/k.cu", "#include <lib/util.h>\n" + kernel);
    project.write(".kforecast.toml", config);
    project.git({"add", "-A"});
    project.git({"update-index", "--add", "--cacheinfo", "160000," + commit + ",third_party/lib"});
    project.git({"commit", "-q", "-m", "pin " + commit.substr(0, 7)});
  }

  Run run(std::vector<std::string> extra_env = {}) const {
    std::vector<std::string> env{"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so", "KFORECAST_NVCC=off",
                                 "GIT_CONFIG_GLOBAL=" + (home.path() / "gitconfig").string(),
                                 "XDG_CACHE_HOME=" + (home.path() / "cache").string()};
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    return run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--no-bench"}, project.path(), env);
  }
};

const std::string fetch_config = "[compile]\nsubmodules = \"fetch\"\n";

}  // namespace

TEST_CASE("e2e: pr fetches a submodule the checkout lacks at each revision's pin, when the base's config asks") {
  const SubmoduleProject p(fetch_config, fetch_config);
  const Run run = p.run();
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains(fmt::format("submodule third_party/lib fetched for the base from "
                                           "https://kforecast.invalid/lib.git at {}", p.first.substr(0, 12))));
  CHECK_THAT(run.out, Contains(fmt::format("submodule third_party/lib fetched for the head from "
                                           "https://kforecast.invalid/lib.git at {}", p.second.substr(0, 12))));
  CHECK_THAT(run.out, !Contains("not checked out"));
  CHECK(std::filesystem::exists(p.home.path() / "cache/kforecast/submodules"));
  // The library's header was read at each pin: its device function changed between them.
  CHECK_THAT(run.out, Contains("device function lib_scale changed"));
}

TEST_CASE("e2e: without the base's say-so, a pull request cannot make pr fetch, and the note gives the fix") {
  const SubmoduleProject p("", fetch_config);  // only the head asks
  const Run run = p.run();
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("submodule not checked out: third_party/lib (https://kforecast.invalid/lib.git)"));
  CHECK_THAT(run.out, Contains("compile.submodules = \\\"fetch\\\""));
  CHECK_THAT(run.out, !Contains("fetched for the"));
  CHECK_FALSE(std::filesystem::exists(p.home.path() / "cache/kforecast/submodules"));
  // The workflow's own environment may ask for it.
  const Run asked = p.run({"KFORECAST_SUBMODULES=fetch"});
  CHECK_THAT(asked.out, Contains("fetched for the head"));
}
