// SPDX-License-Identifier: Apache-2.0
#include "cuda/library_search.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::cuda;

namespace {

std::ptrdiff_t position(const std::vector<std::string>& list, const std::string& item) {
  auto found = std::find(list.begin(), list.end(), item);
  return found == list.end() ? -1 : found - list.begin();
}

bool mentions_stubs(const std::vector<std::string>& list) {
  return std::any_of(list.begin(), list.end(),
                     [](const auto& path) { return path.find("stubs") != std::string::npos; });
}

}  // namespace

TEST_CASE("cuda: nvrtc_candidates") {
  SECTION("without CUDA_HOME: /usr/local/cuda, then the loader's search, newest first") {
    const auto candidates = nvrtc_candidates({}, fixed_environment({}));
    REQUIRE(candidates.size() == 12);
    CHECK(candidates.front() == "/usr/local/cuda/lib64/libnvrtc.so.13");
    CHECK(candidates[1] == "/usr/local/cuda/lib64/libnvrtc.so.12");
    CHECK(candidates[2] == "/usr/local/cuda/lib64/libnvrtc.so.11.2");
    CHECK(candidates[5] == "/usr/local/cuda/lib64/libnvrtc.so");
    CHECK(candidates[6] == "libnvrtc.so.13");
    CHECK(candidates.back() == "libnvrtc.so");
  }
  SECTION("CUDA_HOME, then CUDA_PATH, then /usr/local/cuda, then the loader's path") {
    const auto candidates =
        nvrtc_candidates({}, fixed_environment({{"CUDA_HOME", "/opt/cuda-12.4/"}, {"CUDA_PATH", "/opt/cuda-x"}}));
    CHECK(position(candidates, "/opt/cuda-12.4/lib64/libnvrtc.so.13") == 0);
    CHECK(position(candidates, "/opt/cuda-x/lib64/libnvrtc.so.13") == 6);
    CHECK(position(candidates, "/usr/local/cuda/lib64/libnvrtc.so.13") == 12);
    CHECK(position(candidates, "libnvrtc.so.13") == 18);
    CHECK(candidates.size() == 24);
  }
  SECTION("an explicit library is the only candidate: a wrong path is reported, never searched around") {
    const auto candidates = nvrtc_candidates({.nvrtc_library = "/opt/nvrtc/libnvrtc.so.12"},
                                             fixed_environment({{"CUDA_HOME", "/opt/cuda-12.4/"}}));
    CHECK(candidates == std::vector<std::string>{"/opt/nvrtc/libnvrtc.so.12"});
  }
  SECTION("CUDA_HOME=/usr/local/cuda is not searched twice") {
    const auto candidates =
        nvrtc_candidates({}, fixed_environment({{"CUDA_HOME", "/usr/local/cuda"}, {"CUDA_PATH", ""}}));
    CHECK(candidates.size() == 12);
    CHECK(std::count(candidates.begin(), candidates.end(), "/usr/local/cuda/lib64/libnvrtc.so.13") == 1);
  }
  SECTION("never the toolkit's stubs directory") {
    CHECK_FALSE(mentions_stubs(nvrtc_candidates({}, fixed_environment({{"CUDA_HOME", "/usr/local/cuda"}}))));
  }
  SECTION("no environment at all still searches the default places") {
    CHECK(nvrtc_candidates({}, EnvLookup{}).size() == 12);
  }
}

TEST_CASE("cuda: driver_candidates") {
  SECTION("sonames only, so the loader finds the installed driver and never a stub") {
    const auto candidates = driver_candidates({});
    CHECK(candidates == std::vector<std::string>{"libcuda.so.1", "libcuda.so"});
    CHECK_FALSE(mentions_stubs(candidates));
  }
  SECTION("an explicit library is the only candidate") {
    const auto candidates = driver_candidates({.driver_library = "/opt/driver/libcuda.so.1"});
    CHECK(candidates == std::vector<std::string>{"/opt/driver/libcuda.so.1"});
  }
}

TEST_CASE("cuda: nvrtc_candidates in a CUDA_HOME with lib but no lib64, as NVIDIA's wheels lay it out") {
  testing::TempDir temp;
  std::filesystem::create_directories(temp.path() / "wheel/lib");
  std::filesystem::create_directories(temp.path() / "installer/lib");
  std::filesystem::create_directories(temp.path() / "installer/lib64");
  const auto candidates =
      nvrtc_candidates({}, fixed_environment({{"CUDA_HOME", (temp.path() / "wheel").string()},
                                              {"CUDA_PATH", (temp.path() / "installer").string()}}));
  CHECK(candidates.front() == (temp.path() / "wheel/lib/libnvrtc.so.13").string());
  CHECK(position(candidates, (temp.path() / "installer/lib64/libnvrtc.so.13").string()) == 6);
  CHECK(position(candidates, (temp.path() / "installer/lib/libnvrtc.so.13").string()) == -1);
}

TEST_CASE("cuda: private toolkits of scripts/setup.sh") {
  testing::TempDir temp;
  const auto cache = temp.path() / "kforecast";
  for (const char* version : {"13.0.9", "13.0.88", "13.0.10"})
    std::filesystem::create_directories(cache / (std::string("cuda-") + version) / "toolkit/lib");
  std::filesystem::create_directories(cache / "ptx");
  std::filesystem::create_directories(cache / "cuda-13.1.0");  // an interrupted install: no toolkit
  const auto env = fixed_environment({{"XDG_CACHE_HOME", temp.path().string()}});

  SECTION("under XDG_CACHE_HOME, else HOME's .cache, else nowhere") {
    CHECK(private_toolkit_parent(env) == (temp.path() / "kforecast").string());
    CHECK(private_toolkit_parent(fixed_environment({{"HOME", "/home/ci"}})) == "/home/ci/.cache/kforecast");
    CHECK(private_toolkit_parent(fixed_environment({})).empty());
    CHECK(private_toolkit_parent(EnvLookup{}).empty());
  }
  SECTION("newest version first, by number") {
    CHECK(private_toolkit_roots(env) == std::vector<std::string>{(cache / "cuda-13.0.88/toolkit").string(),
                                                                 (cache / "cuda-13.0.10/toolkit").string(),
                                                                 (cache / "cuda-13.0.9/toolkit").string()});
  }
  SECTION("NVRTC is searched there after /usr/local/cuda and before the loader's own search") {
    const auto candidates = nvrtc_candidates({}, env);
    CHECK(candidates.size() == 30);
    CHECK(position(candidates, "/usr/local/cuda/lib64/libnvrtc.so.13") == 0);
    CHECK(position(candidates, (cache / "cuda-13.0.88/toolkit/lib/libnvrtc.so.13").string()) == 6);
    CHECK(position(candidates, (cache / "cuda-13.0.9/toolkit/lib/libnvrtc.so.13").string()) == 18);
    CHECK(position(candidates, "libnvrtc.so.13") == 24);
  }
}

TEST_CASE("cuda: nvrtc_builtins_beside") {
  testing::TempDir temp;
  std::ofstream(temp.path() / "libnvrtc-builtins.so.13.0") << "";
  const std::string nvrtc = (temp.path() / "libnvrtc.so.13").string();
  CHECK(nvrtc_builtins_beside(nvrtc, 13, 0) == (temp.path() / "libnvrtc-builtins.so.13.0").string());
  CHECK(nvrtc_builtins_beside(nvrtc, 13, 1).empty());
  CHECK(nvrtc_builtins_beside("libnvrtc.so.13", 13, 0).empty());
}
