// SPDX-License-Identifier: Apache-2.0
#pragma once

// The rules `kforecast lint` and `kforecast rules` use: the built-in ones, then the repository's
// lint.rules_path read over them, minus lint.disable.

#include <filesystem>

#include "config/config.hpp"
#include "lint/rule_set.hpp"

namespace kforecast::lint_run {

// `root` is where lint.rules_path is relative to: the directory of the config file, else the
// current directory.
Result<lint::RuleSet> configured_rules(const config::Config& config);

std::filesystem::path config_root(const config::Config& config);

}  // namespace kforecast::lint_run
