// SPDX-License-Identifier: Apache-2.0
// admit_include_folder: folders inside the repository, or existing system folders under /usr
// and /opt; nothing else.
#include "context/include_folder.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
namespace fs = std::filesystem;

namespace {

// Existing folders: /usr/local/cuda/include, /opt/nvidia/include, and /usr/lib/evil which is a
// symlink to /etc.
FolderLookup fake_folders() {
  return {[](const fs::path& folder) -> std::optional<fs::path> {
    if (folder == "/usr/local/cuda/include" || folder == "/opt/nvidia/include") return folder;
    if (folder == "/usr/lib/evil") return fs::path("/etc");
    return std::nullopt;
  }};
}

const FolderPlace place{"/work/repo", "/work/repo/build"};

std::expected<std::string, std::string> admit(std::string_view folder) {
  return admit_include_folder(folder, place, fake_folders());
}

}  // namespace

TEST_CASE("include folder: folders inside the repository become repository-relative") {
  CHECK(admit("/work/repo/include") == "include");
  CHECK(admit("/work/repo/include/") == "include");
  CHECK(admit("../src") == "src");  // relative to the working directory, build/
  CHECK(admit("/work/repo") == ".");
  CHECK(admit("..") == ".");
  CHECK(admit("/work/repo/build/../third_party/cutlass/include") == "third_party/cutlass/include");
  CHECK(admit("/work/repo/..hidden") == "..hidden");  // a folder whose name begins with dots is still inside
}

TEST_CASE("include folder: existing system folders under /usr and /opt are kept as they are") {
  CHECK(admit("/usr/local/cuda/include") == "/usr/local/cuda/include");
  CHECK(admit("/opt/nvidia/include") == "/opt/nvidia/include");
}

TEST_CASE("include folder: everything else is refused, with the reason") {
  const std::string outside = "outside the repository, and not a system folder under /usr or /opt";
  CHECK(admit("/etc") == std::unexpected(outside));
  CHECK(admit("/proc/self") == std::unexpected(outside));
  CHECK(admit("/dev") == std::unexpected(outside));
  CHECK(admit("/home/runner/.ssh") == std::unexpected(outside));
  CHECK(admit("../..") == std::unexpected(outside));
  CHECK(admit("/work/repo/../other") == std::unexpected(outside));
  CHECK(admit("/usr/../etc") == std::unexpected(outside));
  CHECK(admit("/work/repo/.git") == std::unexpected(std::string("inside .git")));
  CHECK(admit("../.git/hooks") == std::unexpected(std::string("inside .git")));
  CHECK(admit("/usr/include/nothing-here") == std::unexpected(std::string("not an existing folder")));
  CHECK(admit("/usr/lib/evil") == std::unexpected(std::string("leads outside /usr and /opt through a symbolic link")));
  CHECK(admit("") == std::unexpected(std::string("an empty folder name")));
}
