// SPDX-License-Identifier: Apache-2.0
#include "cuda/dynamic_library.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace kforecast::cuda;

TEST_CASE("cuda: DynamicLibrary") {
  SECTION("opens a system library and finds its symbols") {
    auto library = DynamicLibrary::open("libc.so.6");
    REQUIRE(library.has_value());
    CHECK(library->symbol("strlen") != nullptr);
    CHECK(library->symbol("kforecast_no_such_symbol") == nullptr);
    CHECK(library->loaded_path().find("libc.so.6") != std::string::npos);

    using Strlen = std::size_t(const char*);
    Strlen* length = nullptr;
    REQUIRE(library->bind("strlen", length));
    CHECK(length("four") == 4);
  }
  SECTION("a moved-from library no longer resolves symbols") {
    auto library = DynamicLibrary::open("libc.so.6");
    REQUIRE(library.has_value());
    DynamicLibrary moved = std::move(*library);
    CHECK(moved.symbol("strlen") != nullptr);
    CHECK(library->symbol("strlen") == nullptr);  // NOLINT(bugprone-use-after-move): the contract under test
  }
  SECTION("a missing file is dlerror()'s message") {
    auto library = DynamicLibrary::open("/nonexistent/libkforecast-none.so");
    REQUIRE_FALSE(library.has_value());
    CHECK(library.error().find("/nonexistent/libkforecast-none.so") != std::string::npos);
  }
}

TEST_CASE("cuda: open_first") {
  SECTION("lists every path tried, with its error, when none opens") {
    const std::vector<std::string> candidates = {"/nonexistent/a/libx.so", "/nonexistent/b/libx.so.1",
                                                 "libkforecast-none.so.9"};
    auto opened = open_first(candidates);
    REQUIRE_FALSE(opened.has_value());
    const auto& tried = opened.error().tried;
    REQUIRE(tried.size() == 3);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      CHECK(tried[i].path == candidates[i]);
      CHECK_FALSE(tried[i].error.empty());
    }
    const auto message = opened.error().message();
    for (const auto& candidate : candidates) CHECK(message.find(candidate) != std::string::npos);
  }
  SECTION("returns the first that opens and the failures before it") {
    const std::vector<std::string> candidates = {"/nonexistent/libx.so", "libc.so.6", "libm.so.6"};
    auto opened = open_first(candidates);
    REQUIRE(opened.has_value());
    CHECK(opened->path == "libc.so.6");
    CHECK(opened->index == 1);
    REQUIRE(opened->failed.size() == 1);
    CHECK(opened->failed[0].path == "/nonexistent/libx.so");
  }
  SECTION("no candidates is not available, not a crash") {
    auto opened = open_first({});
    REQUIRE_FALSE(opened.has_value());
    CHECK(opened.error().tried.empty());
  }
}
