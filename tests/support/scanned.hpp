// SPDX-License-Identifier: Apache-2.0
#pragma once

// Test helpers: look up what a scan found, read fixtures.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"

namespace kforecast::kernels::testing {

inline std::string read_fixture(std::string_view name) {
  const std::filesystem::path path = std::filesystem::path(KF_SOURCE_DIR) / "fixtures" / "cuda" / name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The one function with this qualified name; throws when there is none or several.
inline const Function& only(const ScannedSource& scanned, std::string_view qualified_name) {
  const Function* found = nullptr;
  for (const Function& f : scanned.functions) {
    if (f.qualified_name != qualified_name) continue;
    if (found) throw std::runtime_error("several functions named " + std::string(qualified_name));
    found = &f;
  }
  if (!found) throw std::runtime_error("no function named " + std::string(qualified_name));
  return *found;
}

inline std::vector<std::string> qualified_names(const ScannedSource& scanned) {
  std::vector<std::string> names;
  for (const Function& f : scanned.functions) names.push_back(f.qualified_name);
  return names;
}

inline bool contains(const std::vector<std::string_view>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

inline std::string text_of(std::string_view source, const Span& span) {
  return std::string(source.substr(span.begin, span.end - span.begin));
}

}  // namespace kforecast::kernels::testing
