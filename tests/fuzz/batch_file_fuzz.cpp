// SPDX-License-Identifier: Apache-2.0
// The batch file a measuring child reads: any bytes give pairs or an error, every pair names a
// candidate, and what was read is written back the same.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "measure/batch_protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast;
  auto pairs = measure::parse_batch_file(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!pairs) return 0;
  for (const auto& pair : *pairs)
    if (pair.candidate.empty()) __builtin_trap();
  auto again = measure::parse_batch_file(measure::batch_file_json(*pairs));
  if (!again || again->size() != pairs->size()) __builtin_trap();
  for (std::size_t i = 0; i < pairs->size(); ++i)
    if ((*again)[i].candidate != (*pairs)[i].candidate || (*again)[i].capture != (*pairs)[i].capture) __builtin_trap();
  return 0;
}
