// SPDX-License-Identifier: Apache-2.0
// The compile.* keys and [[compile.paths]] tables as compile contexts.
#include "context/configured_context.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
using Strings = std::vector<std::string>;
using Defines = std::vector<std::pair<std::string, std::string>>;

namespace {

const FolderPlace place{"/repo", "/repo"};
const FolderLookup no_folders{[](const std::filesystem::path&) { return std::optional<std::filesystem::path>(); }};

ConfiguredContexts read(std::string_view toml) {
  auto config = kforecast::config::parse_config(toml, ".kforecast.toml");
  REQUIRE(config);
  auto contexts = read_configured_contexts(*config);
  REQUIRE(contexts);
  return *contexts;
}

std::string read_error(std::string_view toml) {
  auto config = kforecast::config::parse_config(toml, ".kforecast.toml");
  REQUIRE(config);
  auto contexts = read_configured_contexts(*config);
  REQUIRE_FALSE(contexts);
  return contexts.error().message;
}

}  // namespace

TEST_CASE("configured context: none without compile keys or a matching table") {
  CHECK_FALSE(configured_context(read(""), "src/k.cu", place, no_folders));
  CHECK_FALSE(configured_context(read("[[compile.paths]]\nglob = \"dev/*\"\nflags = [\"-O3\"]\n"), "src/k.cu", place,
                                 no_folders));
}

TEST_CASE("configured context: the compile.* keys apply to every file") {
  const auto contexts = read(
      "[compile]\ninclude_dirs = [\"include\", \"/etc\"]\ndefines = [\"TCNN_MIN_GPU_ARCH=80\", \"FAST\"]\n"
      "flags = [\"-std=c++17\", \"--extended-lambda\", \"-ccbin=/tmp/x\"]\n");
  const auto context = configured_context(contexts, "src/k.cu", place, no_folders);
  REQUIRE(context);
  CHECK(context->origin == ContextOrigin::config);
  CHECK(context->origin_detail == ".kforecast.toml compile.*");
  CHECK(context->unit == "src/k.cu");
  CHECK(context->include_dirs == Strings{"include"});
  CHECK(context->defines == Defines{{"TCNN_MIN_GPU_ARCH", "80"}, {"FAST", ""}});
  CHECK(context->standard == "c++17");
  CHECK(context->flags == Strings{"--extended-lambda"});
  CHECK(context->refused == Strings{"/etc (outside the repository, and not a system folder under /usr or /opt)",
                                    "-ccbin=/tmp/x (runs a program)"});
}

TEST_CASE("configured context: the first matching path table adds to compile.*, and its defines replace") {
  const auto contexts = read(
      "[compile]\ninclude_dirs = [\"include\"]\ndefines = [\"ARCH=70\", \"A\"]\nflags = [\"-std=c++14\"]\n"
      "[[compile.paths]]\nglob = \"dev/cuda/*\"\ninclude_dirs = [\"dev\"]\ndefines = [\"ARCH=80\"]\n"
      "flags = [\"-std=c++17\", \"-O3\"]\n"
      "[[compile.paths]]\nglob = \"dev/*\"\ndefines = [\"NEVER\"]\n");
  REQUIRE(contexts.paths.size() == 2);
  const auto context = configured_context(contexts, "dev/cuda/deep/k.cu", place, no_folders);
  REQUIRE(context);
  CHECK(context->include_dirs == Strings{"include", "dev"});
  CHECK(context->defines == Defines{{"ARCH", "80"}, {"A", ""}});
  CHECK(context->standard == "c++17");
  CHECK(context->flags == Strings{"-O3"});
  CHECK(context->origin_detail ==
        ".kforecast.toml compile.* and .kforecast.toml:5 [[compile.paths]] glob \"dev/cuda/*\"");

  const auto other = configured_context(contexts, "dev/k.cu", place, no_folders);
  REQUIRE(other);
  CHECK(other->defines == Defines{{"ARCH", "70"}, {"A", ""}, {"NEVER", ""}});
  CHECK(other->standard == "c++14");

  const auto outside = configured_context(contexts, "src/k.cu", place, no_folders);
  REQUIRE(outside);
  CHECK(outside->defines == Defines{{"ARCH", "70"}, {"A", ""}});
  CHECK(outside->origin_detail == ".kforecast.toml compile.*");
}

TEST_CASE("configured context: a path table alone gives a context to the files it matches") {
  const auto contexts = read("[[compile.paths]]\nglob = \"*.cu\"\nflags = [\"--use_fast_math\"]\n");
  const auto context = configured_context(contexts, "a/b.cu", place, no_folders);
  REQUIRE(context);
  CHECK(context->flags == Strings{"--use_fast_math"});
  CHECK(context->origin_detail == ".kforecast.toml:1 [[compile.paths]] glob \"*.cu\"");
}

TEST_CASE("configured context: a path table of the wrong shape is an error naming the line and key") {
  CHECK(read_error("[[compile.paths]]\nflags = [\"-O3\"]\n") ==
        ".kforecast.toml:1:1: a [[compile.paths]] table needs a 'glob'");
  CHECK(read_error("[[compile.paths]]\nglob = \"x\"\nflag = [\"-O3\"]\n") ==
        ".kforecast.toml:3:1: unknown key 'flag' in [[compile.paths]] (it takes glob, include_dirs, defines, flags)");
  CHECK(read_error("[[compile.paths]]\nglob = \"x\"\ndefines = \"A=1\"\n") ==
        ".kforecast.toml:3:11: [[compile.paths]] key 'defines' must be a list of strings");
  CHECK(read_error("[[compile.paths]]\nglob = 3\n") ==
        ".kforecast.toml:2:8: [[compile.paths]] key 'glob' must be a non-empty string, e.g. \"src/legacy/*\"");
}

TEST_CASE("configured context: the config loader rejects compile.paths that is not an array of tables") {
  auto config = kforecast::config::parse_config("[compile]\npaths = \"x\"\n", ".kforecast.toml");
  REQUIRE_FALSE(config);
  CHECK(config.error().message ==
        ".kforecast.toml:2:1: 'compile.paths' must be an array of tables: write [[compile.paths]]");
}
