// SPDX-License-Identifier: Apache-2.0
#include "measure/spec_check.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_repo.hpp"

using namespace kforecast;

namespace {

constexpr std::string_view good_kernel = R"spec(// kforecast:
// sizes = [{ n = 4096 }]
// grid = ["ceil_div(n, 256)"]
// block = [256]
// [kernel.args]
// x = { count = "n" }
// n = "n"
__global__ void scale(float* x, int n) { x[threadIdx.x] *= 2.0f; }
)spec";

config::Config config_of(std::string_view text) {
  auto config = config::parse_config(text, ".kforecast.toml");
  REQUIRE(config.has_value());
  return std::move(*config);
}

measure::SpecCheck check_in(const testing::FixtureRepo& repo, std::string_view config_text) {
  repo.commit("fixture");
  auto repository = git::open_repository(repo.path());
  REQUIRE(repository.has_value());
  return measure::check_launch_specs(config_of(config_text), repository->get());
}

bool any_contains(const std::vector<std::string>& lines, std::string_view text) {
  for (const auto& line : lines)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("spec check: good specs in both homes read, with no problem") {
  testing::FixtureRepo repo;
  repo.write("src/scale.cu", good_kernel);
  repo.write("src/copy.cu", "__global__ void copy(const float* a, float* b, int n) { b[0] = a[0]; }\n");
  const auto check = check_in(repo, R"spec([[kernel]]
name = "copy"
file = "src/copy.cu"
sizes = [{ n = 1024 }]
grid = ["ceil_div(n, 256)"]
block = [256]
[kernel.args]
a = { count = "n" }
b = { count = "n", role = "out" }
n = "n"
)spec");
  INFO(check.problems.size());
  CHECK(check.problems.empty());
  CHECK(check.config_specs == 1);
  CHECK(check.comment_specs == 1);
}

TEST_CASE("spec check: a comment block with an unknown size variable names its file and line") {
  testing::FixtureRepo repo;
  std::string text(good_kernel);
  text.replace(text.find("ceil_div(n"), 10, "ceil_div(q");
  repo.write("k/scale.cu", text);
  const auto check = check_in(repo, "");
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].starts_with("k/scale.cu:"));
  CHECK(check.problems[0].find("unknown size variable 'q'") != std::string::npos);
}

TEST_CASE("spec check: a config table naming a parameter the kernel lacks, a file without the kernel, a bad key") {
  testing::FixtureRepo repo;
  repo.write("a.cu", "__global__ void k(float* y, int n) { y[0] = 1.0f; }\n");
  const auto binding = check_in(repo, R"spec([[kernel]]
name = "k"
file = "a.cu"
sizes = [{ n = 1024 }]
grid = ["ceil_div(n, 256)"]
block = [256]
[kernel.args]
y = { count = "n", role = "out" }
m = "n"
)spec");
  CHECK(any_contains(binding.problems, "the kernel has no parameter 'm'"));

  const auto missing = check_in(repo, R"spec([[kernel]]
name = "other"
file = "a.cu"
sizes = [{ n = 1 }]
grid = [1]
block = [1]
)spec");
  CHECK(any_contains(missing.problems, "a.cu defines no kernel named 'other'"));

  const auto unknown = check_in(repo, R"spec([[kernel]]
name = "k"
sizes = [{ n = 1 }]
grid = [1]
block = [1]
bogus = 3
)spec");
  CHECK(any_contains(unknown.problems, ".kforecast.toml:6:1: [[kernel]] 'k': unknown key 'bogus'"));
}

TEST_CASE("spec check: without a repository only the config is read, and that is said") {
  const auto check = measure::check_launch_specs(config_of(""), nullptr);
  CHECK(check.problems.empty());
  REQUIRE(check.notes.size() == 1);
  CHECK(check.notes[0].find("not checked: not in a git repository") != std::string::npos);
}

TEST_CASE("spec check: a symbolic link is not followed out of the repository") {
  testing::FixtureRepo outside;
  std::string text(good_kernel);
  text.replace(text.find("ceil_div(n"), 10, "ceil_div(q");
  outside.write("secret.cu", text);
  testing::FixtureRepo repo;
  std::filesystem::create_symlink(outside.path() / "secret.cu", repo.path() / "link.cu");
  const auto check = check_in(repo, "");
  CHECK(check.problems.empty());  // the linked file's spec would be a problem, were it read
  CHECK(check.comment_specs == 0);
}

TEST_CASE("spec check: a config table naming a file outside the repository is refused, not read") {
  testing::FixtureRepo repo;
  const auto check = check_in(repo, R"spec([[kernel]]
name = "k"
file = "../../etc/passwd"
sizes = [{ n = 1 }]
grid = [1]
block = [1]
)spec");
  CHECK(any_contains(check.problems, "file '../../etc/passwd' is outside the repository"));
}
