// SPDX-License-Identifier: Apache-2.0
#pragma once

// Test helper: a kernel of fixtures/corpus, by family and variant file.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace kforecast::embedded::testing {

inline std::string corpus_source(const std::string& family, const std::string& variant) {
  const auto path = std::filesystem::path(KF_SOURCE_DIR) / "fixtures" / "corpus" / family / (variant + ".cu");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace kforecast::embedded::testing
