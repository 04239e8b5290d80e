// SPDX-License-Identifier: Apache-2.0
#pragma once

// A config put together from two: a trusted job's own config, with a few settings (and arrays of
// tables) of another config in their place — a plan's, written where a pull request may have had
// a hand in it (plan/plan_config.hpp decides which). Made as TOML text and read back, so what
// reads the text rather than the keys ([[kernel]] launch specs, [[harness]], a child process handed
// the config) sees exactly what the settings say, and nothing else of the other config.

#include <span>
#include <string>
#include <string_view>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "config/config.hpp"

namespace kforecast::config {

struct ComposedSetting {
  std::string key;  // "section.key"
  Value value;
};

// `own`'s settings from its file, then `settings` in their place, and the arrays of tables named in
// `donor_tables` ("kernel") from `donor`'s text instead of `own`'s (every other array of tables is
// `own`'s); then the environment, as load_config applies it. `name` names the result in messages.
Result<Config> compose_config(const Config& own, std::span<const ComposedSetting> settings, const Config& donor,
                              std::span<const std::string_view> donor_tables, std::string_view name,
                              const EnvLookup& env);

}  // namespace kforecast::config
