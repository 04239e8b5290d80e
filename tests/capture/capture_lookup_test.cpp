// SPDX-License-Identifier: Apache-2.0
#include "capture/capture_lookup.hpp"

#include <catch2/catch.hpp>

#include "recorded_capture.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::capture;

TEST_CASE("capture: the demangled name without parameters") {
  CHECK(name_without_parameters("scale(float*, float, int)") == "scale");
  CHECK(name_without_parameters("void ns::tiled<64, 8>(float const*, int)") == "ns::tiled<64, 8>");
  CHECK(name_without_parameters("void (anonymous namespace)::k<(int)3>(float*)") == "(anonymous namespace)::k<(int)3>");
  CHECK(name_without_parameters("void f<void (*)(int)>(int)") == "f<void (*)(int)>");
  CHECK(name_without_parameters("kernel") == "kernel");
  CHECK(name_without_parameters("") == "");
}

TEST_CASE("capture: a capture matches by mangled name, else by name without parameters") {
  const CapturedKernel kernel{"_Z5tiledILi64ELi8EEvPf", "void tiled<64, 8>(float*)", ""};
  CHECK(matches(kernel, {"_Z5tiledILi64ELi8EEvPf", ""}));
  CHECK_FALSE(matches(kernel, {"_Z5tiledILi32ELi8EEvPf", "tiled<64, 8>"}));  // a mangled name decides
  CHECK(matches(kernel, {"", "tiled<64,8>"}));
  CHECK_FALSE(matches(kernel, {"", "tiled"}));
  CHECK_FALSE(matches(kernel, {"", ""}));
}

TEST_CASE("capture: captures are found in capture.dir by kernel") {
  testing::TempDir dir;
  const auto root = dir.path() / ".kforecast" / "captures";
  const auto saxpy = testing::saxpy_capture();
  const auto folder = root / kernel_folder_name(saxpy.kernel.mangled);
  testing::write_capture(folder, saxpy, "saxpy-0");
  testing::write_capture(folder, testing::saxpy_capture(32), "saxpy-1");
  auto other = saxpy;
  other.kernel = {"_Z5scalePffi", "scale(float*, float, int)", ""};
  testing::write_capture(root / kernel_folder_name(other.kernel.mangled), other, "scale-0");

  SECTION("by mangled name, in order") {
    const auto found = find_captures(root, {"_Z5saxpyifPKfPf", "saxpy"});
    REQUIRE(found.files.size() == 2);
    CHECK(found.files[0].filename() == "saxpy-0.json");
    CHECK(found.files[1].filename() == "saxpy-1.json");
    CHECK(found.skipped.empty());
  }
  SECTION("by name where NVRTC builds it") {
    CHECK(find_captures(root, {"", "scale"}).files.size() == 1);
    CHECK(find_captures(root, {"", "gemm"}).files.empty());
  }
  SECTION("a file that is not a capture is reported, not skipped silently") {
    std::ofstream(folder / "broken.json") << "{\"kforecast_capture\": 9}";
    const auto found = find_captures(root, {"_Z5saxpyifPKfPf", ""});
    CHECK(found.files.size() == 2);
    REQUIRE(found.skipped.size() == 1);
    CHECK_THAT(found.skipped[0], Catch::Contains("broken.json: kforecast_capture: version 9"));
  }
  SECTION("no folder finds nothing") { CHECK(find_captures(dir.path() / "none", {"_Z1kv", "k"}).files.empty()); }
  SECTION("--capture names a file or a folder") {
    auto one = capture_files_at(folder / "saxpy-0.json");
    REQUIRE(one);
    CHECK(one->size() == 1);
    auto all = capture_files_at(folder);
    REQUIRE(all);
    CHECK(all->size() == 2);
    auto none = capture_files_at(dir.path() / "missing");
    REQUIRE_FALSE(none);
    CHECK_THAT(none.error().message, Catch::Contains("no such capture file or folder"));
    std::filesystem::create_directories(dir.path() / "empty");
    auto empty = capture_files_at(dir.path() / "empty");
    REQUIRE_FALSE(empty);
    CHECK_THAT(empty.error().message, Catch::Contains("kforecast capture"));
  }
}

TEST_CASE("capture: the kernel folder name is stable") {
  CHECK(kernel_folder_name("_Z5scalePffi") == kernel_folder_name("_Z5scalePffi"));
  CHECK(kernel_folder_name("_Z5scalePffi") != kernel_folder_name("_Z5scalePffj"));
  CHECK(kernel_folder_name("").size() == 16);
  CHECK(kernel_folder_name("") == "cbf29ce484222325");  // FNV-1a 64's offset basis: nothing hashed
}
