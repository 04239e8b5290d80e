// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace kforecast {

// A JSON string literal for untrusted bytes (also a valid TOML basic string): quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD, so the document always parses.
std::string json_string(std::string_view text);

}  // namespace kforecast
