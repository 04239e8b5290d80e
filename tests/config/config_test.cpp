// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "config/config.hpp"

using namespace kforecast;
using namespace kforecast::config;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {
struct TempDir {
  fs::path path;
  TempDir() : path(fs::temp_directory_path() / fs::path("kf-config-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const fs::path& relative, std::string_view text) const {
    fs::create_directories((path / relative).parent_path());
    std::ofstream(path / relative) << text;
  }
};
}  // namespace

TEST_CASE("config: typed accessors return values and reject the wrong type") {
  Config config;
  CHECK(config.string_value("forecast.forecaster") == "embedded");
  CHECK(config.number_value("policy.max_p_regression") == Approx(0.2));
  CHECK(config.integer_value("endpoint.max_retries") == 4);
  CHECK_THROWS_AS(config.number_value("forecast.forecaster"), Fatal);
  CHECK_THROWS_AS(config.setting("no.such.key"), Fatal);
}

TEST_CASE("config: the config file is found at the work tree's root") {
  TempDir dir;
  dir.write(".git/HEAD", "ref: refs/heads/main\n");
  dir.write("src/kernels/a.cu", "");
  SECTION("absent: defaults") { CHECK_FALSE(find_config_file(dir.path / "src/kernels").has_value()); }
  SECTION("present at the root, looked up from a subdirectory") {
    dir.write(".kforecast.toml", "");
    CHECK(find_config_file(dir.path / "src/kernels") == dir.path / ".kforecast.toml");
  }
  SECTION("one in a subdirectory is not the repository's config") {
    dir.write("src/.kforecast.toml", "");
    CHECK_FALSE(find_config_file(dir.path / "src").has_value());
  }
}

TEST_CASE("config: load_config reads the file, then the environment") {
  TempDir dir;
  dir.write("k.toml", "[cuda]\ndriver_library = \"/lib/libcuda.so.1\"\n");
  auto config = load_config(dir.path / "k.toml", fixed_environment({{"KFORECAST_NVRTC_LIBRARY", "/n.so"}}));
  REQUIRE(config.has_value());
  CHECK(config->file() == dir.path / "k.toml");
  CHECK(config->string_value("cuda.driver_library") == "/lib/libcuda.so.1");
  CHECK(config->string_value("cuda.nvrtc_library") == "/n.so");
  SECTION("a missing explicit file is a usage error naming it") {
    auto missing = load_config(dir.path / "nope.toml", fixed_environment({}));
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error().exit_code == ExitCode::usage);
    CHECK_THAT(missing.error().message, Contains("nope.toml"));
  }
  SECTION("an oversized file is refused") {
    dir.write("big.toml", std::string(2 << 20, '#'));
    auto big = load_config(dir.path / "big.toml", fixed_environment({}));
    REQUIRE_FALSE(big.has_value());
    CHECK_THAT(big.error().message, Contains("larger than"));
  }
}
