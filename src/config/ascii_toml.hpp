// SPDX-License-Identifier: Apache-2.0
#pragma once

// toml++ 3.3 (Debian 12) reaches __builtin_unreachable on some non-ASCII code points where it
// tests for whitespace: undefined behaviour on untrusted input (upstream issues #190 and #295 of
// marzer/tomlplusplus, fixed after 3.3). So toml++ is only ever given ASCII: before parsing,
// non-ASCII text in one-line strings and quoted keys becomes \u escapes (the same value in
// TOML), in comments it becomes '?', and anywhere else it is an error. Remove this when the
// system's toml++ is fixed.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace kforecast::config {

struct TextPosition {
  std::uint32_t line = 1;
  std::uint32_t column = 1;  // in bytes
};

struct NonAsciiProblem {
  TextPosition where;
  std::string what;  // "invalid UTF-8", "non-ASCII text outside a comment or a one-line string"
};

// The same document in ASCII, or where and why it cannot be.
std::expected<std::string, NonAsciiProblem> to_ascii_toml(std::string_view text);

}  // namespace kforecast::config
