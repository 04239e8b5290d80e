// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "config/config.hpp"

namespace kforecast::config {

// The effective configuration as annotated TOML: each key's value and where it came from.
std::string render_effective(const Config& config);

// The reference of every key in Markdown; docs/config.md is this text (a test keeps them equal).
std::string render_reference_markdown();

}  // namespace kforecast::config
