// SPDX-License-Identifier: Apache-2.0
// Fuzz target: .kforecast.toml comes from the repository under review, so it is untrusted.
// Any input must give a Config or an Error with a message, never a crash or a hang.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "config/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto config = kforecast::config::parse_config(text, "fuzz.toml");
  if (!config && config.error().message.empty()) std::abort();
  return 0;
}
