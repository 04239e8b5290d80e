// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a Makefile comes from the repository under review. Any input gives at most one flag,
// -rdc=true with where it was found, never a crash or a hang.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "context/makefile_flags.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto found = kforecast::context::read_makefile_flags(text, "Makefile");
  if (found.size() > 1 || (!found.empty() && (found[0].text != "-rdc=true" || found[0].where.empty()))) std::abort();
  return 0;
}
