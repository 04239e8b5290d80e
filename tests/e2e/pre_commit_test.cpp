// SPDX-License-Identifier: Apache-2.0
// The pre-commit framework (Debian's `pre-commit`, installed by scripts/setup.sh) running
// kforecast's .pre-commit-hooks.yaml in a fixture repository, offline: the hook repository is a
// local git repository holding this checkout's manifest, and the hook (language: system) runs the
// built binary from PATH. Skipped (exit 77) only where pre-commit is not installed.

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() {
  auto found = kforecast::run_process({"sh", "-c", "command -v pre-commit"});
  if (!found || found->exit_status != 0) return "pre-commit is not installed (scripts/setup.sh installs it)";
  return std::nullopt;
}

namespace {

struct PreCommitSandbox {
  std::filesystem::path root;
  PreCommitSandbox() {
    root = std::filesystem::temp_directory_path() / ("kf-precommit-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root);
    std::filesystem::create_directories(root / "bin");
    std::filesystem::create_directories(root / "home");
    std::filesystem::create_symlink(KF_BINARY, root / "bin/kforecast");
  }
  ~PreCommitSandbox() { std::filesystem::remove_all(root); }

  // A clean environment: the sandbox's home and pre-commit cache, kforecast first on PATH.
  kforecast::ProcessOutput run(const std::filesystem::path& cwd, std::vector<std::string> args) const {
    std::vector<std::string> argv{"env",
                                  "-i",
                                  "PATH=" + (root / "bin").string() + ":/usr/local/bin:/usr/bin:/bin",
                                  "HOME=" + (root / "home").string(),
                                  "PRE_COMMIT_HOME=" + (root / "home/cache").string(),
                                  "KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so",
                                  "GIT_AUTHOR_NAME=t",
                                  "GIT_AUTHOR_EMAIL=t@t.invalid",
                                  "GIT_COMMITTER_NAME=t",
                                  "GIT_COMMITTER_EMAIL=t@t.invalid"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto result =
        kforecast::run_process(argv, {.working_directory = cwd.string(), .timeout = std::chrono::seconds(120)});
    REQUIRE(result.has_value());
    return *result;
  }
};

std::string read_manifest() {
  std::ifstream file(std::string(KF_SOURCE_DIR) + "/.pre-commit-hooks.yaml");
  REQUIRE(file.good());
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("e2e: the pre-commit framework runs kforecast-lint: an error blocks the commit, a warning does not") {
  const PreCommitSandbox sandbox;
  FixtureRepo hooks;
  hooks.write(".pre-commit-hooks.yaml", read_manifest());
  const std::string rev = hooks.commit("kforecast hooks");

  FixtureRepo repo;
  repo.write(".pre-commit-config.yaml", "repos:\n  - repo: " + hooks.path().string() + "\n    rev: " + rev +
                                            "\n    hooks:\n      - id: kforecast-lint\n");
  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[threadIdx.x] = 1.0f;\n}\n");
  repo.commit("base");
  auto install = sandbox.run(repo.path(), {"pre-commit", "install"});
  INFO(install.out << install.err);
  REQUIRE(install.exit_status == 0);

  repo.write(
      "k.cu",
      "__global__ void k(float* __restrict__ x) {\n  if (threadIdx.x < 4) __syncthreads();\n  __syncthreads();\n}\n");
  repo.git({"add", "k.cu"});
  auto blocked = sandbox.run(repo.path(), {"git", "commit", "-m", "divergent barrier"});
  INFO(blocked.out << blocked.err);
  CHECK(blocked.exit_status != 0);
  CHECK_THAT(blocked.out + blocked.err, Contains("kforecast lint (CUDA performance)"));
  CHECK_THAT(blocked.out + blocked.err, Contains("[syncthreads-in-divergent-branch]"));
  CHECK(repo.git({"rev-list", "--count", "HEAD"}) == "1\n");

  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[threadIdx.x] *= 0.1;\n}\n");
  repo.git({"add", "k.cu"});
  auto allowed = sandbox.run(repo.path(), {"git", "commit", "-m", "a warning only"});
  INFO(allowed.out << allowed.err);
  CHECK(allowed.exit_status == 0);
  CHECK(repo.git({"rev-list", "--count", "HEAD"}) == "2\n");

  // A commit without CUDA files does not run the hook at all (files: in the manifest).
  repo.write("README.md", "text\n");
  repo.git({"add", "README.md"});
  auto skipped = sandbox.run(repo.path(), {"git", "commit", "-m", "docs"});
  CHECK(skipped.exit_status == 0);
  CHECK_THAT(skipped.out + skipped.err, Contains("(no files to check)Skipped"));
}

TEST_CASE("e2e: pre-commit run --all-files and --from-ref/--to-ref lint the files pre-commit names") {
  const PreCommitSandbox sandbox;
  FixtureRepo hooks;
  hooks.write(".pre-commit-hooks.yaml", read_manifest());
  const std::string rev = hooks.commit("kforecast hooks");

  // The error is committed without the hook (as in a clone that never installed it): nothing is
  // staged when pre-commit runs.
  FixtureRepo repo;
  repo.write(".pre-commit-config.yaml", "repos:\n  - repo: " + hooks.path().string() + "\n    rev: " + rev +
                                            "\n    hooks:\n      - id: kforecast-lint\n");
  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[threadIdx.x] = 1.0f;\n}\n");
  repo.commit("base");
  repo.write(
      "k.cu",
      "__global__ void k(float* __restrict__ x) {\n  if (threadIdx.x < 4) __syncthreads();\n  __syncthreads();\n}\n");
  repo.commit("divergent barrier");

  auto all = sandbox.run(repo.path(), {"pre-commit", "run", "--all-files"});
  INFO(all.out << all.err);
  CHECK(all.exit_status != 0);
  CHECK_THAT(all.out + all.err, Contains("k.cu:2:"));
  CHECK_THAT(all.out + all.err, Contains("[syncthreads-in-divergent-branch]"));
  CHECK_THAT(all.out + all.err, !Contains("Passed"));

  auto range = sandbox.run(repo.path(), {"pre-commit", "run", "--from-ref", "HEAD~1", "--to-ref", "HEAD"});
  INFO(range.out << range.err);
  CHECK(range.exit_status != 0);
  CHECK_THAT(range.out + range.err, Contains("[syncthreads-in-divergent-branch]"));

  // Named files only: a range that touched no CUDA file runs nothing.
  repo.write("README.md", "text\n");
  repo.commit("docs");
  auto docs = sandbox.run(repo.path(), {"pre-commit", "run", "--from-ref", "HEAD~1", "--to-ref", "HEAD"});
  CHECK(docs.exit_status == 0);
  CHECK_THAT(docs.out + docs.err, Contains("(no files to check)Skipped"));
}

TEST_CASE("e2e: pre-commit shows kforecast's warnings on a commit that passes") {
  const PreCommitSandbox sandbox;
  FixtureRepo hooks;
  hooks.write(".pre-commit-hooks.yaml", read_manifest());
  const std::string rev = hooks.commit("kforecast hooks");
  FixtureRepo repo;
  repo.write(".pre-commit-config.yaml", "repos:\n  - repo: " + hooks.path().string() + "\n    rev: " + rev +
                                            "\n    hooks:\n      - id: kforecast-lint\n");
  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[threadIdx.x] = 1.0f;\n}\n");
  repo.commit("base");
  REQUIRE(sandbox.run(repo.path(), {"pre-commit", "install"}).exit_status == 0);

  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[threadIdx.x] *= 0.1;\n}\n");
  repo.git({"add", "k.cu"});
  auto committed = sandbox.run(repo.path(), {"git", "commit", "-m", "a warning only"});
  INFO(committed.out << committed.err);
  CHECK(committed.exit_status == 0);
  CHECK_THAT(committed.out + committed.err, Contains("k.cu:2:"));
  CHECK_THAT(committed.out + committed.err, Contains("warning:"));
  CHECK(repo.git({"rev-list", "--count", "HEAD"}) == "2\n");
}
