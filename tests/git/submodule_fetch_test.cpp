// SPDX-License-Identifier: Apache-2.0
// fetch_pinned_commit: the commit a gitlink pins, fetched over https alone into kforecast's cache.
// The https URL reaches a local fixture repository through git's own url.<base>.insteadOf, set
// in a global config file of the test's (as a user's own config may rewrite URLs); everything
// else is real git.
#include "git/submodule_fetch.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "base/subprocess.hpp"
#include "support/fixture_repo.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::git;

namespace {

// GIT_CONFIG_GLOBAL pointed at `text` for the test's lifetime.
class GlobalGitConfig {
 public:
  explicit GlobalGitConfig(const std::string& text) {
    std::ofstream(m_dir.path() / "gitconfig") << text;
    if (const char* old = std::getenv("GIT_CONFIG_GLOBAL")) m_old = old;
    setenv("GIT_CONFIG_GLOBAL", (m_dir.path() / "gitconfig").c_str(), 1);
  }
  ~GlobalGitConfig() {
    if (m_old) setenv("GIT_CONFIG_GLOBAL", m_old->c_str(), 1);
    else unsetenv("GIT_CONFIG_GLOBAL");
  }
  GlobalGitConfig(const GlobalGitConfig&) = delete;
  GlobalGitConfig& operator=(const GlobalGitConfig&) = delete;

 private:
  kforecast::testing::TempDir m_dir;
  std::optional<std::string> m_old;
};

// A file of a revision in the repository at `folder`, as git prints it.
std::string show(const std::filesystem::path& folder, const std::string& object) {
  auto shown = kforecast::run_process({"git", "-C", folder.string(), "cat-file", "-p", object});
  REQUIRE(shown.has_value());
  return shown->out;
}

}  // namespace

TEST_CASE("submodule fetch: only https URLs without credentials are fetched") {
  CHECK(unfetchable_url_reason("https://github.com/NVIDIA/cutlass.git").empty());
  CHECK(unfetchable_url_reason("https://gitlab.example.org/group/sub/lib").empty());
  CHECK(unfetchable_url_reason("http://github.com/NVIDIA/cutlass.git") == "not an https URL");
  CHECK(unfetchable_url_reason("git@github.com:NVIDIA/cutlass.git") == "not an https URL");
  CHECK(unfetchable_url_reason("ssh://github.com/NVIDIA/cutlass.git") == "not an https URL");
  CHECK(unfetchable_url_reason("file:///etc") == "not an https URL");
  CHECK(unfetchable_url_reason("ext::sh -c touch% /tmp/pwned") == "not an https URL");
  CHECK(unfetchable_url_reason("../cutlass.git") == "not an https URL");
  CHECK(unfetchable_url_reason("https://user:token@github.com/a/b.git").find("credentials") != std::string::npos);
  CHECK(unfetchable_url_reason("https://github.com/a b.git").find("spaces") != std::string::npos);
  CHECK(unfetchable_url_reason("https://github.com/a\nb.git").find("control") != std::string::npos);
  CHECK(unfetchable_url_reason("https:///a.git") == "the URL names no host");
  CHECK(unfetchable_url_reason("https://github.com") == "the URL names no repository");
  CHECK(unfetchable_url_reason("https://github.com/") == "the URL names no repository");
}

TEST_CASE("submodule fetch: the pinned commit is fetched once into a folder of the URL's own") {
  const kforecast::testing::FixtureRepo library;
  library.write("include/lib/util.h", "#pragma once\n#define LIB_VERSION 1\n");
  const std::string first = library.commit("first");
  library.write("include/lib/util.h", "#pragma once\n#define LIB_VERSION 2\n");
  const std::string second = library.commit("second");
  library.git({"config", "uploadpack.allowReachableSHA1InWant", "true"});  // as GitHub serves a pinned commit
  const std::string url = "https://kforecast.invalid/lib.git";
  const GlobalGitConfig config(fmt::format("[url \"{}\"]\n\tinsteadOf = {}\n[protocol \"file\"]\n\tallow = always\n",
                                           library.path().string(), url));
  const kforecast::testing::TempDir cache;

  auto folder = fetch_pinned_commit(cache.path(), url, first);
  REQUIRE(folder.has_value());
  CHECK(*folder == fetch_folder(cache.path(), url));
  CHECK(show(*folder, first + ":include/lib/util.h").find("LIB_VERSION 1") !=
        std::string::npos);
  // The second commit beside the first, in the same folder; the first is then answered without git fetching.
  auto again = fetch_pinned_commit(cache.path(), url, second);
  REQUIRE(again.has_value());
  CHECK(*again == *folder);
  CHECK(show(*folder, second + ":include/lib/util.h").find("LIB_VERSION 2") !=
        std::string::npos);
  std::filesystem::remove_all(library.path() / ".git" / "objects");  // the server is gone
  CHECK(fetch_pinned_commit(cache.path(), url, first).has_value());
}

TEST_CASE("submodule fetch: what cannot be fetched is an error naming the URL and the reason") {
  const kforecast::testing::TempDir cache;
  auto refused = fetch_pinned_commit(cache.path(), "file:///etc", std::string(40, 'a'));
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message.find("not an https URL") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(fetch_folder(cache.path(), "file:///etc")));

  auto bad_commit = fetch_pinned_commit(cache.path(), "https://kforecast.invalid/lib.git", "HEAD; rm -rf /");
  REQUIRE_FALSE(bad_commit.has_value());
  CHECK(bad_commit.error().message.find("not a commit id") != std::string::npos);

  // A rewrite to a local path is refused by the protocol policy where the user's config does not allow files.
  const kforecast::testing::FixtureRepo library;
  library.write("a.h", "#pragma once\n");
  const std::string commit = library.commit("a");
  const GlobalGitConfig config(
      fmt::format("[url \"{}\"]\n\tinsteadOf = https://kforecast.invalid/lib.git\n", library.path().string()));
  auto blocked = fetch_pinned_commit(cache.path(), "https://kforecast.invalid/lib.git", commit);
  REQUIRE_FALSE(blocked.has_value());
  CHECK(blocked.error().message.find("https://kforecast.invalid/lib.git") != std::string::npos);
  CHECK(blocked.error().message.find("failed") != std::string::npos);
}
