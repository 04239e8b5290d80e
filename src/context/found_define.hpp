// SPDX-License-Identifier: Apache-2.0
#pragma once

// A define a build file states (CMakeLists.txt, setup.py), before its value is settled
// (build_file_defines.hpp settles it). A part of the value the reader could not work out is kept
// as a reference to what it came from, so that the settling step can say why the define was left
// out or which rule gave it a value.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace kforecast::context {

struct FoundDefine {
  std::string text;   // "NAME" or "NAME=VALUE", VALUE possibly holding references (below)
  std::string where;  // "CMakeLists.txt:212", "setup.py:40"
};

// A value the reader could not work out: "${MIN_GPU_ARCH}" from a command it does not model, an
// f-string's "{cc}", $ENV{X}. Marked with control characters no build file value holds.
inline constexpr char unknown_open = '\x01';
inline constexpr char unknown_close = '\x02';
// A variable not known whose name says it holds a GPU architecture (MIN_GPU_ARCH): it takes
// kforecast's target architecture when there is one.
inline constexpr char arch_open = '\x03';
inline constexpr char arch_close = '\x04';

inline std::string unknown_reference(std::string_view name) {
  return std::string(1, unknown_open) + std::string(name) + unknown_close;
}
inline std::string arch_reference(std::string_view name) {
  return std::string(1, arch_open) + std::string(name) + arch_close;
}

// Whether a name says it holds a GPU architecture: it contains "ARCH" in any case.
inline bool names_an_architecture(std::string_view name) {
  std::string upper(name);
  std::ranges::transform(upper, upper.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return upper.find("ARCH") != std::string::npos;
}

}  // namespace kforecast::context
