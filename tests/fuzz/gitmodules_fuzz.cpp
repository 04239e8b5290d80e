// SPDX-License-Identifier: Apache-2.0
// Fuzz target: .gitmodules comes from the repository under review, so it is untrusted. Any input
// must give submodules whose paths stay inside the repository, never a crash or a hang; a URL
// compile.submodules = "fetch" would fetch from is https, with no credentials and no spaces.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "git/submodule_fetch.hpp"
#include "git/submodules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& submodule : kforecast::git::parse_gitmodules(text)) {
    if (kforecast::git::unfetchable_url_reason(submodule.url).empty() &&
        (!submodule.url.starts_with("https://") || submodule.url.find_first_of(" \t\n\r") != std::string::npos ||
         submodule.url.substr(0, submodule.url.find('/', 8)).find('@') != std::string::npos))
      std::abort();
    if (submodule.path.empty() || submodule.path.front() == '/' || submodule.path == ".." ||
        submodule.path.starts_with("../") || submodule.path.find("/../") != std::string::npos ||
        submodule.path.ends_with("/.."))
      std::abort();
  }
  return 0;
}
