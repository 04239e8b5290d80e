// SPDX-License-Identifier: Apache-2.0
// A [[harness]] without maps learns which benchmarks launch which kernels: at the base revision,
// its list command names the benchmarks and each runs once under the capture library. Here the
// benchmark program is a fake shell script that copies recorded captures (its "launches") into
// the folder KFORECAST_CAPTURE_DIR names; the map is kept by tree hash, and pr then runs only the
// benchmarks that launch a changed kernel.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "base/subprocess.hpp"
#include "capture/recorded_capture.hpp"
#include "gate/harness_step.hpp"
#include "measure/learned_harness_map.hpp"
#include "support/run_gate_harness.hpp"
#include "support/fixture_repo.hpp"
#include "support/plain_shell.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using namespace kforecast::measure;
using Catch::Matchers::Contains;
using kforecast::test::plain_shell;

namespace {

namespace fs = std::filesystem;

// bench.sh --list names three benchmarks; bench.sh '^(NAME)$' "runs" NAME: under the capture
// library it copies recorded/NAME's captures where the library would write them.
constexpr std::string_view bench_script =
    "if [ \"$1\" = --list ]; then printf 'BM_Copy\\nBM_Strided\\nBM_Both\\n'; exit 0; fi\n"
    "name=$(printf '%s' \"$1\" | sed 's/^^(//; s/)\\$$//')\n"
    "test -d \"recorded/$name\" || { echo \"no benchmark $name\" >&2; exit 4; }\n"
    "if [ -n \"$KFORECAST_CAPTURE_DIR\" ]; then cp -R \"recorded/$name/.\" \"$KFORECAST_CAPTURE_DIR/\"; fi\n";

struct BenchRepo {
  testing::FixtureRepo repo;
  testing::TempDir cache, library_folder;
  std::string base, head;
  harness::Harness harness;
  BenchRepo() {
    repo.write("bench.sh", bench_script);
    testing::write_capture(repo.path() / "recorded" / "BM_Copy" / "a", testing::copy_capture(1024), "copy-0");
    testing::write_capture(repo.path() / "recorded" / "BM_Strided" / "b", testing::copy_capture(512, "copy_strided"),
                           "copy_strided-0");
    testing::write_capture(repo.path() / "recorded" / "BM_Both" / "a", testing::copy_capture(256), "copy-0");
    testing::write_capture(repo.path() / "recorded" / "BM_Both" / "b", testing::copy_capture(256, "copy_strided"),
                           "copy_strided-0");
    base = repo.commit("base");
    repo.write("README", "head\n");
    head = repo.commit("head");
    harness.name = "bench";
    harness.run = "sh bench.sh '{filter}'";
    harness.list = "sh bench.sh --list";
    harness.format = harness::OutputFormat::gbench;
    harness.origin = ".kforecast.toml:1";
    std::ofstream(library_folder.path() / "libkforecast_capture.so") << "fake";
  }
  fs::path library() const { return library_folder.path() / "libkforecast_capture.so"; }
  LearnRequest request() const {
    return {harness, repo.path(), base, cache.path() / "harness", cache.path() / "learned", library(),
            [](std::string_view) { return std::optional<std::string>(); }};
  }
};

}  // namespace

TEST_CASE("learned harness map: each listed benchmark runs once under capture, and the map is kept by tree hash") {
  BenchRepo r;
  int runs = 0;
  auto map = measure::learn_harness_map(r.request(), plain_shell(runs));
  INFO((map ? std::string() : map.error().message));
  REQUIRE(map);
  CHECK(runs == 4);  // list, then three benchmarks (nothing to build)
  CHECK_FALSE(map->reused);
  CHECK(measure::benchmarks_launching(*map, "copy") == std::vector<std::string>{"BM_Copy", "BM_Both"});
  CHECK(measure::benchmarks_launching(*map, "copy_strided") == std::vector<std::string>{"BM_Strided", "BM_Both"});
  CHECK(measure::benchmarks_launching(*map, "scale").empty());

  auto again = measure::learn_harness_map(r.request(), plain_shell(runs));
  REQUIRE(again);
  CHECK(runs == 4);
  CHECK(again->reused);
  CHECK(again->launches == map->launches);
}

TEST_CASE("learned harness map: a list or a benchmark that fails is an error naming the command and its last line") {
  BenchRepo r;
  int runs = 0;
  SECTION("the list") {
    r.harness.list = "echo 'no such target' >&2; exit 2";
    auto map = measure::learn_harness_map(r.request(), plain_shell(runs));
    REQUIRE_FALSE(map);
    CHECK_THAT(map.error().message, Contains("harness 'bench' (.kforecast.toml:1): list `") &&
                                        Contains("failed (exit 2): no such target"));
  }
  SECTION("an empty list") {
    r.harness.list = "true";
    auto map = measure::learn_harness_map(r.request(), plain_shell(runs));
    REQUIRE_FALSE(map);
    CHECK_THAT(map.error().message, Contains("printed no benchmark name"));
  }
  SECTION("a benchmark") {
    r.harness.list = "echo BM_Missing";
    auto map = measure::learn_harness_map(r.request(), plain_shell(runs));
    REQUIRE_FALSE(map);
    CHECK_THAT(map.error().message, Contains("learning which kernels `sh bench.sh '^(BM_Missing)$'` launches: failed "
                                             "(exit 4): no benchmark BM_Missing"));
  }
}

TEST_CASE("learned harness map: the cached file is checked line by line") {
  CHECK(measure::parse_learned_map("# header\nBM_A\tcopy(float const*, float*, int)\n", "m.tsv")->launches.size() == 1);
  auto bad = measure::parse_learned_map("# header\nBM_A copy\n", "m.tsv");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Contains("m.tsv:2: expected BENCHMARK<TAB>KERNEL"));
}

namespace {

struct LearnedPr {
  BenchRepo r;
  test::Harness h;
  int runs = 0;
  std::vector<std::string> asked;
  LearnedPr() {
    const std::string bare = "__global__ void copy(const float* x, float* y, int n) {\n"
                             "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n";
    h.base_files = {{"k.cu", bare + "  if (i < n) y[i] = x[i];\n}\n"}};
    h.head_files = {{"k.cu", bare + "  if (i < n) y[i] = x[i] + 0.0f;\n}\n"}};
    h.answer = [](const std::string&) { return forecasters::KernelForecast{test::forecast_of(0.6, 0.3), "", "", {}}; };
    h.config_text = "[[harness]]\nname = \"bench\"\nrun = \"sh bench.sh '{filter}'\"\nformat = \"gbench\"\n"
                    "list = \"sh bench.sh --list\"\n";
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
    h.measure_with_harness = [this](const harness::HarnessRequest& request, const harness::HarnessProgress&) {
      asked.push_back(request.map.benchmarks);
      auto result = test::measured(bench::Verdict::same, 1.0, 2.0);
      result.gpu = "harness 'bench' (gbench): " + request.map.benchmarks;
      return Result<bench::Measurement>(result);
    };
  }
};

bool has_note(const std::vector<std::string>& notes, const std::string& text) {
  return std::ranges::any_of(notes, [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("learned harness map: pr runs only the benchmarks that launch the changed kernel") {
  LearnedPr pr;
  auto result = pr.h.run();
  REQUIRE(result);
  INFO(fmt::format("{}", fmt::join(result->run.notes, "\n")));
  CHECK(pr.asked == std::vector<std::string>{"^(BM_Copy|BM_Both)$"});
  CHECK(test::only_entry(*result).decision == report::Decision::measured);
  CHECK(has_note(result->run.notes, "harness 'bench': map learned by capture at the base revision (4 benchmark-kernel "
                                    "pairs)"));
}

TEST_CASE("learned harness map: without a GPU the map is not learned, and the run says why") {
  LearnedPr pr;
  pr.h.no_gpu = "no GPU here (fake)";
  auto result = pr.h.run();
  REQUIRE(result);
  INFO(fmt::format("{}", fmt::join(result->run.notes, "\n")));
  CHECK(pr.runs == 0);
  CHECK(pr.asked.empty());
  CHECK(has_note(result->run.notes, "harness 'bench' has no [[harness.map]] and its map was not learned: no GPU here "
                                    "(fake)"));
  CHECK(test::only_entry(*result).unverified);
}

// The run command is read by `sh -c` with each name put into {filter}: a name the listed program
// printed holding a quote or `$(...)` would end the quoting and run a command.
TEST_CASE("learned harness map: a listed name a shell would act on is never put into a command") {
  BenchRepo r;
  int runs = 0;
  const fs::path marker = r.cache.path() / "ran";
  r.harness.list = fmt::format(
      "printf '%s\\n' \"BM_Copy\" \"x'; touch {0}; '\" 'x$(touch {0})' 'x`touch {0}`' \"x\\\"\"", marker.string());
  auto map = measure::learn_harness_map(r.request(), plain_shell(runs));
  INFO((map ? std::string() : map.error().message));
  REQUIRE(map);
  CHECK(runs == 2);  // the list, then BM_Copy alone
  CHECK_FALSE(fs::exists(marker));
  CHECK(measure::benchmarks_launching(*map, "copy") == std::vector<std::string>{"BM_Copy"});

  auto forged = measure::parse_learned_map("BM_A'; touch x; '\tcopy\n", "m.tsv");
  REQUIRE_FALSE(forged);
  CHECK_THAT(forged.error().message, Contains("m.tsv:1: a benchmark name holds a character a shell would act on"));
  CHECK(harness::fits_in_command("BM_gemm/1024/256"));
  CHECK(harness::fits_in_command("test_x[fp16-128]"));
  CHECK_FALSE(harness::fits_in_command("a'b"));
  CHECK_FALSE(harness::fits_in_command("a$(b)"));
}
