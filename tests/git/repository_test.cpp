// SPDX-License-Identifier: Apache-2.0
#include "git/repository.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_repo.hpp"

using namespace kforecast;
using namespace kforecast::git;
using Catch::Matchers::Contains;
using kforecast::testing::FixtureRepo;

namespace {
std::unique_ptr<Repository> open(const FixtureRepo& fixture) {
  auto repository = open_repository(fixture.path());
  REQUIRE(repository.has_value());
  return std::move(*repository);
}
}  // namespace

TEST_CASE("git: opening a repository") {
  FixtureRepo fixture;
  fixture.write("src/a.cu", "x\n");
  auto from_subdirectory = open_repository(fixture.path() / "src");
  REQUIRE(from_subdirectory.has_value());
  CHECK(std::filesystem::equivalent((*from_subdirectory)->root(), fixture.path()));
  SECTION("a directory outside any repository") {
    auto outside = open_repository("/");
    REQUIRE_FALSE(outside.has_value());
    CHECK(outside.error().exit_code == ExitCode::usage);
    CHECK_THAT(outside.error().message, Contains("not inside a git work tree"));
  }
  SECTION("a directory that does not exist") {
    auto missing = open_repository(fixture.path() / "nope");
    REQUIRE_FALSE(missing.has_value());
    CHECK_THAT(missing.error().message, Contains("is not a directory"));
  }
}

TEST_CASE("git: resolving revisions") {
  FixtureRepo fixture;
  fixture.write("a.cu", "one\n");
  const std::string first = fixture.commit("first");
  fixture.write("a.cu", "two\n");
  const std::string second = fixture.commit("second");
  auto repository = open(fixture);
  CHECK(repository->resolve("HEAD")->sha == second);
  CHECK(repository->resolve("HEAD~1")->sha == first);
  CHECK(repository->resolve("main")->spelled == "main");
  SECTION("a revision that names nothing is a usage error naming it") {
    auto bad = repository->resolve("no-such-branch");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().exit_code == ExitCode::usage);
    CHECK_THAT(bad.error().message, Contains("'no-such-branch' names no commit"));
  }
  SECTION("a revision is never passed to git as an option") {
    auto option = repository->resolve("--output=/tmp/kf-pwned");
    REQUIRE_FALSE(option.has_value());
    CHECK_FALSE(std::filesystem::exists("/tmp/kf-pwned"));
  }
  SECTION("merge-base") { CHECK(*repository->merge_base(first, second) == first); }
}

TEST_CASE("git: the diff ignores the user's diff configuration") {
  FixtureRepo fixture;
  const std::string body = "__global__ void k(float* x) {\n  int i = threadIdx.x;\n  x[i] = 2 * x[i];\n}\n";
  fixture.write("k.cu", body);
  const std::string base = fixture.commit("base");
  fixture.git({"config", "diff.noprefix", "true"});
  fixture.git({"config", "diff.mnemonicPrefix", "true"});
  fixture.git({"config", "color.diff", "always"});
  fixture.git({"mv", "k.cu", "kernel.cu"});
  fixture.write("kernel.cu", body + "// renamed\n");
  fixture.write("new file.cuh", "#pragma once\n");
  const std::string head = fixture.commit("head");
  auto diff = open(fixture)->diff(base, head);
  REQUIRE(diff.has_value());
  CHECK_THAT(*diff, Contains("diff --git a/k.cu b/kernel.cu"));
  CHECK_THAT(*diff, Contains("+++ b/new file.cuh"));
  CHECK_THAT(*diff, !Contains("\x1b["));
  CHECK_THAT(*diff, Contains("@@ -4,0 +5 @@"));  // --unified=0: no context lines
}

TEST_CASE("git: the staged diff is the index against HEAD") {
  FixtureRepo fixture;
  fixture.write("a.cu", "one\n");
  fixture.commit("first");
  fixture.write("a.cu", "staged\n");
  fixture.git({"add", "a.cu"});
  fixture.write("a.cu", "not staged\n");
  auto diff = open(fixture)->staged_diff();
  REQUIRE(diff.has_value());
  CHECK_THAT(*diff, Contains("+staged"));
  CHECK_THAT(*diff, !Contains("not staged"));
}

TEST_CASE("git: reading files at a revision and from the index, in one batch") {
  FixtureRepo fixture;
  fixture.write("a.cu", "first a\n");
  fixture.write("dir/b c.cuh", std::string("binary\0bytes\n", 13));
  const std::string first = fixture.commit("first");
  fixture.write("a.cu", "second a\n");
  fixture.commit("second");
  fixture.write("a.cu", "index a\n");
  fixture.git({"add", "a.cu"});
  auto repository = open(fixture);
  auto files = repository->read_files(first, {"a.cu", "dir/b c.cuh", "missing.cu", "dir"});
  REQUIRE(files.has_value());
  CHECK(files->at("a.cu") == "first a\n");
  CHECK(files->at("dir/b c.cuh") == std::string("binary\0bytes\n", 13));
  CHECK_FALSE(files->at("missing.cu").has_value());
  CHECK_FALSE(files->at("dir").has_value());  // a tree, not a file
  auto index = repository->read_files("", {"a.cu"});
  REQUIRE(index.has_value());
  CHECK(index->at("a.cu") == "index a\n");
  SECTION("a path with a line break is refused, not misread") {
    auto bad = repository->read_files(first, {"a\nb.cu"});
    REQUIRE_FALSE(bad.has_value());
    CHECK_THAT(bad.error().message, Contains("line break"));
  }
}

TEST_CASE("git: listing the files at a revision and in the index") {
  FixtureRepo fixture;
  fixture.write("a.cu", "a\n");
  fixture.write("dir/with space.cuh", "b\n");
  const std::string first = fixture.commit("first");
  fixture.write("new.cu", "c\n");
  fixture.git({"add", "new.cu"});
  auto repository = open(fixture);
  CHECK(*repository->list_files(first) == std::vector<std::string>{"a.cu", "dir/with space.cuh"});
  CHECK(*repository->list_files("") == std::vector<std::string>{"a.cu", "dir/with space.cuh", "new.cu"});
}

TEST_CASE("git: trees with blob hashes, and blobs read once each") {
  FixtureRepo fixture;
  fixture.write("a.cu", "same\n");
  fixture.write("dir/b c.cuh", "b\n");
  fixture.git({"update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub"});
  const std::string first = fixture.commit("first");
  fixture.write("staged.cu", "same\n");
  fixture.git({"add", "staged.cu"});
  auto repository = open(fixture);
  auto tree = repository->list_tree(first);
  REQUIRE(tree.has_value());
  std::vector<std::string> paths;
  for (const auto& entry : *tree) paths.push_back(entry.path);
  CHECK(paths == std::vector<std::string>{"a.cu", "dir/b c.cuh"});  // not the submodule
  auto index = repository->list_tree("");
  REQUIRE(index.has_value());
  REQUIRE(index->size() == 3);
  CHECK(index->at(2).path == "staged.cu");
  CHECK(index->at(2).blob == tree->at(0).blob);  // same contents, same hash
  auto blobs = repository->read_blobs({tree->at(0).blob, index->at(2).blob, tree->at(1).blob});
  REQUIRE(blobs.has_value());
  CHECK(blobs->size() == 2);
  CHECK(blobs->at(tree->at(0).blob) == "same\n");
  CHECK(blobs->at(tree->at(1).blob) == "b\n");
  auto missing = repository->read_blobs({"0123456789012345678901234567890123456789"});
  REQUIRE_FALSE(missing.has_value());
  CHECK_THAT(missing.error().message, Contains("git has no object"));
}

namespace {
// The header lines of a diff (what changed, file by file), without its hunks.
std::string headers_of(std::string_view diff) {
  std::string out;
  for (std::size_t at = 0; at < diff.size();) {
    const std::size_t end = std::min(diff.find('\n', at), diff.size());
    const std::string_view line = diff.substr(at, end - at);
    for (const std::string_view start :
         {"diff --git ", "new file mode ", "deleted file mode ", "old mode ", "new mode ", "index "})
      if (line.starts_with(start)) (out += line) += '\n';
    at = end + 1;
  }
  return out;
}
}  // namespace

TEST_CASE("git: the changed files of a range, from the trees, are git diff's file headers") {
  FixtureRepo fixture;
  fixture.write("src/kernel.cu", "__global__ void k() {}\n");
  fixture.write("src/helper.cuh", "#pragma once\n");
  fixture.write("src/old.cu", "__global__ void gone() {}\n");
  fixture.write("src/dir/deep.cu", "a\n");
  fixture.write("src/dir-sibling.cu", "b\n");
  fixture.write("run.sh", "echo\n");
  fixture.write("image.bin", std::string("\0\1\2", 3));
  const std::string base = fixture.commit("base");
  auto repository = open(fixture);

  SECTION("modified, added, mode changed and binary files: the headers of git diff --full-index") {
    fixture.write("src/kernel.cu", "__global__ void k() { int x; }\n");
    fixture.write("src/dir/deep.cu", "a2\n");
    fixture.write("src/dir/new.cu", "__global__ void fresh() {}\n");
    fixture.write("image.bin", std::string("\0\1\3", 3));
    std::filesystem::permissions(fixture.path() / "run.sh", std::filesystem::perms::owner_exec,
                                 std::filesystem::perm_options::add);
    const std::string head = fixture.commit("head");
    const std::string git_headers = headers_of(fixture.git(
        {"diff", "--full-index", "--no-color", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/", base, head}));
    auto changed = repository->changed_files_diff(base, head);
    REQUIRE(changed.has_value());
    CHECK(*changed == git_headers);
    CHECK_THAT(*changed, Contains("new file mode 100644"));
    CHECK_THAT(*changed, Contains("old mode 100644\nnew mode 100755\n"));
  }
  SECTION("deleted files only") {
    std::filesystem::remove(fixture.path() / "src/old.cu");
    const std::string head = fixture.commit("head");
    const std::string git_headers = headers_of(fixture.git(
        {"diff", "--full-index", "--no-color", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/", base, head}));
    auto changed = repository->changed_files_diff(base, head);
    REQUIRE(changed.has_value());
    CHECK(*changed == git_headers);
    CHECK_THAT(*changed, Contains("deleted file mode 100644"));
  }
  SECTION("nothing changed") {
    const std::string head = fixture.commit("empty");
    auto changed = repository->changed_files_diff(base, head);
    REQUIRE(changed.has_value());
    CHECK(changed->empty());
  }
  SECTION("a file removed while another is added may be a rename: git's own diff") {
    std::filesystem::rename(fixture.path() / "src/old.cu", fixture.path() / "src/renamed.cu");
    const std::string head = fixture.commit("rename");
    auto changed = repository->changed_files_diff(base, head);
    REQUIRE(changed.has_value());
    CHECK(*changed == *repository->diff(base, head));
    CHECK_THAT(*changed, Contains("rename from src/old.cu"));
  }
  SECTION("a path git would quote, or with a space: git's own diff") {
    fixture.write("src/with space.cu", "x\n");
    fixture.write("src/caf\xc3\xa9.cu", "y\n");
    const std::string head = fixture.commit("names");
    auto changed = repository->changed_files_diff(base, head);
    REQUIRE(changed.has_value());
    CHECK(*changed == *repository->diff(base, head));
  }
  SECTION("a revision that names nothing is an error") {
    CHECK_FALSE(repository->changed_files_diff(base, "no-such-branch").has_value());
  }
}
