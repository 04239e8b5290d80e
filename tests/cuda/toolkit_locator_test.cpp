// SPDX-License-Identifier: Apache-2.0
#include "cuda/toolkit_locator.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "support/fake_toolkit.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::cuda;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
namespace fs = std::filesystem;

namespace {

using testing::fake_toolkit;
using testing::write_test_file;

// A private toolkit as scripts/setup.sh leaves it: cache/kforecast/cuda-VERSION/toolkit.
fs::path fake_private_toolkit(const fs::path& cache, const std::string& version) {
  return fake_toolkit(cache / "kforecast" / ("cuda-" + version) / "toolkit", version);
}

std::vector<std::string> places(const Unavailable& missing) {
  std::vector<std::string> list;
  for (const auto& attempt : missing.tried) list.push_back(attempt.path);
  return list;
}

}  // namespace

TEST_CASE("cuda: locate_toolkit takes the first place that has a working nvcc") {
  testing::TempDir temp;
  const fs::path& dir = temp.path();
  const auto home = fake_toolkit(dir / "home-toolkit", "13.0.1");
  const auto cuda_path = fake_toolkit(dir / "path-toolkit", "13.0.2");
  const auto on_path = fake_toolkit(dir / "on-path", "13.0.3", testing::Cccl::absent);
  const auto system = fake_toolkit(dir / "system", "13.0.4");
  fake_private_toolkit(dir / "cache", "13.0.5");
  const ToolkitPlaces fixed{.system_root = system.string()};
  std::map<std::string, std::string, std::less<>> variables{{"CUDA_HOME", home.string()},
                                                            {"CUDA_PATH", cuda_path.string()},
                                                            {"PATH", "/nonexistent:" + (on_path / "bin").string()},
                                                            {"XDG_CACHE_HOME", (dir / "cache").string()}};
  const auto found_with = [&](std::string_view configured = {}) {
    auto toolkit = locate_toolkit(configured, fixed_environment(variables), fixed);
    REQUIRE(toolkit);
    return *toolkit;
  };

  SECTION("CUDA_HOME first, with its include folders and the version nvcc reports") {
    const auto toolkit = found_with();
    CHECK(toolkit.version == "13.0.1");
    CHECK(toolkit.nvcc == (home / "bin/nvcc").string());
    CHECK(toolkit.root == home.string());
    CHECK(toolkit.origin == "CUDA_HOME=" + home.string());
    CHECK(toolkit.include_dirs ==
          std::vector<std::string>{(home / "include").string(), (home / "include/cccl").string()});
  }
  SECTION("cuda.nvcc before everything, as a path to nvcc or to the toolkit folder") {
    const auto by_file = found_with((system / "bin/nvcc").string());
    CHECK(by_file.version == "13.0.4");
    CHECK(by_file.origin == "cuda.nvcc = " + (system / "bin/nvcc").string());
    CHECK(by_file.root == system.string());
    CHECK(found_with(on_path.string()).version == "13.0.3");
  }
  SECTION("CUDA_PATH where CUDA_HOME has no nvcc, and the failed place is kept") {
    variables["CUDA_HOME"] = (dir / "empty").string();
    CHECK(found_with().origin == "CUDA_PATH=" + cuda_path.string());
  }
  SECTION("the first nvcc on PATH next, its toolkit two folders up") {
    variables.erase("CUDA_HOME");
    variables.erase("CUDA_PATH");
    const auto toolkit = found_with();
    CHECK(toolkit.version == "13.0.3");
    CHECK(toolkit.origin == "nvcc on PATH");
    CHECK(toolkit.root == on_path.string());
    CHECK(toolkit.include_dirs == std::vector<std::string>{(on_path / "include").string()});
  }
  SECTION("then the system toolkit, then the private one") {
    variables.erase("CUDA_HOME");
    variables.erase("CUDA_PATH");
    variables["PATH"] = (dir / "empty").string();
    CHECK(found_with().version == "13.0.4");
    fs::remove_all(system);
    const auto toolkit = found_with();
    CHECK(toolkit.version == "13.0.5");
    CHECK(toolkit.origin ==
          "private toolkit " + (dir / "cache/kforecast/cuda-13.0.5").string() + " (scripts/setup.sh)");
  }
}

TEST_CASE("cuda: locate_toolkit takes the newest private toolkit, under XDG_CACHE_HOME or HOME") {
  testing::TempDir temp;
  const fs::path& dir = temp.path();
  const ToolkitPlaces none{.system_root = (dir / "no-system").string()};
  // 13.0.10 is newer than 13.0.9: versions compare as numbers, not as text.
  fake_private_toolkit(dir / "home/.cache", "13.0.9");
  fake_private_toolkit(dir / "home/.cache", "13.0.10");
  fake_private_toolkit(dir / "xdg", "13.0.48");

  auto from_home = locate_toolkit("", fixed_environment({{"HOME", (dir / "home").string()}}), none);
  REQUIRE(from_home);
  CHECK(from_home->version == "13.0.10");
  CHECK(from_home->nvcc == (dir / "home/.cache/kforecast/cuda-13.0.10/toolkit/bin/nvcc").string());

  auto from_xdg = locate_toolkit(
      "", fixed_environment({{"HOME", (dir / "home").string()}, {"XDG_CACHE_HOME", (dir / "xdg").string()}}), none);
  REQUIRE(from_xdg);
  CHECK(from_xdg->version == "13.0.48");
}

TEST_CASE("cuda: locate_toolkit names every place it tried when none has nvcc") {
  testing::TempDir temp;
  const fs::path& dir = temp.path();
  fs::create_directories(dir / "bin");
  write_test_file(dir / "not-executable/nvcc", "");
  const std::string path = (dir / "not-executable").string() + ":" + (dir / "bin").string();
  const ToolkitPlaces none{.system_root = (dir / "no-system").string()};
  const auto toolkit = locate_toolkit(
      "", fixed_environment({{"CUDA_PATH", (dir / "cuda-path").string()}, {"PATH", path}, {"HOME", dir.string()}}),
      none);
  REQUIRE_FALSE(toolkit);
  CHECK(places(toolkit.error()) ==
        std::vector<std::string>{"cuda.nvcc", "CUDA_HOME", "CUDA_PATH=" + (dir / "cuda-path").string(), "nvcc on PATH",
                                 (dir / "no-system").string(),
                                 "private toolkit " + (dir / ".cache/kforecast").string() + "/cuda-*"});
  CHECK(toolkit.error().tried[1].error == "not set");
  CHECK(toolkit.error().tried[2].error == "no " + (dir / "cuda-path/bin/nvcc").string());
  CHECK(toolkit.error().tried[3].error == "none in " + path);
  CHECK_THAT(toolkit.error().tried[5].error, Contains("scripts/setup.sh"));
  CHECK_THAT(toolkit.error().message(), StartsWith("no CUDA toolkit with nvcc found"));
  CHECK_THAT(toolkit.error().message(), Contains("run scripts/setup.sh"));

  const auto lines = describe_toolkit(toolkit);
  REQUIRE(lines.size() == 7);
  CHECK(lines[0].label == "nvcc");
  CHECK_THAT(lines[0].text, StartsWith("not available: no CUDA toolkit with nvcc found"));
  CHECK(lines[4] == StatusLine{"", "nvcc on PATH: none in " + path});

  SECTION("without HOME the private place says why it was not searched") {
    const auto bare = locate_toolkit("", fixed_environment({}), none);
    REQUIRE_FALSE(bare);
    CHECK(bare.error().tried.back().path == "private toolkit");
    CHECK(bare.error().tried[3].error == "PATH not set");
  }
}

TEST_CASE("cuda: a configured nvcc that does not work is the answer, not a search") {
  testing::TempDir temp;
  const auto home = fake_toolkit(temp.path() / "home", "13.0.1");
  const std::string broken = (temp.path() / "missing/bin/nvcc").string();
  const auto toolkit =
      locate_toolkit(broken, fixed_environment({{"CUDA_HOME", home.string()}}), {.system_root = home.string()});
  REQUIRE_FALSE(toolkit);
  REQUIRE(toolkit.error().tried.size() == 1);
  CHECK(toolkit.error().tried[0].path == "cuda.nvcc = " + broken);
  CHECK_THAT(toolkit.error().message(), Contains("cuda.nvcc"));

  const auto failing = fake_toolkit(temp.path() / "failing", "");
  const auto silent = locate_toolkit((failing / "bin/nvcc").string(), fixed_environment({}), {});
  REQUIRE_FALSE(silent);
  CHECK_THAT(silent.error().tried[0].error, Contains("'nvcc --version' exited with 3"));
}

TEST_CASE("cuda: the toolkit's version comes from its files before nvcc is run") {
  testing::TempDir temp;
  const ToolkitPlaces none{.system_root = (temp.path() / "no-system").string()};
  SECTION("version.json of a CUDA installer") {
    // nvcc itself fails: a version found means it was never run.
    const auto root = fake_toolkit(temp.path() / "cuda", "");
    write_test_file(root / "version.json", R"({"cuda" : {"name" : "CUDA SDK", "version" : "13.0.2"},)"
                                           R"( "cuda_nvcc" : {"name" : "CUDA NVCC", "version" : "13.0.88"}})");
    const auto toolkit = locate_toolkit("", fixed_environment({{"CUDA_HOME", root.string()}}), none);
    REQUIRE(toolkit);
    CHECK(toolkit->version == "13.0.88");
  }
  SECTION("the wheel's dist-info two folders above nvidia/cu13, through the private toolkit's link") {
    const auto site = temp.path() / "cache/kforecast/cuda-13.0.88/venv/lib/python3.11/site-packages";
    fake_toolkit(site / "nvidia/cu13", "");
    fs::create_directories(site / "nvidia_cuda_nvcc-13.0.88.dist-info");
    fs::create_directory_symlink(site / "nvidia/cu13", temp.path() / "cache/kforecast/cuda-13.0.88/toolkit");
    const auto toolkit =
        locate_toolkit("", fixed_environment({{"XDG_CACHE_HOME", (temp.path() / "cache").string()}}), none);
    REQUIRE(toolkit);
    CHECK(toolkit->version == "13.0.88");
    CHECK(toolkit->root == (temp.path() / "cache/kforecast/cuda-13.0.88/toolkit").string());
  }
  SECTION("a dist-info folder in a toolkit assembled from the wheels") {
    const auto root = fake_toolkit(temp.path() / "assembled", "");
    fs::create_directories(root / "dist-info/nvidia_cuda_nvcc-13.0.48.dist-info");
    const auto toolkit = locate_toolkit("", fixed_environment({{"CUDA_PATH", root.string()}}), none);
    REQUIRE(toolkit);
    CHECK(toolkit->version == "13.0.48");
  }
}

TEST_CASE("cuda: nvcc versions read from its output and from version.json") {
  CHECK(nvcc_version_from_output("nvcc: NVIDIA (R) Cuda compiler driver\n"
                                 "Cuda compilation tools, release 13.0, V13.0.88\n"
                                 "Build cuda_13.0.r13.0/compiler.36424714_0\n") == "13.0.88");
  CHECK(nvcc_version_from_output("Cuda compilation tools, release 12.4, V12.4.131") == "12.4.131");
  CHECK(nvcc_version_from_output("gcc (Debian 12.2.0-14) 12.2.0").empty());
  CHECK(nvcc_version_from_output(", V").empty());
  CHECK(nvcc_version_from_version_json(R"({"cuda_nvcc":{"name":"CUDA NVCC","version":"12.4.131"}})") == "12.4.131");
  CHECK(nvcc_version_from_version_json(R"({"cuda" : {"version" : "12.4.1"}})").empty());
  CHECK(nvcc_version_from_version_json(R"({"cuda_nvcc" : {"name" : "x"}, "cuda" : {"version" : "1"}})").empty());
  CHECK(nvcc_version_from_version_json(R"({"cuda_nvcc" : {"version" : "13.0.88)").empty());
}
