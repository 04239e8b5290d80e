// SPDX-License-Identifier: Apache-2.0
// A compile log echoes the code under review (a pull request's): any bytes must classify without a
// crash, a hang or a sanitizer report, and a cause is only ever named from an error line.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "builds/compile_failure.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view log(reinterpret_cast<const char*>(data), size);
  const auto missing = kforecast::builds::missing_context(log);
  const auto error = kforecast::builds::first_error(log);
  if (missing && error.empty()) __builtin_trap();  // a cause comes from the first error line
  if (error.find('\n') != std::string::npos) __builtin_trap();
  return 0;
}
