// SPDX-License-Identifier: Apache-2.0
// parse_gitmodules and list_gitlinks: the submodules a revision records.
#include "git/submodules.hpp"

#include <filesystem>

#include <catch2/catch.hpp>

#include "git/repository.hpp"
#include "support/fixture_repo.hpp"

using namespace kforecast::git;

TEST_CASE("submodules: .gitmodules sections, quoting, comments and case") {
  const auto submodules = parse_gitmodules(R"(# vendored libraries
[submodule "csrc/cutlass"]
	path = csrc/cutlass
	url = https://github.com/NVIDIA/cutlass.git
[core]
	path = not/a/submodule
[Submodule "glm"]
	URL = "https://github.com/g-truc/glm.git" ; pinned
	Path = "third party/glm"  # spaces are kept
[submodule "no-path"]
	url = https://example.invalid/x.git
)");
  REQUIRE(submodules.size() == 2);
  CHECK(submodules[0].name == "csrc/cutlass");
  CHECK(submodules[0].path == "csrc/cutlass");
  CHECK(submodules[0].url == "https://github.com/NVIDIA/cutlass.git");
  CHECK(submodules[1].name == "glm");
  CHECK(submodules[1].path == "third party/glm");
  CHECK(submodules[1].url == "https://github.com/g-truc/glm.git");
}

TEST_CASE("submodules: hostile or broken .gitmodules gives what it can") {
  CHECK(parse_gitmodules("").empty());
  CHECK(parse_gitmodules("[submodule \"x\"]\npath = /etc\n[submodule \"y\"]\npath = a/../../out\n").empty());
  CHECK(parse_gitmodules("[submodule\npath = a\n").size() == 1);
  CHECK(parse_gitmodules("path = outside-any-section\n").empty());
  CHECK(parse_gitmodules("[submodule \"z\"]\n= no key\npath\n").empty());
}

TEST_CASE("submodules: the gitlinks a commit pins, by path and commit") {
  const kforecast::testing::FixtureRepo library;
  library.write("include/lib/util.h", "#pragma once\n");
  const std::string pinned = library.commit("library");
  const kforecast::testing::FixtureRepo project;
  project.write("k.cu", "__global__ void k() {}\n");
  project.git({"add", "-A"});
  // A gitlink alone, its folder not checked out (commit()'s add -A would drop it).
  project.git({"update-index", "--add", "--cacheinfo", "160000," + pinned + ",third_party/lib"});
  project.git({"commit", "-q", "-m", "with a submodule"});
  std::string head = project.git({"rev-parse", "HEAD"});
  head.pop_back();
  const auto links = list_gitlinks(project.path(), head);
  REQUIRE(links.has_value());
  REQUIRE(links->size() == 1);
  CHECK(links->front().path == "third_party/lib");
  CHECK(links->front().commit == pinned);
  CHECK_FALSE(list_gitlinks(project.path(), "no-such-revision").has_value());
}

TEST_CASE("submodules: a submodule's clone opens as its own repository, an empty folder does not") {
  const kforecast::testing::FixtureRepo library;
  library.write("include/lib/util.h", "#pragma once\n");
  library.commit("library");
  const kforecast::testing::FixtureRepo project;
  project.git({"-c", "protocol.file.allow=always", "submodule", "add", "-q", library.path().string(), "third_party/lib"});
  project.commit("with a submodule");
  std::filesystem::create_directories(project.path() / "third_party" / "empty");
  auto repository = open_repository(project.path());
  REQUIRE(repository.has_value());
  const auto clone = (*repository)->submodule("third_party/lib");
  REQUIRE(clone.has_value());
  CHECK((*clone)->root() == std::filesystem::canonical(project.path() / "third_party" / "lib"));
  CHECK_FALSE((*repository)->submodule("third_party/empty").has_value());
  CHECK_FALSE((*repository)->submodule("nowhere").has_value());
}
