// SPDX-License-Identifier: Apache-2.0
// A measuring child's results file, written by a process that ran code under review: any bytes
// give results or an error naming the line, and every result's duration is a duration.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "measure/batch_protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast;
  auto results = measure::parse_batch_results(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!results) {
    if (results.error().message.find("line ") == std::string::npos) __builtin_trap();
    return 0;
  }
  for (const auto& result : *results)
    if (!(result.seconds >= 0)) __builtin_trap();
  return 0;
}
