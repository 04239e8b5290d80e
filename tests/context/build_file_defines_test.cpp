// SPDX-License-Identifier: Apache-2.0
// settle_defines and read_build_file_defines: the defines an inferred context takes.
#include "context/build_file_defines.hpp"

#include <filesystem>
#include <fstream>
#include <map>

#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace kforecast::context;
using Strings = std::vector<std::string>;
using Defines = std::vector<std::pair<std::string, std::string>>;

namespace {

BuildFileReader files_reader(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& path) -> std::optional<std::string> {
    auto found = files.find(path);
    return found == files.end() ? std::nullopt : std::optional(found->second);
  };
}

}  // namespace

TEST_CASE("build file defines: an architecture value takes the target's, an unknown one is left out") {
  const std::vector<FoundDefine> found{{"TCNN_MIN_GPU_ARCH=" + arch_reference("MIN_GPU_ARCH"), "CMakeLists.txt:9"},
                                       {"MIN_ARCH=" + unknown_reference("cc"), "setup.py:4"},
                                       {"LEVEL=" + unknown_reference("LEVEL"), "CMakeLists.txt:10"},
                                       {"PLAIN", "CMakeLists.txt:11"}};
  const auto settled = settle_defines(found, 90);
  CHECK(settled.defines == Defines{{"TCNN_MIN_GPU_ARCH", "90"}, {"MIN_ARCH", "90"}, {"PLAIN", ""}});
  CHECK(settled.sources == Strings{"CMakeLists.txt", "setup.py"});
  CHECK(settled.left_out == Strings{"LEVEL (its value LEVEL is not known; CMakeLists.txt:10)"});
  REQUIRE(settled.notes.size() == 2);
  CHECK(settled.notes[0].starts_with("TCNN_MIN_GPU_ARCH=90: MIN_GPU_ARCH is computed from the GPU"));
  CHECK(
      settled.summary() ==
      "defines from CMakeLists.txt and setup.py: TCNN_MIN_GPU_ARCH=90, MIN_ARCH=90, PLAIN; left out: LEVEL (its value "
      "LEVEL is not known; CMakeLists.txt:10)");

  const auto without_arch = settle_defines(found, std::nullopt);
  CHECK(without_arch.defines == Defines{{"PLAIN", ""}});
  CHECK(without_arch.left_out.size() == 3);
}

TEST_CASE("build file defines: the first of two values wins, with a note") {
  const std::vector<FoundDefine> found{{"TCNN_HALF_PRECISION=1", "CMakeLists.txt:40"},
                                       {"TCNN_HALF_PRECISION=0", "CMakeLists.txt:43"},
                                       {"TCNN_HALF_PRECISION=1", "CMakeLists.txt:50"}};
  const auto settled = settle_defines(found, 90);
  CHECK(settled.defines == Defines{{"TCNN_HALF_PRECISION", "1"}});
  CHECK(settled.notes == Strings{"TCNN_HALF_PRECISION also given as TCNN_HALF_PRECISION=0 (CMakeLists.txt:43); the "
                                 "first, TCNN_HALF_PRECISION=1, kept"});
}

TEST_CASE("build file defines: a define that is not NAME or NAME=VALUE is left out by the allow-list") {
  const std::vector<FoundDefine> found{{"1BAD=2", "CMakeLists.txt:3"}, {"GOOD(x)=x", "CMakeLists.txt:4"}, {"", "x:1"}};
  const auto settled = settle_defines(found, std::nullopt);
  CHECK(settled.defines == Defines{{"GOOD(x)", "x"}});
  REQUIRE(settled.left_out.size() == 2);
  CHECK(settled.left_out[0] == "-D1BAD=2 (not NAME or NAME=VALUE) (CMakeLists.txt:3)");
}

TEST_CASE("build file defines: CMakeLists.txt, then the root's setup.py") {
  const auto read =
      read_build_file_defines(files_reader({{"CMakeLists.txt", "add_definitions(-DFROM_CMAKE -DSHARED=1)\n"},
                                            {"setup.py", "flags = ['-DFROM_SETUP', '-DSHARED=2']\n"}}),
                              std::nullopt);
  CHECK(read.defines == Defines{{"FROM_CMAKE", ""}, {"SHARED", "1"}, {"FROM_SETUP", ""}});
  CHECK(read.summary() == "defines from CMakeLists.txt and setup.py: FROM_CMAKE, SHARED=1, FROM_SETUP");
  CHECK(read_build_file_defines(files_reader({}), 90).summary().empty());
}

TEST_CASE("build file defines: the repository reader reads files of the checkout only") {
  const auto root = std::filesystem::temp_directory_path() / "kf_build_file_defines_test";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "src");
  std::ofstream(root / "CMakeLists.txt") << "add_definitions(-DA)\n";
  std::ofstream(root / "big.txt") << std::string(100, 'x');
  std::ofstream(root.parent_path() / "kf_outside.txt") << "secret";
  std::filesystem::create_symlink(root.parent_path() / "kf_outside.txt", root / "src" / "CMakeLists.txt");
  const auto read = repository_file_reader(root, 64);
  CHECK(read("CMakeLists.txt") == "add_definitions(-DA)\n");
  CHECK_FALSE(read("src/CMakeLists.txt"));
  CHECK_FALSE(read("../kf_outside.txt"));
  CHECK_FALSE(read("big.txt"));
  CHECK_FALSE(read("missing.txt"));
  CHECK_FALSE(read("src"));
  std::filesystem::remove_all(root);
  std::filesystem::remove(root.parent_path() / "kf_outside.txt");
}

TEST_CASE("build file defines: the architecture's number, and names that hold one") {
  CHECK(architecture_number("sm_90") == 90);
  CHECK(architecture_number("sm_90a") == 90);
  CHECK(architecture_number("compute_86") == 86);
  CHECK_FALSE(architecture_number("auto"));
  CHECK_FALSE(architecture_number("sm_"));
  CHECK_FALSE(architecture_number("90"));
  CHECK(names_an_architecture("MIN_GPU_ARCH"));
  CHECK(names_an_architecture("cmake_cuda_architectures"));
  CHECK_FALSE(names_an_architecture("TCNN_HALF_PRECISION"));
}

TEST_CASE("build file defines: the code flags of CUDA_NVCC_FLAGS and the CUDA standard, not warnings or host options") {
  const auto read = read_build_file_defines(
      files_reader({{"CMakeLists.txt",
                     "set(CMAKE_CUDA_STANDARD 17)\nadd_compile_options(-Wall -fPIC)\n"
                     "list(APPEND CUDA_NVCC_FLAGS \"--extended-lambda\" \"--expt-relaxed-constexpr\" \"-Xcompiler=-Wall\")\n"
                     "list(APPEND CUDA_NVCC_FLAGS \"--extended-lambda\" \"${NOT_SET}\")\n"
                     "target_compile_options(lib PRIVATE --use_fast_math -DWITH_FAST=1)\n"}}),
      90);
  CHECK(read.flags == Strings{"--use_fast_math", "--extended-lambda", "--expt-relaxed-constexpr", "-std=c++17"});
  CHECK(read.defines == Defines{{"WITH_FAST", "1"}});
  CHECK(read.summary() ==
        "defines from CMakeLists.txt: WITH_FAST=1; flags from CMakeLists.txt: --use_fast_math, "
        "--extended-lambda, --expt-relaxed-constexpr, -std=c++17");
}

TEST_CASE("build file defines: where every define was left out, the summary says so plainly") {
  const std::vector<FoundDefine> found{{"SCALE=1$(echo x)", "CMakeLists.txt:2"}};
  const auto settled = settle_defines(found, 90);
  CHECK(settled.defines.empty());
  CHECK(settled.summary().starts_with("left out: -DSCALE=1$(echo x) (it holds '$'"));
  CHECK(settled.summary().ends_with("(CMakeLists.txt:2)"));
}

TEST_CASE("build file defines: the summary names the first few left out, then how many more") {
  BuildFileDefines settled;
  for (int i = 0; i < 5; ++i) settled.left_out.push_back(fmt::format("-DROCM_{} (setup.py:{}, in a ROCm (HIP) branch)", i, i));
  CHECK(settled.summary() ==
        "left out: -DROCM_0 (setup.py:0, in a ROCm (HIP) branch), -DROCM_1 (setup.py:1, in a ROCm (HIP) branch), "
        "-DROCM_2 (setup.py:2, in a ROCm (HIP) branch) (and 2 more)");
}
