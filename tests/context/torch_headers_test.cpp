// SPDX-License-Identifier: Apache-2.0
// find_torch_headers: torch's headers from the configured Python or a configured folder. The
// Python here is a stand-in script that answers as the real one does, so that each answer
// (torch installed, not installed, a CPU build without headers, garbage) can be given.
#include "context/torch_headers.hpp"

#include <sys/stat.h>

#include <fstream>

#include <catch2/catch.hpp>

#include "support/temp_dir.hpp"

using namespace kforecast::context;
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A torch package folder with headers and a version.py, as the wheel installs it.
fs::path torch_package(const fs::path& root) {
  write_file(root / "torch" / "include" / "torch" / "extension.h", "#pragma once\n");
  write_file(root / "torch" / "include" / "c10" / "util" / "Half.h", "#pragma once\n");
  write_file(root / "torch" / "version.py", "__version__ = '2.15.0+cu132'\ncuda = '13.2'\n");
  return root / "torch";
}

// A "python" that prints `answer` whatever it is asked.
std::string fake_python(const fs::path& root, const std::string& answer, int status = 0) {
  const fs::path script = root / "python";
  write_file(script, "#!/bin/sh\ncat <<'JSON'\n" + answer + "\nJSON\nexit " + std::to_string(status) + "\n");
  chmod(script.c_str(), 0755);
  return script.string();
}

}  // namespace

TEST_CASE("torch headers: the installed package the Python names, with its version and Python.h") {
  const kforecast::testing::TempDir dir;
  const fs::path package = torch_package(dir.path() / "site");
  write_file(dir.path() / "py" / "Python.h", "");
  const auto python = fake_python(
      dir.path(), R"({"torch": ")" + package.string() + R"(", "include": ")" + (dir.path() / "py").string() + R"("})");
  const auto found = find_torch_headers({python, ""});
  REQUIRE(found.has_value());
  CHECK(found->include == fs::canonical(package) / "include");
  CHECK(found->version == "2.15.0");
  CHECK(found->python_include == fs::canonical(dir.path() / "py"));
  CHECK(found->found_by == python + "'s torch 2.15.0 at " + fs::canonical(package).string());
}

TEST_CASE("torch headers: what is missing, and what to do") {
  const kforecast::testing::TempDir dir;
  SECTION("no torch installed") {
    const auto found = find_torch_headers({fake_python(dir.path(), R"({"torch": null, "include": "/nowhere"})"), ""});
    REQUIRE_FALSE(found.has_value());
    CHECK(found.error().find("has no torch package installed; install the torch wheel without its dependencies") !=
          std::string::npos);
  }
  SECTION("a torch without C++ headers (a CPU-only build)") {
    fs::create_directories(dir.path() / "cpu" / "torch" / "include" / "ATen");
    const auto answer = R"({"torch": ")" + (dir.path() / "cpu" / "torch").string() + R"("})";
    const auto found = find_torch_headers({fake_python(dir.path(), answer), ""});
    REQUIRE_FALSE(found.has_value());
    CHECK(found.error().find("has no C++ headers") != std::string::npos);
  }
  SECTION("a Python that fails, answers garbage, or does not exist") {
    CHECK(find_torch_headers({fake_python(dir.path(), "{}", 1), ""}).error().find("exit status 1") != std::string::npos);
    CHECK(find_torch_headers({fake_python(dir.path(), "not json"), ""}).error().find("no answer") != std::string::npos);
    CHECK(find_torch_headers({fake_python(dir.path(), "[1, 2]"), ""}).error().find("no answer") != std::string::npos);
    CHECK(find_torch_headers({(dir.path() / "no-such-python").string(), ""}).error().find("could not be run") !=
          std::string::npos);
  }
  SECTION("compile.python off and no folder") {
    CHECK(find_torch_headers({"off", ""}).error().starts_with("compile.python is \"off\""));
  }
}

TEST_CASE("torch headers: a configured torch/include folder") {
  const kforecast::testing::TempDir dir;
  const fs::path package = torch_package(dir.path());
  const auto found = find_torch_headers({"off", (package / "include").string()});
  REQUIRE(found.has_value());
  CHECK(found->version == "2.15.0");
  CHECK(found->python_include.empty());
  CHECK(found->found_by.starts_with("compile.torch_include ("));
  const auto wrong = find_torch_headers({"off", dir.path().string()});
  REQUIRE_FALSE(wrong.has_value());
  CHECK(wrong.error().find("is not a torch/include folder") != std::string::npos);
}

TEST_CASE("torch headers: version.py and version comparison") {
  CHECK(torch_version("__version__ = '2.8.0+cu128'\n") == "2.8.0");
  CHECK(torch_version("git_version = 'abc'\n__version__ = \"2.15.0\"\n") == "2.15.0");
  CHECK(torch_version("__version__ = get()\n'2.1'\n").empty());
  CHECK(torch_version("__version__ = '$(rm -rf /)'\n").empty());
  CHECK(torch_version("").empty());
  CHECK(torch_at_least("2.15.0", 2, 10));
  CHECK(torch_at_least("2.10.0", 2, 10));
  CHECK_FALSE(torch_at_least("2.9.1", 2, 10));
  CHECK(torch_at_least("3.0", 2, 10));
  CHECK_FALSE(torch_at_least("", 2, 10));
  CHECK_FALSE(torch_at_least("x.y", 2, 10));
}

TEST_CASE("torch headers: the CUDA libraries pip installed beside torch, never the toolkit's own headers") {
  const kforecast::testing::TempDir dir;
  const fs::path package = torch_package(dir.path() / "site");
  const fs::path nvidia = dir.path() / "site" / "nvidia";
  write_file(nvidia / "nvshmem" / "include" / "nvshmem.h", "");
  write_file(nvidia / "nccl" / "include" / "nccl.h", "");
  write_file(nvidia / "cu13" / "include" / "cuda_runtime.h", "");  // a toolkit bundle
  write_file(nvidia / "cu13" / "include" / "cublas_v2.h", "");
  write_file(nvidia / "cuda_cccl" / "include" / "cub" / "cub.cuh", "");  // CUDA 12's split toolkit
  fs::create_directories(nvidia / "no_headers" / "lib");
  const auto python = fake_python(dir.path(), R"({"torch": ")" + package.string() + R"(", "nvidia": [")" +
                                                  nvidia.string() + R"(", "/no/such/folder", 7]})");
  const auto found = find_torch_headers({python, ""});
  REQUIRE(found.has_value());
  const std::vector<fs::path> expected{fs::canonical(nvidia / "nccl" / "include"),
                                       fs::canonical(nvidia / "nvshmem" / "include")};
  CHECK(found->library_includes == expected);
}
