// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where a GPU test finds the kforecast binary and the source tree's fixtures: the build's own, or,
// on a GPU machine running a binary built elsewhere, KF_TEST_BINARY and KF_TEST_SOURCE_DIR.

#include <cstdlib>
#include <string>

namespace kforecast::testing {

inline std::string test_setting(const char* variable, const char* fallback) {
  const char* value = std::getenv(variable);
  return value != nullptr && *value != '\0' ? value : fallback;
}

inline std::string test_binary() { return test_setting("KF_TEST_BINARY", KF_BINARY); }
inline std::string test_source_dir() { return test_setting("KF_TEST_SOURCE_DIR", KF_SOURCE_DIR); }

}  // namespace kforecast::testing
