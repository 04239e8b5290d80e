// SPDX-License-Identifier: Apache-2.0
#pragma once

// A fresh, empty temporary directory for one test, removed with everything in it afterwards.

#include <stdlib.h>

#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

namespace kforecast::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kf-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    m_path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

}  // namespace kforecast::testing
