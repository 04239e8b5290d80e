// SPDX-License-Identifier: Apache-2.0
#pragma once

// Each test executable linked with requirement_main.cpp defines missing_requirement(): why it
// cannot run here, or nullopt.

#include <optional>
#include <string>

namespace kforecast::testing {

inline constexpr int skip_exit_code = 77;

std::optional<std::string> missing_requirement();

}  // namespace kforecast::testing
