// SPDX-License-Identifier: Apache-2.0
#pragma once

// The process environment as a seam: code that reads variables takes an EnvLookup, so tests
// pass a map instead of mutating the real environment.

#include <filesystem>
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

// kforecast's cache folder of `kind` ("units", "llm", ...): $XDG_CACHE_HOME/kforecast/KIND, else
// $HOME/.cache/kforecast/KIND; nullopt where neither is set (no cache, rather than one in the
// working folder).
std::optional<std::filesystem::path> kforecast_cache_directory(const EnvLookup& env, std::string_view kind);

}  // namespace kforecast
