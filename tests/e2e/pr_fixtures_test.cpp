// SPDX-License-Identifier: Apache-2.0
// `kforecast pr` on real git repositories built from fixtures/pr/<case>/{base,head}: the exact
// set of changed kernels, their decisions and verdicts, the exit code, and where a case names
// them, notes the report must hold (fixtures/pr/README.md).
// Needs NVRTC, since the identical-code tier decides several cases; skipped (77) without it.

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "cuda/nvrtc.hpp"
#include "e2e.hpp"
#include "pr_fixture_cases.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
namespace fs = std::filesystem;

namespace {

// A kernel's string field, or "?".
std::string text(const nlohmann::json& kernel, const char* key) {
  return kernel.contains(key) && kernel.at(key).is_string() ? kernel.at(key).get<std::string>() : std::string("?");
}

// "change decision verdict file:name" per kernel of our own JSON report, sorted.
std::vector<std::string> kernel_lines(const std::string& json) {
  INFO(json);
  const auto report = nlohmann::json::parse(json, nullptr, false);
  REQUIRE(report.is_object());
  REQUIRE(report.contains("kernels"));
  const auto& kernels = report.at("kernels");
  REQUIRE(kernels.is_array());
  std::vector<std::string> lines;
  for (const auto& kernel : kernels)
    lines.push_back(fmt::format("{} {} {} {}:{}", text(kernel, "change"), text(kernel, "decision"),
                                text(kernel, "verdict"), text(kernel, "file"), text(kernel, "name")));
  std::sort(lines.begin(), lines.end());
  return lines;
}

// Every note of the report: the run's as written, each kernel's as "file:name: note".
std::set<std::string> report_notes(const std::string& json) {
  const auto report = nlohmann::json::parse(json, nullptr, false);
  std::set<std::string> notes;
  if (!report.is_object()) return notes;
  auto add_strings = [&](const nlohmann::json& list, const std::string& prefix) {
    if (!list.is_array()) return;
    for (const auto& note : list)
      if (note.is_string()) notes.insert(prefix + note.get<std::string>());
  };
  if (report.contains("notes")) add_strings(report.at("notes"), "");
  if (report.contains("kernels") && report.at("kernels").is_array())
    for (const auto& kernel : report.at("kernels"))
      if (kernel.is_object() && kernel.contains("notes"))
        add_strings(kernel.at("notes"), fmt::format("{}:{}: ", text(kernel, "file"), text(kernel, "name")));
  return notes;
}

// A file's non-empty lines; none where the file is absent.
std::vector<std::string> expected_lines(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_nvrtc(); }

TEST_CASE("e2e: kforecast pr on every fixture repository") {
  for (const auto& dir : pr_fixture_cases()) {
    INFO("fixture " << dir.filename().string());
    FixtureRepo repo;
    commit_pr_fixture(dir, repo);
    // No cache: the run must decide from the sources, not from an earlier run's PTX.
    auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(),
                             {"XDG_CACHE_HOME=" + (repo.path() / ".git/kf-cache").string()});
    INFO(run.err);
    auto expected = expected_lines(dir / "expected.txt");
    REQUIRE_FALSE(expected.empty());
    const std::string exit_line = expected.back();
    expected.pop_back();
    CHECK(kernel_lines(run.out) == expected);
    CHECK(fmt::format("exit {}", run.status) == exit_line);
    // Notes say why a kernel changed, or that one did not: the kernel lines alone cannot tell a
    // change the scan named from one only the machine code showed.
    const auto notes = report_notes(run.out);
    for (const auto& note : expected_lines(dir / "notes.txt")) {
      INFO("expected note: " << note);
      CHECK(notes.contains(note));
    }
  }
}

TEST_CASE("e2e: a second kforecast pr on the same change reads the forecast's NVRTC facts from the cache") {
  const fs::path dir = fs::path(KF_SOURCE_DIR) / "fixtures/pr/device_helper_two_deep";
  FixtureRepo repo;
  commit_pr_fixture(dir, repo);
  const fs::path cache = repo.path() / ".git/kf-cache";
  const std::vector<std::string> env{"XDG_CACHE_HOME=" + cache.string()};
  auto first = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(), env);
  INFO(first.out << first.err);
  // Both texts of the changed kernel were compiled, and their facts (here: compile errors, the
  // fixture includes <cstdio>) are now on disk.
  const fs::path facts = cache / "kforecast/facts";
  REQUIRE(fs::is_directory(facts));
  // Every entry by inode: a compile stores its entry again (a new file renamed into place), a
  // cache hit writes nothing, so unchanged inodes mean NVRTC was not asked for these facts.
  auto entries = [&] {
    std::map<std::string, ino_t> inodes;
    for (const auto& entry : fs::directory_iterator(facts)) {
      struct stat info {};
      REQUIRE(::stat(entry.path().c_str(), &info) == 0);
      inodes[entry.path().filename().string()] = info.st_ino;
    }
    return inodes;
  };
  const auto after_first = entries();
  CHECK(after_first.size() == 2);
  auto second = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(), env);
  INFO(second.out << second.err);
  CHECK(entries() == after_first);
  CHECK(second.status == first.status);
  // Same facts, same report.
  CHECK(second.out == first.out);
}
