// SPDX-License-Identifier: Apache-2.0
// add_submodule_headers: the headers a revision's files include from its submodules, read from
// the submodule's clone at the commit each revision pins, on real git repositories.
#include "change/submodule_sources.hpp"

#include <catch2/catch.hpp>

#include "support/fixture_repo.hpp"

using namespace kforecast;
using kforecast::testing::FixtureRepo;

namespace {

// A library with a header that includes another, a test copy of it outside include/, and a
// second version of the header.
struct Library {
  FixtureRepo repo;
  std::string first, second;
  Library() {
    repo.write("include/lib/util.h", "#pragma once\n#include <lib/detail.h>\n#define LIB_VERSION 1\n");
    repo.write("include/lib/detail.h", "#pragma once\n#include \"config.h\"\n#include \"../simd/platform.h\"\n");
    repo.write("include/simd/platform.h", "#pragma once\n#include \"../../../outside.h\"\n");
    repo.write("include/lib/config.h", "#pragma once\n");
    repo.write("test/lib/util.h", "#error the test copy is not the library's header\n");
    repo.write("include/lib/unused.h", "#pragma once\n");
    repo.write("test/stdlib/stdint.h", "#error a test's stand-in for the system header\n");
    first = repo.commit("v1");
    repo.write("include/lib/util.h", "#pragma once\n#include <lib/detail.h>\n#define LIB_VERSION 2\n");
    second = repo.commit("v2");
  }
};

// Commits the index as it is: commit()'s add -A would drop a gitlink whose folder is not checked out.
std::string commit_index(const FixtureRepo& repo, const std::string& message) {
  repo.git({"commit", "-q", "-m", message});
  std::string sha = repo.git({"rev-parse", "HEAD"});
  sha.pop_back();
  return sha;
}

kernels::SourceFiles unit_files() {
  return {{"src/k.cu", "#include <lib/util.h>\n#include <vector>\n#include <stdint.h>\n"}};
}

}  // namespace

TEST_CASE("submodule sources: each revision gets the headers of the commit it pins") {
  const Library library;
  const FixtureRepo project;
  project.write("src/k.cu", "#include <lib/util.h>\n");
  project.git({"-c", "protocol.file.allow=always", "submodule", "add", "-q", library.repo.path().string(), "third_party/lib"});
  project.git({"-C", "third_party/lib", "checkout", "-q", library.first});
  const std::string base = project.commit("pin v1");
  project.git({"-C", "third_party/lib", "checkout", "-q", library.second});
  const std::string head = project.commit("pin v2");
  auto repository = git::open_repository(project.path());
  REQUIRE(repository.has_value());

  kernels::SourceFiles base_files = unit_files(), head_files = unit_files();
  change::SubmoduleMemo memo;  // the head's reading reuses the base's clone
  CHECK(change::add_submodule_headers(**repository, base, "base", base_files, memo).empty());
  CHECK(change::add_submodule_headers(**repository, head, "head", head_files, memo).empty());
  REQUIRE(base_files.contains("third_party/lib/include/lib/util.h"));
  CHECK(base_files.at("third_party/lib/include/lib/util.h").find("LIB_VERSION 1") != std::string::npos);
  CHECK(head_files.at("third_party/lib/include/lib/util.h").find("LIB_VERSION 2") != std::string::npos);
  CHECK(base_files.contains("third_party/lib/include/lib/detail.h"));  // included by the library's own header
  CHECK(base_files.contains("third_party/lib/include/lib/config.h"));  // quoted, beside its includer
  CHECK(base_files.contains("third_party/lib/include/simd/platform.h"));  // '..' inside the submodule
  CHECK_FALSE(base_files.contains("third_party/lib/test/lib/util.h"));
  CHECK_FALSE(base_files.contains("third_party/lib/include/lib/unused.h"));
  CHECK_FALSE(base_files.contains("third_party/lib/test/stdlib/stdint.h"));  // the system's header
  CHECK(base_files.size() == 5);  // nothing from out of the submodule
}

TEST_CASE("submodule sources: a submodule not checked out, or without the pinned commit, is a note with the fix") {
  const Library library;
  const FixtureRepo project;
  project.write("src/k.cu", "#include <lib/util.h>\n");
  project.write(".gitmodules", "[submodule \"lib\"]\n\tpath = third_party/lib\n\turl = https://example.invalid/lib.git\n");
  project.git({"add", "-A"});
  project.git({"update-index", "--add", "--cacheinfo", "160000," + library.first + ",third_party/lib"});
  const std::string pinned = commit_index(project, "a submodule never checked out");
  auto repository = git::open_repository(project.path());
  REQUIRE(repository.has_value());
  kernels::SourceFiles files = unit_files();
  change::SubmoduleMemo memo;
  const auto notes = change::add_submodule_headers(**repository, pinned, "head", files, memo);
  REQUIRE(notes.size() == 1);
  CHECK(notes.front().starts_with("submodule not checked out: third_party/lib (https://example.invalid/lib.git); units "
                                  "that include its headers cannot be compiled"));
  CHECK(notes.front().find("submodules: recursive") != std::string::npos);
  CHECK(files.size() == 1);

  // Checked out now, but at another commit than the one pinned, which its clone lacks.
  project.git({"-c", "protocol.file.allow=always", "clone", "-q", library.repo.path().string(), "third_party/lib"});
  project.git({"update-index", "--add", "--cacheinfo", "160000,0123456789abcdef0123456789abcdef01234567,third_party/lib"});
  const std::string missing = commit_index(project, "pinned to a commit nobody has");
  const auto lacking = change::add_submodule_headers(**repository, missing, "head", files, memo);
  REQUIRE(lacking.size() == 1);
  CHECK(lacking.front().find("its clone lacks the commit the head pins (0123456789ab)") != std::string::npos);
}

TEST_CASE("submodule sources: a repository without .gitmodules reads nothing more") {
  const FixtureRepo project;
  project.write("src/k.cu", "#include <lib/util.h>\n");
  const std::string head = project.commit("plain");
  auto repository = git::open_repository(project.path());
  REQUIRE(repository.has_value());
  kernels::SourceFiles files = unit_files();
  change::SubmoduleMemo memo;
  CHECK(change::add_submodule_headers(**repository, head, "head", files, memo).empty());
  CHECK(files.size() == 1);
}

namespace {

// A fetcher that opens `library` for its URL (as the real one would after fetching), and
// records what it was asked.
struct RecordingFetch {
  std::vector<std::pair<std::string, std::string>> asked;  // (URL, commit)
  change::SubmoduleFetch with(const FixtureRepo& library, std::vector<git::Submodule> trusted) {
    return {std::move(trusted), [this, &library](const std::string& url, const std::string& commit)
                                    -> Result<std::unique_ptr<git::Repository>> {
              asked.emplace_back(url, commit);
              if (url != "https://example.invalid/lib.git") return fail(ExitCode::could_not_run, "HTTP 404 from " + url);
              return git::open_repository(library.path());
            }};
  }
};

// A project pinning `commit` of a library at third_party/lib that the checkout never cloned, with
// `gitmodules` as its .gitmodules.
std::string pin_without_clone(const FixtureRepo& project, const std::string& commit, const std::string& gitmodules) {
  project.write("src/k.cu", "#include <lib/util.h>\n");
  project.write(".gitmodules", gitmodules);
  project.git({"add", "-A"});
  project.git({"update-index", "--add", "--cacheinfo", "160000," + commit + ",third_party/lib"});
  return commit_index(project, "pin " + commit.substr(0, 7));
}

const std::string trusted_modules = "[submodule \"lib\"]\n\tpath = third_party/lib\n\turl = https://example.invalid/lib.git\n";

}  // namespace

TEST_CASE("submodule sources: with fetching, a submodule not checked out is read at the commit each revision pins") {
  const Library library;
  const FixtureRepo project;
  const std::string base = pin_without_clone(project, library.first, trusted_modules);
  const std::string head = pin_without_clone(project, library.second, trusted_modules);
  auto repository = git::open_repository(project.path());
  REQUIRE(repository.has_value());
  RecordingFetch recording;
  const auto fetch = recording.with(library.repo, git::parse_gitmodules(trusted_modules));
  kernels::SourceFiles base_files = unit_files(), head_files = unit_files();
  change::SubmoduleMemo memo;
  const auto base_notes = change::add_submodule_headers(**repository, base, "base", base_files, memo, {}, &fetch);
  const auto head_notes = change::add_submodule_headers(**repository, head, "head", head_files, memo, {}, &fetch);
  CHECK(base_notes == std::vector<std::string>{"submodule third_party/lib fetched for the base from "
                                               "https://example.invalid/lib.git at " + library.first.substr(0, 12) +
                                               " (compile.submodules = \"fetch\")"});
  REQUIRE(head_notes.size() == 1);
  CHECK(head_notes.front().find("for the head") != std::string::npos);
  CHECK(base_files.at("third_party/lib/include/lib/util.h").find("LIB_VERSION 1") != std::string::npos);
  CHECK(head_files.at("third_party/lib/include/lib/util.h").find("LIB_VERSION 2") != std::string::npos);
  CHECK(recording.asked == std::vector<std::pair<std::string, std::string>>{
                               {"https://example.invalid/lib.git", library.first},
                               {"https://example.invalid/lib.git", library.second}});
}

TEST_CASE("submodule sources: the URL fetched from is the base's, never one the pull request wrote") {
  const Library library;
  const FixtureRepo project;
  // The head points the submodule at a server of its own, and adds a second one.
  pin_without_clone(
      project, library.second,
      "[submodule \"lib\"]\n\tpath = third_party/lib\n\turl = https://attacker.invalid/lib.git\n"
      "[submodule \"new\"]\n\tpath = third_party/new\n\turl = https://attacker.invalid/new.git\n");
  project.git({"update-index", "--add", "--cacheinfo", "160000," + library.first + ",third_party/new"});
  const std::string with_new = commit_index(project, "a second submodule");
  auto repository = git::open_repository(project.path());
  REQUIRE(repository.has_value());
  RecordingFetch recording;
  const auto fetch = recording.with(library.repo, git::parse_gitmodules(trusted_modules));  // the base's
  kernels::SourceFiles files = unit_files();
  change::SubmoduleMemo memo;
  const auto notes = change::add_submodule_headers(**repository, with_new, "head", files, memo, {}, &fetch);
  CHECK(recording.asked == std::vector<std::pair<std::string, std::string>>{
                               {"https://example.invalid/lib.git", library.second}});
  CHECK(std::ranges::any_of(notes, [](const std::string& note) {
    return note.starts_with("submodule third_party/new not fetched: the base revision's .gitmodules gives no URL");
  }));
  CHECK(files.at("third_party/lib/include/lib/util.h").find("LIB_VERSION 2") != std::string::npos);
}

TEST_CASE("submodule sources: a fetch that fails is a note naming the submodule and the reason") {
  const Library library;
  const FixtureRepo project;
  const std::string moved = "[submodule \"lib\"]\n\tpath = third_party/lib\n\turl = https://example.invalid/moved.git\n";
  const std::string head = pin_without_clone(project, library.first, moved);
  auto repository = git::open_repository(project.path());
  REQUIRE(repository.has_value());
  RecordingFetch recording;
  const auto fetch = recording.with(library.repo, git::parse_gitmodules(moved));
  kernels::SourceFiles files = unit_files();
  change::SubmoduleMemo memo;
  const auto notes = change::add_submodule_headers(**repository, head, "head", files, memo, {}, &fetch);
  REQUIRE(notes.size() == 1);
  CHECK(notes.front() == "submodule third_party/lib not fetched (compile.submodules = \"fetch\"): HTTP 404 from "
                         "https://example.invalid/moved.git; units that include its headers were compiled without them");
  CHECK(files.size() == 1);
}
