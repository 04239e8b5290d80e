// SPDX-License-Identifier: Apache-2.0
#pragma once

// The process environment as a seam: code that reads variables takes an EnvLookup, so tests
// pass a map instead of mutating the real environment.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace kforecast {

using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;

// Reads the real environment (getenv). An empty value counts as set.
EnvLookup process_environment();

// A fixed environment for tests.
EnvLookup fixed_environment(std::map<std::string, std::string, std::less<>> variables);

}  // namespace kforecast
