// SPDX-License-Identifier: Apache-2.0
// capture.command on CPU: the base revision checked out and built in the cache, the command run
// there with the capture library's environment, its launches kept by the base's tree hash and
// replayed; a command that fails or runs too long leaves that kernel unverified with the exit
// status and its last line, never the run; without a GPU it is not run and the run says why. The
// command here is a fake: a shell script of the fixture repository that copies a recorded capture
// into the folder KFORECAST_CAPTURE_DIR names, as the capture library would write it.
#include <atomic>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "base/subprocess.hpp"
#include "capture/capture_lookup.hpp"
#include "capture/capture_reader.hpp"
#include "capture/recorded_capture.hpp"
#include "measure/capture_command_step.hpp"
#include "support/run_gate_harness.hpp"
#include "support/plain_shell.hpp"
#include "support/fixture_repo.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using namespace kforecast::measure;
using kforecast::test::plain_shell;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

// The fake capture program: it needs what capture.build made and the capture library's variables,
// and copies the revision's recorded launches where the library would write them.
constexpr std::string_view capture_script =
    "test -f built.txt || { echo 'not built' >&2; exit 7; }\n"
    "test -n \"$CUDA_INJECTION64_PATH\" || { echo 'no capture library' >&2; exit 8; }\n"
    "cp -R recorded/. \"$KFORECAST_CAPTURE_DIR\"/\n";

// The base records copy with 1024 elements (grid 4), the head with 2048 (grid 8): the captures
// replayed must be the base's.
struct CommandRepo {
  testing::FixtureRepo repo;
  testing::TempDir cache;
  testing::TempDir library_folder;
  std::string base, head;
  CommandRepo() {
    repo.write("tools/capture.sh", capture_script);
    testing::write_capture(repo.path() / "recorded" / "copy", testing::copy_capture(1024), "copy-0");
    base = repo.commit("base");
    testing::write_capture(repo.path() / "recorded" / "copy", testing::copy_capture(2048), "copy-0");
    head = repo.commit("head");
    std::ofstream(library_folder.path() / "libkforecast_capture.so") << "not a library: the fake program ignores it";
  }
  fs::path library() const { return library_folder.path() / "libkforecast_capture.so"; }
  CaptureCommandRequest request(const CaptureCommandSettings& settings) const {
    return {settings,          repo.path(), base, cache.path() / "harness", cache.path() / "captures",
            library(),         [](std::string_view) { return std::optional<std::string>(); }};
  }
};

std::uint32_t grid_x_in(const fs::path& folder) {
  auto found = capture::find_captures(folder, {"", "copy"});
  REQUIRE(found.files.size() == 1);
  auto read = capture::read_capture_file(found.files.front());
  REQUIRE(read);
  return read->grid[0];
}

const CaptureCommandSettings fake_settings{"sh tools/capture.sh", "echo yes > built.txt", 60};

}  // namespace

TEST_CASE("capture command: the base is built and the command records its launches, kept by tree hash") {
  CommandRepo r;
  int runs = 0;
  auto recorded = measure::run_capture_command(r.request(fake_settings), plain_shell(runs));
  INFO((recorded ? std::string() : recorded.error().message));
  REQUIRE(recorded);
  CHECK(runs == 2);  // the build, the command
  CHECK_FALSE(recorded->reused);
  CHECK(grid_x_in(recorded->folder) == 4);  // the base's program
  CHECK(recorded->summary == "1 launch of 1 kernel");
  CHECK(recorded->folder.string().starts_with((r.cache.path() / "captures").string()));

  auto again = measure::run_capture_command(r.request(fake_settings), plain_shell(runs));
  REQUIRE(again);
  CHECK(runs == 2);  // neither built nor run again
  CHECK(again->reused);
  CHECK(again->folder == recorded->folder);

  // Another command is another recording.
  const CaptureCommandSettings other{"sh tools/capture.sh && true", fake_settings.build, 60};
  auto third = measure::run_capture_command(r.request(other), plain_shell(runs));
  REQUIRE(third);
  CHECK(third->folder != recorded->folder);
}

TEST_CASE("capture command: a command that fails or runs too long is an error with its status and last line") {
  CommandRepo r;
  int runs = 0;
  SECTION("an exit status") {
    const CaptureCommandSettings failing{"echo 'starting' >&2; echo 'kernel_test: CUDA error 999' >&2; exit 3", "", 60};
    auto recorded = measure::run_capture_command(r.request(failing), plain_shell(runs));
    REQUIRE_FALSE(recorded);
    CHECK(recorded.error().message == "capture.command failed (exit 3): kernel_test: CUDA error 999");
    // Nothing was kept: the next run tries again.
    CHECK_FALSE(measure::run_capture_command(r.request(failing), plain_shell(runs)));
    CHECK(runs == 2);
  }
  SECTION("the capture program's own check: the build did not run") {
    const CaptureCommandSettings unbuilt{"sh tools/capture.sh", "", 60};
    auto recorded = measure::run_capture_command(r.request(unbuilt), plain_shell(runs));
    REQUIRE_FALSE(recorded);
    CHECK(recorded.error().message == "capture.command failed (exit 7): not built");
  }
  SECTION("a build that fails") {
    const CaptureCommandSettings broken{"sh tools/capture.sh", "echo 'no cmake' >&2; exit 2", 60};
    auto recorded = measure::run_capture_command(r.request(broken), plain_shell(runs));
    REQUIRE_FALSE(recorded);
    CHECK_THAT(recorded.error().message, Contains("capture.build: building the base revision") && Contains("no cmake"));
    CHECK(runs == 1);  // the command never ran
  }
  SECTION("a timeout") {
    const CaptureCommandSettings slow{"sleep 10", "", 0.2};
    auto recorded = measure::run_capture_command(r.request(slow), plain_shell(runs));
    REQUIRE_FALSE(recorded);
    CHECK_THAT(recorded.error().message,
               Contains("capture.command did not finish") && Contains("capture.timeout_seconds = 0.2"));
  }
}

namespace {

// A pr over the fixture repository: copy changed, no spec, no committed capture, a GPU.
struct CommandPr {
  CommandRepo r;
  test::Harness h;
  int runs = 0;
  std::uint32_t replayed_grid = 0;
  explicit CommandPr(const std::string& command) {
    const std::string bare = "__global__ void copy(const float* x, float* y, int n) {\n"
                             "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n";
    h.base_files = {{"k.cu", bare + "  if (i < n) y[i] = x[i];\n}\n"}};
    h.head_files = {{"k.cu", bare + "  if (i < n) y[i] = x[i] + 0.0f;\n}\n"}};
    h.answer = [](const std::string&) { return forecasters::KernelForecast{test::forecast_of(0.6, 0.3), "", "", {}}; };
    h.config_text = fmt::format("[capture]\ncommand = \"{}\"\nbuild = \"echo yes > built.txt\"\n", command);
    h.no_gpu = std::nullopt;
    h.base_revision = r.base;
    h.head_revision = r.head;
    h.repository_root = r.repo.path();
    const std::string cache = r.cache.path().string();
    h.env = [cache](std::string_view name) {
      return name == "XDG_CACHE_HOME" ? std::optional<std::string>(cache) : std::optional<std::string>();
    };
    h.capture_shell = plain_shell(runs);
    h.capture_library = [library = r.library()] { return Result<fs::path>(library); };
    h.measure = [this](const ChildRequest& request) {
      auto found = capture::capture_files_at(request.pair.capture);
      REQUIRE(found);
      REQUIRE(found->size() == 1);
      auto read = capture::read_capture_file(found->front());
      REQUIRE(read);
      replayed_grid = read->grid[0];
      return Result<bench::Measurement>(test::measured(bench::Verdict::same, 1.0, 1.0));
    };
  }
};

bool has_note(const std::vector<std::string>& notes, const std::string& text) {
  return std::ranges::any_of(notes, [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("capture command: pr runs it for a kernel with neither spec nor capture, and replays the base's launches") {
  CommandPr pr("sh tools/capture.sh");
  auto result = pr.h.run();
  REQUIRE(result);
  const auto& entry = test::only_entry(*result);
  INFO(fmt::format("{}", fmt::join(entry.notes, "\n")));
  CHECK(pr.runs == 2);
  CHECK(pr.h.measurements_asked == 1);
  CHECK(pr.replayed_grid == 4);
  CHECK(entry.decision == report::Decision::measured);
  CHECK(has_note(entry.notes, fmt::format("measurement: captures from capture.command at the base revision {} (1 "
                                          "launch of 1 kernel); both sides replayed them",
                                          pr.r.base.substr(0, 12))));
}

TEST_CASE("capture command: its failure leaves that kernel unverified with the status and last line, not the run") {
  CommandPr pr("echo boom >&2; exit 3");
  auto result = pr.h.run();
  REQUIRE(result);
  const auto& entry = test::only_entry(*result);
  INFO(fmt::format("{}", fmt::join(entry.notes, "\n")));
  CHECK(pr.h.measurements_asked == 0);
  CHECK(entry.unverified);
  CHECK(has_note(entry.notes, "not measured: could not measure: capture.command failed (exit 3): boom"));
}

TEST_CASE("capture command: without a GPU it is not run, and the run says why") {
  CommandPr pr("sh tools/capture.sh");
  pr.h.no_gpu = "no GPU here (fake)";
  auto result = pr.h.run();
  REQUIRE(result);
  CHECK(pr.runs == 0);
  INFO(fmt::format("{}", fmt::join(result->run.notes, "\n")));
  CHECK(has_note(result->run.notes, "capture.command not run: no GPU here (fake)"));
  CHECK(test::only_entry(*result).unverified);
}

TEST_CASE("capture command: revisions that are not both commits do not run it, and the kernel says so") {
  CommandPr pr("sh tools/capture.sh");
  pr.h.head_revision = "index";
  auto result = pr.h.run();
  REQUIRE(result);
  CHECK(pr.runs == 0);
  const auto& entry = test::only_entry(*result);
  INFO(fmt::format("{}", fmt::join(entry.notes, "\n")));
  CHECK(has_note(entry.notes, "capture.command not run: it builds the base revision, and index against"));
}
