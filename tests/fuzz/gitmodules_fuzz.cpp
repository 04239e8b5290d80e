// SPDX-License-Identifier: Apache-2.0
// Fuzz target: .gitmodules comes from the repository under review, so it is untrusted. Any input
// must give submodules whose paths stay inside the repository, never a crash or a hang.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "git/submodules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& submodule : kforecast::git::parse_gitmodules(text))
    if (submodule.path.empty() || submodule.path.front() == '/' || submodule.path == ".." ||
        submodule.path.starts_with("../") || submodule.path.find("/../") != std::string::npos ||
        submodule.path.ends_with("/.."))
      std::abort();
  return 0;
}
