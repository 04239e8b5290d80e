// SPDX-License-Identifier: Apache-2.0
// The unit cache answers only while every header the compile read has the same text, and a
// damaged entry is a miss, never a wrong answer.
#include "builds/unit_cache.hpp"

#include <fstream>

#include <catch2/catch.hpp>

#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::builds;
using kforecast::testing::TempDir;

namespace {

CachedUnit compiled(std::vector<std::string> headers) {
  return {true, {std::byte{0x7f}, std::byte{'E'}, std::byte{0}, std::byte{'\n'}}, "a warning\nand more", std::move(headers)};
}

}  // namespace

TEST_CASE("unit cache: an entry answers while its headers keep their text") {
  TempDir dir;
  const UnitCache cache(dir.path());
  kernels::SourceFiles files{{"k.cu", "unit"}, {"inc/a.h", "one"}, {"inc/b.h", "two"}};
  const std::string key = UnitCache::unit_key("nvcc 13.0", {{}, "k.cu", {"-Iinc"}, "sm_90"}, files.at("k.cu"));
  CHECK_FALSE(cache.find(key, files));
  cache.store(key, compiled({"inc/a.h", "inc/b.h"}), files);
  const auto hit = cache.find(key, files);
  REQUIRE(hit);
  CHECK(hit->compiled);
  CHECK(hit->cubin == compiled({}).cubin);
  CHECK(hit->log == "a warning\nand more");
  CHECK(hit->headers == std::vector<std::string>{"inc/a.h", "inc/b.h"});

  files["inc/b.h"] = "two, edited";
  CHECK_FALSE(cache.find(key, files));
  files.erase("inc/b.h");
  CHECK_FALSE(cache.find(key, files));
  // A header that was absent when stored answers only while it stays absent.
  cache.store(key, compiled({"inc/a.h", "inc/b.h"}), files);
  CHECK(cache.find(key, files));
  files["inc/b.h"] = "appeared";
  CHECK_FALSE(cache.find(key, files));
}

TEST_CASE("unit cache: the key holds the compiler, the architecture, the arguments, the unit's path and text") {
  const cuda::UnitBuildRequest request{{}, "k.cu", {"-DA=1"}, "sm_90"};
  const std::string key = UnitCache::unit_key("nvcc 13.0", request, "text");
  CHECK(key == UnitCache::unit_key("nvcc 13.0", request, "text"));
  CHECK(key != UnitCache::unit_key("nvcc 13.1", request, "text"));
  CHECK(key != UnitCache::unit_key("nvcc 13.0", {{}, "k.cu", {"-DA=2"}, "sm_90"}, "text"));
  CHECK(key != UnitCache::unit_key("nvcc 13.0", {{}, "k.cu", {"-DA=1"}, "sm_80"}, "text"));
  CHECK(key != UnitCache::unit_key("nvcc 13.0", {{}, "j.cu", {"-DA=1"}, "sm_90"}, "text"));
  CHECK(key != UnitCache::unit_key("nvcc 13.0", request, "text2"));
}

TEST_CASE("unit cache: a failed compile is kept with its log, and damaged entries are misses") {
  TempDir dir;
  const UnitCache cache(dir.path());
  const kernels::SourceFiles files{{"k.cu", "unit"}, {"a.h", "x"}};
  const std::string key = UnitCache::unit_key("nvcc", {{}, "k.cu", {}, "sm_90"}, "unit");
  cache.store(key, {false, {}, "k.cu(1): error: bad", {"a.h"}}, files);
  auto hit = cache.find(key, files);
  REQUIRE(hit);
  CHECK_FALSE(hit->compiled);
  CHECK(hit->log == "k.cu(1): error: bad");

  // Truncate and garble every entry: each becomes a miss.
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / key)) {
    std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << "kforecast-unit-cache 1\ncompiled\n99999\n";
  }
  CHECK_FALSE(cache.find(key, files));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / key))
    std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << "kforecast-unit-cache 1\ncompiled\n0\n5\nab";
  CHECK_FALSE(cache.find(key, files));
}

TEST_CASE("unit cache: a header named with a line break is not kept, and the default place follows XDG") {
  TempDir dir;
  const UnitCache cache(dir.path());
  const kernels::SourceFiles files{{"k.cu", "unit"}, {"a\nb.h", "x"}};
  const std::string key = UnitCache::unit_key("nvcc", {{}, "k.cu", {}, "sm_90"}, "unit");
  cache.store(key, compiled({"a\nb.h"}), files);
  CHECK_FALSE(cache.find(key, files));
  const auto env = [](std::string_view name) -> std::optional<std::string> {
    if (name == "XDG_CACHE_HOME") return "/x";
    if (name == "HOME") return "/home/u";
    return std::nullopt;
  };
  CHECK(default_unit_cache_directory(env) == std::filesystem::path("/x/kforecast/units"));
  CHECK(default_unit_cache_directory([](std::string_view name) -> std::optional<std::string> {
          return name == "HOME" ? std::optional<std::string>("/home/u") : std::nullopt;
        }) == std::filesystem::path("/home/u/.cache/kforecast/units"));
}
