// SPDX-License-Identifier: Apache-2.0
#pragma once

// The fixture repositories of fixtures/pr: each case is a folder with the base tree (base/), the
// head tree (head/) and what `kforecast pr` must say (expected.txt). A case becomes a real git
// repository of two commits; the head commit replaces the whole tree, so files the head lacks
// are deleted.

#include <algorithm>
#include <filesystem>
#include <vector>

#include <catch2/catch.hpp>

#include "support/fixture_repo.hpp"

namespace kforecast::e2e {

// Every case folder, in name order.
inline std::vector<std::filesystem::path> pr_fixture_cases() {
  const auto root = std::filesystem::path(KF_SOURCE_DIR) / "fixtures/pr";
  std::vector<std::filesystem::path> cases;
  for (const auto& entry : std::filesystem::directory_iterator(root))
    if (entry.is_directory()) cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 12);
  return cases;
}

inline void copy_tree(const std::filesystem::path& from, const testing::FixtureRepo& repo) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(from)) {
    if (!entry.is_regular_file()) continue;
    const auto target = repo.path() / std::filesystem::relative(entry.path(), from);
    std::filesystem::create_directories(target.parent_path());
    std::filesystem::copy_file(entry.path(), target, std::filesystem::copy_options::overwrite_existing);
  }
}

// Commits the case's base, then its head.
inline void commit_pr_fixture(const std::filesystem::path& case_dir, const testing::FixtureRepo& repo) {
  copy_tree(case_dir / "base", repo);
  repo.commit("base");
  repo.git({"rm", "-q", "-r", "."});
  copy_tree(case_dir / "head", repo);
  repo.commit("head");
}

}  // namespace kforecast::e2e
