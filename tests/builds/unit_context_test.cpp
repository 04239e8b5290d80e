// SPDX-License-Identifier: Apache-2.0
// UnitContexts: the context each unit is built with, on a checkout without a compile database.
#include "builds/unit_context.hpp"

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "support/temp_dir.hpp"

using namespace kforecast;

namespace {

// A checkout with a CMakeLists.txt and no compile database, in a folder of its own (ctest runs
// this file's cases in parallel: a fixed path let one case delete another's checkout).
struct Checkout {
  testing::TempDir folder;
  std::filesystem::path root = folder.path();
  explicit Checkout(const std::string& cmake) { std::ofstream(root / "CMakeLists.txt") << cmake; }
};

}  // namespace

TEST_CASE("unit context: an inferred context takes the build files' defines, the architecture from the target") {
  const Checkout checkout(
      "list(GET CMAKE_CUDA_ARCHITECTURES 0 MIN_GPU_ARCH)\n"
      "list(APPEND DEFS -DMIN_ARCH=${MIN_GPU_ARCH} -DWITH_HALF=1)\n"
      "add_compile_definitions(${DEFS})\n");
  builds::CompileSettings settings;
  settings.repository_root = checkout.root;
  const config::Config config;
  const builds::UnitContexts contexts(settings, config, "sm_86");
  const kernels::SourceFiles files{{"k.cu", "__global__ void k() {}\n"}};
  const kernels::RevisionSources sources(files);
  const builds::UnitContext context = contexts.lookup()("k.cu", sources);
  CHECK(context.arguments == std::vector<std::string>{"-DMIN_ARCH=86", "-DWITH_HALF=1"});
  CHECK(context.origin.starts_with("inferred from the tree; defines from CMakeLists.txt: MIN_ARCH=86, WITH_HALF=1"));
  REQUIRE(contexts.notes().size() == 2);
  CHECK(contexts.notes()[0] ==
        "for contexts inferred from the tree, defines from CMakeLists.txt: MIN_ARCH=86, WITH_HALF=1");
  CHECK(contexts.notes()[1].starts_with("MIN_ARCH=86: MIN_GPU_ARCH is computed from the GPU"));
}

TEST_CASE("unit context: without build files an inferred context has no defines and no note") {
  const Checkout checkout("project(empty)\n");
  builds::CompileSettings settings;
  settings.repository_root = checkout.root;
  const config::Config config;
  const builds::UnitContexts contexts(settings, config, "sm_90");
  const kernels::SourceFiles files{{"k.cu", "__global__ void k() {}\n"}};
  const kernels::RevisionSources sources(files);
  const builds::UnitContext context = contexts.lookup()("k.cu", sources);
  CHECK(context.arguments.empty());
  CHECK(context.origin.starts_with("inferred from the tree (flags guessed"));
  CHECK(contexts.notes().empty());
}
