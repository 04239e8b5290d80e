// SPDX-License-Identifier: Apache-2.0
#include "diff/diagnostic.hpp"

#include <fmt/format.h>

namespace kforecast::diff {

std::unexpected<Error> error_at(std::uint32_t line, std::string_view what) {
  return usage_error(fmt::format("diff line {}: {}", line, what));
}

std::string excerpt(std::string_view text) {
  constexpr std::size_t limit = 60;
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7F)
      out += static_cast<char>(byte);
    else
      out += fmt::format("\\x{:02X}", byte);
  }
  if (text.size() > limit) out += "...";
  return out;
}

}  // namespace kforecast::diff
