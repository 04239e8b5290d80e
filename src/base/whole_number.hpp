// SPDX-License-Identifier: Apache-2.0
#pragma once

// A number a user typed (an option's value, "12", "0.02"), read whole.

#include <charconv>
#include <optional>
#include <string_view>

namespace kforecast {

// nullopt: empty, trailing text, or out of the type's range.
template <class Number>
std::optional<Number> whole_number(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace kforecast
