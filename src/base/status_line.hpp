// SPDX-License-Identifier: Apache-2.0
#pragma once

// One line of `kforecast doctor`: a short label and what was found, or why not and the fix. Each
// library that knows a capability describes it in these lines; doctor only prints them.

#include <string>

namespace kforecast {

struct StatusLine {
  std::string label;  // "nvrtc", "gpu 0", "sandbox", "endpoint"
  std::string text;
  bool operator==(const StatusLine&) const = default;
};

}  // namespace kforecast
