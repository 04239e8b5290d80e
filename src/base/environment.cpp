// SPDX-License-Identifier: Apache-2.0
#include "base/environment.hpp"

#include <cstdlib>

namespace kforecast {

EnvLookup process_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

EnvLookup fixed_environment(std::map<std::string, std::string, std::less<>> variables) {
  return [vars = std::move(variables)](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

std::optional<std::filesystem::path> kforecast_cache_directory(const EnvLookup& env, std::string_view kind) {
  if (auto xdg = env("XDG_CACHE_HOME"); xdg && !xdg->empty()) return std::filesystem::path(*xdg) / "kforecast" / kind;
  if (auto home = env("HOME"); home && !home->empty()) return std::filesystem::path(*home) / ".cache/kforecast" / kind;
  return std::nullopt;
}

}  // namespace kforecast
