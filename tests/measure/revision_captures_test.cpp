// SPDX-License-Identifier: Apache-2.0
// pr's captures come from the revisions compared: a committed capture.dir is read at the base for
// a kernel the base has (both sides replay it) and at the head for a kernel only the head has,
// never from the work tree's uncommitted files; a capture.dir outside the repository is used as
// it is. On real git repositories with recorded captures.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "capture/capture_lookup.hpp"
#include "capture/capture_reader.hpp"
#include "capture/recorded_capture.hpp"
#include "config/config.hpp"
#include "measure/bench_measure.hpp"
#include "measure/revision_captures.hpp"
#include "support/bench_world.hpp"
#include "support/run_gate_harness.hpp"
#include "support/fixture_repo.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using namespace kforecast::measure;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

const std::string copy_file = std::string(KF_SOURCE_DIR) + "/fixtures/bench/copy.cu";

config::Config parsed(const std::string& text) {
  auto config = config::parse_config(text, ".kforecast.toml");
  REQUIRE(config);
  return *config;
}

// The grid's x of the one capture file in `folder` (one folder per kernel below it).
std::uint32_t grid_x_of_capture_in(const fs::path& folder, const std::string& kernel) {
  auto found = capture::find_captures(folder, {"", kernel});
  REQUIRE(found.files.size() == 1);
  auto read = capture::read_capture_file(found.files.front());
  REQUIRE(read);
  return read->grid[0];
}

// A repository whose base commits copy's capture of 1024 elements (grid 4); the head changes it
// to 2048 (grid 8) and adds copy_strided's (a kernel new in the head, 512: grid 2); the work tree
// then holds an uncommitted 4096 (grid 16) of copy.
struct CapturedRepo {
  testing::FixtureRepo repo;
  std::string base, head;
  fs::path dir() const { return repo.path() / ".kforecast" / "captures"; }
  CapturedRepo() {
    repo.write("README", "captures\n");
    testing::write_capture(dir() / "copy", testing::copy_capture(1024), "copy-0");
    base = repo.commit("base");
    testing::write_capture(dir() / "copy", testing::copy_capture(2048), "copy-0");
    testing::write_capture(dir() / "strided", testing::copy_capture(512, "copy_strided"), "copy_strided-0");
    head = repo.commit("head");
    testing::write_capture(dir() / "copy", testing::copy_capture(4096), "copy-0");
  }
};

}  // namespace

TEST_CASE("revision captures: a committed capture.dir is read at the base and at the head, not the work tree") {
  CapturedRepo r;
  testing::TempDir scratch;
  auto folders = measure::revision_capture_folders(parsed(""), r.repo.path(), r.base, r.head, scratch.path(), testing::git_opener());
  REQUIRE(folders);
  CHECK(folders->reference.string().starts_with(scratch.path().string()));
  CHECK(grid_x_of_capture_in(folders->reference, "copy") == 4);
  CHECK(grid_x_of_capture_in(folders->candidate, "copy") == 8);
  CHECK(grid_x_of_capture_in(folders->candidate, "copy_strided") == 2);
  CHECK(capture::find_captures(folders->reference, {"", "copy_strided"}).files.empty());  // not at the base
  CHECK(folders->reference_origin == fmt::format("the base revision {}'s .kforecast/captures", r.base.substr(0, 12)));
  CHECK(folders->candidate_origin == fmt::format("the head revision {}'s .kforecast/captures", r.head.substr(0, 12)));
}

TEST_CASE("revision captures: a head that is not a commit is the work tree's folder, and said so") {
  CapturedRepo r;
  testing::TempDir scratch;
  auto folders = measure::revision_capture_folders(parsed(""), r.repo.path(), r.base, "index", scratch.path(), testing::git_opener());
  REQUIRE(folders);
  CHECK(grid_x_of_capture_in(folders->reference, "copy") == 4);
  CHECK(folders->candidate == r.dir());
  CHECK(grid_x_of_capture_in(folders->candidate, "copy") == 16);
  CHECK_THAT(folders->candidate_origin, Contains("the work tree's .kforecast/captures (the head is the index"));
}

TEST_CASE("revision captures: a capture.dir outside the repository is used as it is for both sides") {
  CapturedRepo r;
  testing::TempDir cache, scratch;
  testing::write_capture(cache.path() / "copy", testing::copy_capture(8192), "copy-0");
  auto folders = measure::revision_capture_folders(parsed(fmt::format("[capture]\ndir = \"{}\"\n", cache.path().string())),
                                          r.repo.path(), r.base, r.head, scratch.path(), testing::git_opener());
  REQUIRE(folders);
  CHECK(folders->reference == cache.path());
  CHECK(folders->candidate == cache.path());
  CHECK_THAT(folders->reference_origin, Contains("outside the repository: used as it is"));
  CHECK(fs::is_empty(scratch.path()));
}

TEST_CASE("revision captures: a base without capture.dir finds nothing there, and the revision git lacks is an error") {
  testing::FixtureRepo repo;
  repo.write("README", "no captures\n");
  const auto base = repo.commit("base");
  testing::TempDir scratch;
  auto folders = measure::revision_capture_folders(parsed(""), repo.path(), base, base, scratch.path(), testing::git_opener());
  REQUIRE(folders);
  CHECK(capture::find_captures(folders->reference, {"", "copy"}).files.empty());

  auto missing = measure::revision_capture_folders(parsed(""), repo.path(), "0123456789abcdef0123456789abcdef01234567", base,
                                          scratch.path(), testing::git_opener());
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message, Contains("cannot read capture.dir .kforecast/captures at the base revision 0123456789ab"));
}

TEST_CASE("revision captures: the base's capture measures a kernel the base has, the head's one new in the head") {
  CapturedRepo r;
  testing::TempDir scratch;
  auto folders = measure::revision_capture_folders(parsed(""), r.repo.path(), r.base, r.head, scratch.path(), testing::git_opener());
  REQUIRE(folders);
  static const EnvLookup env = fixed_environment({});
  const auto config = parsed("");

  measure::BenchPair same{copy_file + ":copy_strided", copy_file + ":copy_strided", "", ""};
  same.capture_folders = *folders;
  // copy_strided has no capture at the base: the head's (its spec-less twin in copy.cu is the
  // kernel measured here; in pr it would be a kernel the head adds or renames).
  auto from_head = measure::prepare_pair(same, config, testing::bench_world(env));
  REQUIRE(from_head);
  REQUIRE(from_head->replay.captures.size() == 1);
  CHECK(from_head->replay.captures[0].capture.grid[0] == 2);
  CHECK(from_head->replay.origin == folders->candidate_origin);
}

TEST_CASE("revision captures: pr replays the base revision's committed capture, and the report says so") {
  CapturedRepo r;
  test::Harness h;
  const std::string bare = "__global__ void copy(const float* x, float* y, int n) {\n"
                           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n";
  h.base_files = {{"k.cu", bare + "  if (i < n) y[i] = x[i];\n}\n"}};
  h.head_files = {{"k.cu", bare + "  if (i < n) y[i] = x[i] + 0.0f;\n}\n"}};
  h.answer = [](const std::string&) { return forecasters::KernelForecast{test::forecast_of(0.6, 0.3), "", "", {}}; };
  h.no_gpu = std::nullopt;
  h.base_revision = r.base;
  h.head_revision = r.head;
  h.repository_root = r.repo.path();
  std::uint32_t replayed_grid = 0;
  h.measure = [&](const ChildRequest& request) {
    // The folder pr hands the child: the base's capture, written from git (the work tree's is 16).
    auto found = capture::capture_files_at(request.pair.capture);
    REQUIRE(found);
    REQUIRE(found->size() == 1);
    auto read = capture::read_capture_file(found->front());
    REQUIRE(read);
    replayed_grid = read->grid[0];
    return Result<bench::Measurement>(test::measured(bench::Verdict::same, 1.0, 1.0));
  };
  auto result = h.run();
  REQUIRE(result);
  CHECK(h.measurements_asked == 1);
  CHECK(replayed_grid == 4);
  const auto& entry = test::only_entry(*result);
  INFO(fmt::format("{}", fmt::join(entry.notes, "\n")));
  CHECK(entry.decision == report::Decision::measured);
  CHECK(std::ranges::any_of(entry.notes, [&](const std::string& note) {
    return note == fmt::format("measurement: captures from the base revision {}'s .kforecast/captures; both sides "
                               "replayed them",
                               r.base.substr(0, 12));
  }));
}

TEST_CASE("revision captures: untracked captures in the work tree (recorded or restored there) serve both sides") {
  testing::FixtureRepo repo;
  repo.write(".gitignore", ".kforecast/\n");
  const auto base = repo.commit("base");
  repo.write("README", "head\n");
  const auto head = repo.commit("head");
  testing::write_capture(repo.path() / ".kforecast" / "captures" / "copy", testing::copy_capture(1024), "copy-0");
  testing::TempDir scratch;
  auto folders = measure::revision_capture_folders(parsed(""), repo.path(), base, head, scratch.path(), testing::git_opener());
  REQUIRE(folders);
  CHECK(grid_x_of_capture_in(folders->reference, "copy") == 4);
  CHECK(grid_x_of_capture_in(folders->candidate, "copy") == 4);
  CHECK(folders->reference_origin ==
        "the work tree's untracked .kforecast/captures (recorded or restored here, in no commit)");
}

TEST_CASE("revision captures: a committed capture keeps its revision's text over an untracked file") {
  CapturedRepo r;
  // An untracked second capture beside the committed one, and the work tree's edit of the
  // committed one (tracked: not used).
  testing::write_capture(r.dir() / "extra", testing::copy_capture(256, "copy_strided"), "copy_strided-0");
  testing::TempDir scratch;
  auto folders = measure::revision_capture_folders(parsed(""), r.repo.path(), r.base, r.head, scratch.path(), testing::git_opener());
  REQUIRE(folders);
  CHECK(grid_x_of_capture_in(folders->reference, "copy") == 4);
  CHECK(grid_x_of_capture_in(folders->reference, "copy_strided") == 1);  // the untracked one
  CHECK_THAT(folders->reference_origin, Contains("with the work tree's untracked files there"));
}

TEST_CASE("revision captures: without a repository (a shard outside a checkout) the folder is used as found, and said so") {
  testing::TempDir folder, scratch;
  testing::write_capture(folder.path() / ".kforecast" / "captures" / "copy", testing::copy_capture(1024), "copy-0");
  const std::string commit = "0123456789abcdef0123456789abcdef01234567";
  auto folders = measure::revision_capture_folders(parsed(""), folder.path(), commit, commit, scratch.path(), testing::git_opener());
  REQUIRE(folders);
  CHECK(grid_x_of_capture_in(folders->reference, "copy") == 4);
  CHECK_THAT(folders->reference_origin, Contains("as found here (no git repository to read the revisions from)"));
}
