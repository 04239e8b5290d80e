// SPDX-License-Identifier: Apache-2.0
// A labelled-pairs dataset is a user's file: any bytes must give pairs or an error naming a line,
// never a crash, a hang or a sanitizer report.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "embedded/labelled_pairs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto pairs = kforecast::embedded::parse_labelled_pairs(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.jsonl");
  if (pairs) {
    for (const auto& pair : *pairs)
      if (!(pair.speedup > 0) || pair.reference.kernel.empty() || pair.line == 0) __builtin_trap();
  } else if (pairs.error().message.rfind("fuzz.jsonl:", 0) != 0) {
    __builtin_trap();  // every error names the file
  }
  return 0;
}
