// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading fixtures/endpoints/NAME for the llm tests.

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace kforecast::testing {

inline std::string endpoint_fixture(const std::string& name) {
  std::ifstream in(std::string(KF_SOURCE_DIR) + "/fixtures/endpoints/" + name, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture fixtures/endpoints/" + name);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The distribution every fixture's answer carries (predicted bin 5).
inline constexpr double fixture_p5 = 0.45;

}  // namespace kforecast::testing
