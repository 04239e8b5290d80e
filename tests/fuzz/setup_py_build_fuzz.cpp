// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a setup.py comes from a pull request, so it is untrusted. Any input must give
// defines and flags, never a crash or a hang; every define then goes through the settling step
// and its allow-list, and none keeps a reference not settled.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "context/build_file_defines.hpp"
#include "context/setup_py_build.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::context;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto build = read_setup_py(text, "setup.py");
  for (const auto* found : {&build.defines, &build.undefines, &build.flags})
    for (const auto& define : *found)
      if (define.where.empty() || define.text.empty()) std::abort();
  const auto settled = settle_defines(build.defines, 90);
  for (const auto& [name, value] : settled.defines)
    if (name.empty() || (name + value).find_first_of("\x01\x02\x03\x04") != std::string::npos) std::abort();
  return 0;
}
