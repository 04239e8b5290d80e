// SPDX-License-Identifier: Apache-2.0
#pragma once

// Converting values to and from text: TOML literals for printing, plain strings for
// environment overrides.

#include <string>
#include <string_view>

#include "base/error.hpp"
#include "config/config.hpp"

namespace kforecast::config {

// The value as TOML would spell it: 0.2, "warn", true, ["a", "b"].
std::string to_toml_literal(const Value& value);

// Parses a default from the key table (TOML literal syntax). Throws Fatal on a bad table row.
Value parse_default(const KeySpec& spec);

// Parses an environment variable's text for `spec`. The Error says what was expected.
Result<Value> parse_plain_text(const KeySpec& spec, std::string_view text);

// Checks range and choices; returns a message ("must be between 0 and 1, got 1.5") or "".
std::string check_bounds(const KeySpec& spec, const Value& value);

// "a number between 0 and 1", "one of 'warn', 'fail'", ...: what the key accepts.
std::string describe_accepted(const KeySpec& spec);

}  // namespace kforecast::config
