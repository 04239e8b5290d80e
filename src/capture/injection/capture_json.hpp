// SPDX-License-Identifier: Apache-2.0
#pragma once

// A launch record as the capture file of docs/design/capture.md (version 1). Written by hand:
// the library links no JSON library into the user's program.

#include <string>
#include <string_view>
#include <vector>

#include "capture/injection/launch_record.hpp"

namespace kforecast::capture::injection {

inline constexpr int capture_format_version = 1;

struct ProgramFacts {
  std::vector<std::string> argv;
  std::string device_name;
  std::string compute_capability;  // "9.0"; empty where unknown
};

std::string capture_json(const LaunchRecord& record, const ProgramFacts& program);

std::string json_quoted(std::string_view text);

}  // namespace kforecast::capture::injection
