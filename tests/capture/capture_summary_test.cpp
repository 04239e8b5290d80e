// SPDX-License-Identifier: Apache-2.0
// The summary of a capture folder, made by the injection library's own writer, so the two sides
// of the file format are tested together.

#include <catch2/catch.hpp>

#include <fstream>

#include "capture/capture_summary.hpp"
#include "capture/injection/capture_files.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::capture;
using namespace kforecast::capture::injection;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

LaunchRecord launch(std::string mangled, std::string demangled, unsigned grid, std::uint32_t ordinal) {
  LaunchRecord record{.mangled = std::move(mangled), .demangled = std::move(demangled)};
  record.layout_known = true;
  record.shape.grid = {grid, 1, 1};
  record.ordinal = ordinal;
  record.parameters.push_back(ParameterRecord{.slot = {0, 0, 8}, .kind = ParameterKind::pointer, .allocation = 0});
  record.allocations.push_back(AllocationRecord{.allocation = {0x1000, 1024},
                                                .region_bytes = 1024,
                                                .contents = Contents::captured,
                                                .data = std::vector<std::byte>(1024, std::byte{1})});
  return record;
}

void write(const fs::path& dir, LaunchRecord record) { REQUIRE(write_capture(dir.string(), record, {}).empty()); }

}  // namespace

TEST_CASE("capture summary: kernels, shapes, bytes, synthetic regions and launches that cannot be replayed") {
  kforecast::testing::TempDir dir;
  write(dir.path(), launch("_Z4axpyPf", "axpy(float*)", 4096, 0));
  write(dir.path(), launch("_Z4axpyPf", "axpy(float*)", 4096, 1));  // same contents: one blob
  write(dir.path(), launch("_Z4axpyPf", "axpy(float*)", 64, 0));
  auto pooled = launch("_Z3sumPf", "sum(float*)", 1, 0);
  pooled.allocations.push_back(AllocationRecord{.allocation = {0x10000, 1 << 20}, .region_bytes = 1 << 20});
  write(dir.path(), pooled);
  auto hidden = launch("_Z4spanS_", "span(Span)", 8, 0);
  hidden.parameters.push_back(ParameterRecord{.slot = {1, 8, 16},
                                              .kind = ParameterKind::pointer_inside,
                                              .bytes = std::vector<std::byte>(16),
                                              .reason = "bytes 0-7 point into allocation 0"});
  write(dir.path(), hidden);
  auto unknown = launch("_Z4lazyv", "lazy()", 1, 0);
  unknown.layout_known = false;
  unknown.parameters.clear();
  unknown.allocations.clear();
  write(dir.path(), unknown);

  const CaptureSummary summary = summarize_captures(dir.path());
  CHECK(summary.launches == 6);
  REQUIRE(summary.kernels.size() == 4);
  CHECK(summary.kernels[0].kernel == "axpy(float*)");
  CHECK(summary.kernels[0].shapes == 2);
  CHECK(summary.kernels[0].launches == 3);
  CHECK(summary.bytes_kept == 1024);  // every captured region held the same bytes
  REQUIRE(summary.synthetic.size() == 1);
  CHECK(summary.synthetic[0].kernel == "sum(float*)");
  CHECK(summary.synthetic[0].bytes == 1 << 20);
  REQUIRE(summary.unreplayable.size() == 2);
  CHECK(summary.problems.empty());

  const std::string text = format_summary(summary, dir.path());
  CHECK_THAT(text, Contains("kforecast capture: 4 kernels, 6 launches kept, 0.0 MiB of contents in"));
  CHECK_THAT(text, Contains("2 shapes, 3 launches  axpy(float*)"));
  CHECK_THAT(text, Contains("synthetic: 1 region (1.0 MiB)"));
  CHECK_THAT(text, Contains("span(Span): cannot replay: pointer inside argument 1"));
  CHECK_THAT(text, Contains("lazy(): cannot replay: the parameter layout was not known at the launch"));
}

TEST_CASE("capture summary: files that are not captures are listed, the rest still counted") {
  kforecast::testing::TempDir dir;
  write(dir.path(), launch("_Z4axpyPf", "axpy(float*)", 4096, 0));
  fs::create_directories(dir.path() / "junk");
  std::ofstream(dir.path() / "junk" / "a.json") << "{not json";
  std::ofstream(dir.path() / "junk" / "b.json") << R"({"kforecast_capture": 2})";
  std::ofstream(dir.path() / "junk" / "c.json")
      << R"j({"kforecast_capture": 1, "kernel": {"demangled": "k()"}, "parameters": 3})j";
  const CaptureSummary summary = summarize_captures(dir.path());
  CHECK(summary.launches == 2);  // axpy, and c.json up to its bad field
  REQUIRE(summary.problems.size() == 3);
  CHECK_THAT(summary.problems[0], Contains("junk/a.json: not JSON"));
  CHECK_THAT(summary.problems[1], Contains("junk/b.json: capture format 2 (this kforecast reads 1)"));
  CHECK_THAT(summary.problems[2], Contains("junk/c.json: parameters is neither a list nor null"));
  CHECK_THAT(format_summary(summary, dir.path()), Contains("unreadable: junk/a.json"));
}

TEST_CASE("capture summary: an empty or missing folder says why nothing may have been captured") {
  kforecast::testing::TempDir dir;
  const std::string text = format_summary(summarize_captures(dir.path()), dir.path());
  CHECK_THAT(text, Contains("no launch was captured") && Contains("--kernels"));
  const auto missing = summarize_captures(dir.path() / "absent");
  CHECK(missing.launches == 0);
  CHECK(missing.problems.size() == 1);
}
