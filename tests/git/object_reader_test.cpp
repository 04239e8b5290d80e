// SPDX-License-Identifier: Apache-2.0
#include "git/object_reader.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_repo.hpp"

using namespace kforecast;
using namespace kforecast::git;
using Catch::Matchers::Contains;
using kforecast::testing::FixtureRepo;

namespace {
ObjectReader start(const std::filesystem::path& directory) {
  auto reader = ObjectReader::start(directory);
  REQUIRE(reader.has_value());
  return std::move(*reader);
}
}  // namespace

TEST_CASE("git: one cat-file reads revisions, paths and blobs") {
  FixtureRepo fixture;
  fixture.write("a.cu", "first\n");
  fixture.write("dir/b c.cuh", std::string("binary\0bytes\n", 13));
  const std::string first = fixture.commit("first");
  ObjectReader reader = start(fixture.path() / "dir");  // any directory of the work tree
  auto objects =
      reader.read({"HEAD^{commit}", first + ":a.cu", "HEAD:dir/b c.cuh", "HEAD:missing.cu", "nope^{commit}"});
  REQUIRE(objects.has_value());
  REQUIRE(objects->size() == 5);
  CHECK((*objects)[0]->id == first);
  CHECK((*objects)[0]->type == "commit");
  CHECK((*objects)[1]->contents == "first\n");
  CHECK((*objects)[2]->contents == std::string("binary\0bytes\n", 13));
  CHECK_FALSE((*objects)[3].has_value());
  CHECK_FALSE((*objects)[4].has_value());
  SECTION("the same process answers again") {
    auto again = reader.read({first + ":a.cu"});
    REQUIRE(again.has_value());
    CHECK(again->front()->type == "blob");
  }
  SECTION("a blob larger than a pipe buffer") {
    fixture.write("big.cu", std::string(300000, 'x'));
    fixture.commit("big");
    auto big = reader.read({"HEAD:big.cu", "HEAD:a.cu"});
    REQUIRE(big.has_value());
    CHECK(big->at(0)->contents.size() == 300000);
    CHECK(big->at(1)->contents == "first\n");
  }
  SECTION("a name with a line break is refused, not misread") {
    auto bad = reader.read({"HEAD:a\nb.cu"});
    REQUIRE_FALSE(bad.has_value());
    CHECK_THAT(bad.error().message, Contains("line break"));
  }
}

TEST_CASE("git: a tree listed through cat-file is what git ls-tree -r lists") {
  FixtureRepo fixture;
  fixture.write("a.cu", "a\n");
  fixture.write("b/x.cuh", "x\n");
  fixture.write("b/deeper/y.h", "y\n");
  fixture.write("b-c.cu", "sorts between b and b/ in a tree\n");
  fixture.write("same1/s.cu", "s\n");  // two directories with the same tree
  fixture.write("same2/s.cu", "s\n");
  fixture.write("with space/\xc3\xa9t\xc3\xa9.cu", "non-ASCII name\n");
  fixture.write("run.sh", "#!/bin/sh\n");
  fixture.git({"update-index", "--add", "--chmod=+x", "run.sh"});
  std::filesystem::create_symlink("a.cu", fixture.path() / "link.cu");
  fixture.git({"update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub"});
  const std::string commit = fixture.commit("tree");

  ObjectReader reader = start(fixture.path());
  auto listed = reader.list_tree(commit);
  REQUIRE(listed.has_value());
  REQUIRE(listed->has_value());
  std::string ours;
  for (const auto& file : **listed) ours += file.blob + "\t" + file.path + '\n';
  // ls-tree -r -z without the submodule's commit entry, as "HASH\tPATH" lines.
  std::string theirs;
  const std::string listing = fixture.git({"ls-tree", "-r", "-z", commit});
  std::string_view rest = listing;
  while (!rest.empty()) {
    const auto end = rest.find('\0');
    const std::string_view record = rest.substr(0, end);
    rest.remove_prefix(end + 1);
    if (record.find(" blob ") == std::string_view::npos) continue;
    const auto tab = record.find('\t');
    theirs += std::string(record.substr(tab - 40, 40)) + "\t" + std::string(record.substr(tab + 1)) + '\n';
  }
  CHECK(ours == theirs);
  CHECK_THAT(ours, !Contains("sub"));
  SECTION("a revision that names no tree") {
    auto missing = reader.list_tree("no-such-branch");
    REQUIRE(missing.has_value());
    CHECK_FALSE(missing->has_value());
  }
}

TEST_CASE("git: a cat-file outside any repository reports git's own message") {
  auto reader = ObjectReader::start("/");
  REQUIRE(reader.has_value());
  auto objects = reader->read({"HEAD"});
  REQUIRE_FALSE(objects.has_value());
  CHECK_THAT(objects.error().message, Contains("not a git repository"));
}
