// SPDX-License-Identifier: Apache-2.0
// A confined process can read only what it was allowed and cannot grow past its memory limit.
// Each check runs in a forked child, since confinement lasts for the life of the process.

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/process_confinement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;

namespace {

// Runs `check` confined in a child; its exit code (0: as expected) comes back.
template <class Check>
int in_confined_child(const Confinement& confinement, Check check) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!confine_this_process(confinement)) ::_exit(90);
    ::_exit(check());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

bool readable(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

}  // namespace

TEST_CASE("base: a confined process reads only the folders it was given") {
  const auto support = file_confinement_support();
  INFO(support.detail);
  testing::TempDir allowed, forbidden;
  std::ofstream(allowed.path() / "ok.txt") << "ok";
  std::ofstream(forbidden.path() / "secret.txt") << "secret";
  REQUIRE(readable(forbidden.path() / "secret.txt"));

  Confinement confinement;
  confinement.readable = {allowed.path()};
  const int status = in_confined_child(confinement, [&] {
    if (!readable(allowed.path() / "ok.txt")) return 1;
    if (readable(forbidden.path() / "secret.txt")) return 2;
    if (readable("/proc/self/environ")) return 3;
    if (readable(std::filesystem::path("/proc") / std::to_string(::getppid()) / "environ")) return 4;
    return 0;
  });
  if (support.files_confined) {
    CHECK(status == 0);
  } else {
    // Without Landlock nothing confines reads; the detail must say so for `doctor` and notes.
    CHECK(status == 2);
    CHECK(support.detail.find("Landlock unavailable") != std::string::npos);
  }
}

TEST_CASE("base: a confined process cannot take more memory than its limit") {
  if (!address_space_limit_enforced()) {
    WARN("not checked in the sanitizer build, which runs children without an address-space limit");
    return;
  }
  Confinement confinement;
  confinement.readable = {"/"};
  confinement.max_memory_bytes = std::uint64_t{512} << 20;
  const int status = in_confined_child(confinement, [] {
    void* block = std::malloc(std::size_t{2} << 30);
    return block == nullptr ? 0 : 1;
  });
  CHECK(status == 0);
}
