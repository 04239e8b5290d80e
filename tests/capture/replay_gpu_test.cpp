// SPDX-License-Identifier: Apache-2.0
// `kforecast bench --capture` on a real GPU, through the binary: a recorded launch of copy.cu's
// kernels (written here by the capture writer, as the injection library writes one) replayed
// for both sides. Skipped (exit 77) without a GPU. On a GPU machine with a binary built
// elsewhere, set KF_TEST_BINARY and KF_TEST_SOURCE_DIR.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "base/subprocess.hpp"
#include "recorded_capture.hpp"
#include "support/cuda_requirements.hpp"
#include "support/gpu_test_paths.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

namespace {

const std::string binary = kforecast::testing::test_binary();
const std::string fixtures = kforecast::testing::test_source_dir() + "/fixtures/bench/";

kforecast::ProcessOutput bench(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {binary, "bench"});
  arguments.insert(arguments.end(), {"--format", "json"});
  auto output = kforecast::run_process(arguments, {.timeout = std::chrono::seconds(180)});
  if (!output) FAIL(output.error().message);
  INFO(output->out << output->err);
  return *output;
}

bool has(const kforecast::ProcessOutput& output, std::string_view text) {
  return output.out.find(text) != std::string::npos;
}

// 4 Mi floats: 16 MiB a buffer, a few tens of microseconds a copy on an H100.
constexpr int elements = 1 << 22;

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_gpu(); }

TEST_CASE("capture gpu: a replayed kernel against itself is the same, and says where its launch came from") {
  kforecast::testing::TempDir dir;
  const auto file = kforecast::testing::write_capture(dir.path(), kforecast::testing::copy_capture(elements), "copy-0");
  auto result = bench({fixtures + "copy.cu:copy", "--vs", fixtures + "copy.cu:copy", "--capture", file.string()});
  INFO(result.out << result.err);
  CHECK(result.exit_status == 0);
  CHECK(has(result, "\"verdict\": \"same\""));
  CHECK(has(result, "replayed capture " + file.generic_string() + " (contents captured)"));
  CHECK(has(result, "capture copy-0"));  // the size's name
}

TEST_CASE("capture gpu: a replayed candidate that computes something else fails on the captured inputs") {
  kforecast::testing::TempDir dir;
  const auto file = kforecast::testing::write_capture(dir.path(), kforecast::testing::copy_capture(elements), "copy-0");
  auto result = bench({fixtures + "copy.cu:copy_wrong", "--vs", fixtures + "copy.cu:copy", "--capture", file.string()});
  INFO(result.out << result.err);
  CHECK(result.exit_status == 1);
  CHECK(has(result, "\"verdict\": \"failed\""));
  CHECK(has(result, "allocation 1"));  // y, compared after the launch
}

TEST_CASE("capture gpu: a replayed slower kernel is a regression") {
  kforecast::testing::TempDir dir;
  const auto file = kforecast::testing::write_capture(dir.path(), kforecast::testing::copy_capture(elements), "copy-0");
  auto result =
      bench({fixtures + "copy.cu:copy_strided", "--vs", fixtures + "copy.cu:copy", "--capture", file.string()});
  INFO(result.out << result.err);
  CHECK(result.exit_status == 1);
  CHECK(has(result, "\"verdict\": \"regression\""));
}

TEST_CASE("capture gpu: synthetic data where the capture kept no contents") {
  kforecast::testing::TempDir dir;
  auto recorded = kforecast::testing::copy_capture(elements);
  recorded.allocations[0].contents = kforecast::capture::Contents::synthetic;
  recorded.allocations[0].blob.clear();
  const auto file = kforecast::testing::write_capture(dir.path(), recorded, "copy-0");
  auto result = bench({fixtures + "copy.cu:copy", "--vs", fixtures + "copy.cu:copy", "--capture", file.string()});
  INFO(result.out << result.err);
  CHECK(result.exit_status == 0);
  CHECK(has(result, "synthetic data for allocation 0: over the byte budget"));
}
