// SPDX-License-Identifier: Apache-2.0
// Error bodies come from servers and proxies: any bytes must parse to a message, never crash.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "llm/endpoint_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto error = kforecast::llm::parse_endpoint_error(std::string_view(reinterpret_cast<const char*>(data), size));
  if (error.message.empty() && error.code.empty() && error.type.empty() && error.param.empty() && size == 0)
    __builtin_trap();  // an empty body still gets a message
  (void)kforecast::llm::rejects_structured_output(error);
  (void)kforecast::llm::is_insufficient_quota(error);
  return 0;
}
